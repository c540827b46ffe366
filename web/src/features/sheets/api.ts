/**
 * Thin typed calls for the Sheets page (docs/files.md "Sheets"): a spreadsheet's sheets and
 * ETag, its rows in pages, and trusted cells written back with the ETag read.
 */
import { apiFetch } from "../../shared/api/client";
import type { SheetCellEdit, SheetCellsSaved, SheetRowsPage, SheetsBook } from "../../shared/api/types.generated";

export type { SheetCellEdit, SheetCellsSaved, SheetRowsPage, SheetsBook };

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

export const openBook = (driveId: string, path: string) => apiFetch<SheetsBook>(`/sheets?${q({ driveId, path })}`);

export const readRows = (driveId: string, path: string, sheet: string, offset: number, limit: number) =>
  apiFetch<SheetRowsPage>(`/sheets/rows?${q({ driveId, path, sheet, offset: String(offset), limit: String(limit) })}`);

export const editCells = (driveId: string, path: string, sheet: string, etag: string, cells: SheetCellEdit[]) =>
  apiFetch<SheetCellsSaved>("/sheets/cells", { method: "PATCH", body: { driveId, path, sheet, etag, cells } });
