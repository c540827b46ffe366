/**
 * The Sheets page (`/sheets?driveId=&path=`, docs/files.md "Sheets"): a spreadsheet on a drive
 * as a grid, its sheets as tabs. Only the rows in view are drawn (fixed-height rows in one tall
 * scroller) and fetched (pages of 500, kept while the sheet is open). Sorting and filtering
 * reorder the rows loaded; with either on, the remaining pages are loaded too. A formula shows
 * on hover; cells in the columns `trustedSheets` makes editable open an editor on double click,
 * and a file changed elsewhere offers to reload instead of overwriting it.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { SheetCell } from "../../shared/api/types.generated";
import { navigate, useSearchParam } from "../../shared/router";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { TabButtons } from "../../shared/ui/Tabs";
import { editCells, openBook, readRows, type SheetsBook } from "./api";
import {
  PAGE_ROWS,
  ROW_HEIGHT,
  cellText,
  columnLetters,
  pagesFor,
  typedValue,
  viewOrder,
  visibleRange,
  type View,
} from "./grid";
import "./sheets.css";

type Rows = (SheetCell[] | undefined)[];

export function SheetsPage() {
  const driveId = useSearchParam("driveId");
  const path = useSearchParam("path");
  if (!driveId || !path) return <OpenForm />;
  return <Workbook key={`${driveId}:${path}`} driveId={driveId} path={path} />;
}

function OpenForm() {
  const [driveId, setDriveId] = useState("main");
  const [path, setPath] = useState("");
  const open = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/sheets?${new URLSearchParams({ driveId, path }).toString()}`);
  };
  return (
    <section className="sheets-page">
      <PageHeader title="Sheets" />
      <form className="sheets-open" onSubmit={open}>
        <label>
          Drive <input value={driveId} onChange={(e) => setDriveId(e.target.value)} />
        </label>
        <label>
          File <input value={path} placeholder="/Plans/launch.xlsx" onChange={(e) => setPath(e.target.value)} />
        </label>
        <button type="submit" disabled={!path.trim()}>
          Open
        </button>
      </form>
    </section>
  );
}

function Workbook({ driveId, path }: { driveId: string; path: string }) {
  const [book, setBook] = useState<SheetsBook | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sheet, setSheet] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let live = true;
    openBook(driveId, path).then(
      (b) => {
        if (!live) return;
        setBook(b);
        setSheet((s) => (s && b.sheets.some((x) => x.name === s) ? s : (b.sheets[0]?.name ?? null)));
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [driveId, path, reloads]);
  const name = path.split("/").pop() ?? path;
  if (error) return <ErrorNote error={error} onRetry={() => (setError(null), setReloads((n) => n + 1))} />;
  if (!book || sheet === null) return <Loading what={name} />;
  return (
    <section className="sheets-page">
      <PageHeader
        title={name}
        note={<span className="muted">{book.editableColumns.length ? "Some columns are editable" : "Read-only"}</span>}
      />
      <TabButtons
        label="Sheets"
        tabs={book.sheets.map((s) => ({ key: s.name, label: s.name }))}
        selected={sheet}
        onSelect={setSheet}
      />
      <Grid
        key={`${sheet}:${reloads}`}
        driveId={driveId}
        path={path}
        sheet={sheet}
        total={book.sheets.find((s) => s.name === sheet)?.rows ?? 0}
        etag={book.etag ?? ""}
        editable={book.editableColumns}
        onSaved={(etag) => setBook({ ...book, etag })}
        onReload={() => setReloads((n) => n + 1)}
      />
    </section>
  );
}

function Grid(props: {
  driveId: string;
  path: string;
  sheet: string;
  total: number;
  etag: string;
  editable: readonly number[];
  onSaved: (etag: string | null) => void;
  onReload: () => void;
}) {
  const { driveId, path, sheet, editable } = props;
  const [rows, setRows] = useState<Rows>([]);
  const [total, setTotal] = useState(props.total);
  const loaded = useRef(new Set<number>());
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const [view, setView] = useState<View>({ sortColumn: null, descending: false, filter: "" });
  const [editing, setEditing] = useState<{ row: number; column: number; text: string } | null>(null);
  const [problem, setProblem] = useState<{ message: string; stale: boolean } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const load = useCallback(
    (page: number) => {
      if (loaded.current.has(page)) return;
      loaded.current.add(page);
      readRows(driveId, path, sheet, page * PAGE_ROWS, PAGE_ROWS).then(
        (got) => {
          setRows((old) => {
            const next = old.slice();
            got.rows.forEach((row, i) => (next[got.offset + i] = row));
            return next;
          });
          const end = got.next ?? got.offset + got.rows.length;
          setTotal((t) => Math.max(t, end));
        },
        (e: unknown) => {
          loaded.current.delete(page);
          setProblem({ message: errorMessage(e), stale: false });
        },
      );
    },
    [driveId, path, sheet],
  );

  const viewing = view.sortColumn !== null || view.filter.trim() !== "";
  useEffect(() => {
    if (!viewing) return;
    for (let page = 0; page * PAGE_ROWS < total; page++) load(page);
  }, [viewing, total, load]);

  const order = useMemo(() => (viewing ? viewOrder(rows, view) : null), [viewing, rows, view]);
  const count = order ? order.length : total;
  const range = visibleRange(scroll.top, scroll.height, count);
  useEffect(() => {
    if (!order) pagesFor(range).forEach(load);
  }, [order, range.first, range.end, load]); // eslint-disable-line react-hooks/exhaustive-deps

  const columns = useMemo(() => rows.reduce((max, row) => Math.max(max, row?.length ?? 0), 1), [rows]);

  const save = (row: number, column: number, text: string) => {
    setEditing(null);
    const value = typedValue(text);
    editCells(driveId, path, sheet, props.etag, [{ row, column, value }]).then(
      (saved) => {
        setRows((old) => {
          const next = old.slice();
          const cells = (next[row] ?? []).slice();
          while (cells.length <= column) cells.push({ value: null });
          cells[column] = { value };
          next[row] = cells;
          return next;
        });
        props.onSaved(saved.etag);
      },
      (e: unknown) => setProblem({ message: errorMessage(e), stale: e instanceof ApiError && e.status === 409 }),
    );
  };

  const shown: number[] = [];
  for (let i = range.first; i < range.end; i++) shown.push(order ? (order[i] ?? i) : i);

  return (
    <div className="sheets-grid-wrap">
      <div className="sheets-tools">
        <input
          type="search"
          aria-label="Filter rows"
          placeholder="Filter rows"
          value={view.filter}
          onChange={(e) => setView({ ...view, filter: e.target.value })}
        />
        <span className="muted">{count.toLocaleString()} rows</span>
      </div>
      {problem && (
        <div className="error-note" role="alert">
          <span>{problem.message}</span>
          {problem.stale ? (
            <button type="button" onClick={props.onReload}>
              Reload
            </button>
          ) : (
            <button type="button" onClick={() => setProblem(null)}>
              Dismiss
            </button>
          )}
        </div>
      )}
      <div
        ref={scroller}
        className="sheets-grid"
        role="grid"
        aria-rowcount={count}
        aria-colcount={columns}
        onScroll={(e) => setScroll({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
      >
        <div className="sheets-row sheets-head" role="row" style={{ gridTemplateColumns: template(columns) }}>
          <span className="sheets-index" />
          {Array.from({ length: columns }, (_, c) => (
            <button
              key={c}
              type="button"
              role="columnheader"
              aria-sort={view.sortColumn === c ? (view.descending ? "descending" : "ascending") : "none"}
              className={editable.includes(c) ? "sheets-editable-head" : undefined}
              onClick={() =>
                setView({
                  ...view,
                  sortColumn: view.sortColumn === c && view.descending ? null : c,
                  descending: view.sortColumn === c && !view.descending,
                })
              }
            >
              {columnLetters(c)}
            </button>
          ))}
        </div>
        <div className="sheets-body" style={{ height: count * ROW_HEIGHT }}>
          {shown.map((index, i) => (
            <div
              key={index}
              className="sheets-row"
              role="row"
              aria-rowindex={index + 1}
              style={{ top: (range.first + i) * ROW_HEIGHT, gridTemplateColumns: template(columns) }}
            >
              <span className="sheets-index">{index + 1}</span>
              {Array.from({ length: columns }, (_, c) => {
                const cell = rows[index]?.[c];
                const canEdit = editable.includes(c);
                if (editing && editing.row === index && editing.column === c) {
                  return (
                    <input
                      key={c}
                      autoFocus
                      aria-label={`${columnLetters(c)}${index + 1}`}
                      value={editing.text}
                      onChange={(e) => setEditing({ ...editing, text: e.target.value })}
                      onBlur={() => setEditing(null)}
                      onKeyDown={(e) => {
                        if (e.key === "Enter") save(index, c, editing.text);
                        if (e.key === "Escape") setEditing(null);
                      }}
                    />
                  );
                }
                return (
                  <span
                    key={c}
                    role="gridcell"
                    className={canEdit ? "sheets-cell sheets-editable" : "sheets-cell"}
                    title={cell?.formula ? `=${cell.formula}` : undefined}
                    onDoubleClick={
                      canEdit ? () => setEditing({ row: index, column: c, text: cellText(cell) }) : undefined
                    }
                  >
                    {cellText(cell)}
                  </span>
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

const template = (columns: number) => `4rem repeat(${columns}, minmax(7rem, 1fr))`;
