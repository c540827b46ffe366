/**
 * Thin typed calls for the Drive page (docs/files.md). A folder's page comes with its headers
 * (how many members, where the next page starts). An upload goes through XMLHttpRequest, the
 * one browser API that reports an upload's progress, with the file as the raw body; a download
 * is a plain link the browser saves, so no file passes through the page's memory.
 */
import { ApiError, apiFetch, apiRequest } from "../../shared/api/client";
import type { DriveAccount, DriveEntry, NewDrive } from "../../shared/api/types.generated";

export type { DriveAccount, DriveEntry, NewDrive };

export interface FolderPage {
  entries: DriveEntry[];
  total: number;
  next: number | null;
}

/** The page size the page asks for; the server allows up to 5,000. */
export const PAGE = 500;

const filesPath = (driveId: string, path: string, extra: Record<string, string> = {}) =>
  `/drives/${encodeURIComponent(driveId)}/files?${new URLSearchParams({ path, ...extra }).toString()}`;

export const listDrives = () => apiFetch<DriveAccount[]>("/drives");

export const addDrive = (drive: NewDrive) => apiFetch<DriveAccount>("/drives", { method: "POST", body: drive });

export async function listFolder(driveId: string, path: string, offset = 0): Promise<FolderPage> {
  const reply = await apiRequest<DriveEntry[]>(
    filesPath(driveId, path, { offset: String(offset), limit: String(PAGE) }),
    {
      priority: "low",
    },
  );
  const next = reply.headers.get("x-next-offset");
  return {
    entries: reply.data,
    total: Number(reply.headers.get("x-total-count") ?? reply.data.length),
    next: next === null ? null : Number(next),
  };
}

/** The address the browser saves a file from (the session cookie authenticates it). */
export const downloadUrl = (driveId: string, path: string) => `/api${filesPath(driveId, path, { download: "1" })}`;

export const makeFolder = (driveId: string, path: string) =>
  apiFetch<DriveEntry>(`/drives/${encodeURIComponent(driveId)}/folders`, { method: "POST", body: { path } });

export const moveEntry = (driveId: string, from: string, to: string) =>
  apiFetch<DriveEntry>(`/drives/${encodeURIComponent(driveId)}/move`, { method: "POST", body: { from, to } });

export const deleteEntry = (driveId: string, path: string) =>
  apiFetch<unknown>(filesPath(driveId, path), { method: "DELETE" });

export interface Upload {
  done: Promise<DriveEntry>;
  cancel: () => void;
}

/** Sends `file` to `path`, calling `onProgress(sentBytes)` as it goes; the promise ends with the entry or an ApiError. */
export function uploadFile(driveId: string, path: string, file: Blob, onProgress: (sent: number) => void): Upload {
  const request = new XMLHttpRequest();
  const done = new Promise<DriveEntry>((resolve, reject) => {
    request.open("PUT", `/api${filesPath(driveId, path)}`);
    request.withCredentials = true;
    request.setRequestHeader("Content-Type", "application/octet-stream");
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      let parsed: unknown;
      try {
        parsed = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(parsed as DriveEntry);
        return;
      }
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      reject(
        new ApiError(
          request.status,
          error?.code ?? "http_error",
          error?.message ?? `The server answered ${request.status}.`,
        ),
      );
    };
    request.onerror = () =>
      reject(new ApiError(0, "network_error", "The upload broke off: Switchboard could not be reached."));
    request.onabort = () => reject(new ApiError(0, "aborted", "The upload was cancelled."));
    request.send(file);
  });
  return { done, cancel: () => request.abort() };
}
