/**
 * The transcript as the page holds it (entries in `seq` order, from pages and the live stream in
 * any order) and as it draws it (one flat list of rows, each turn opened by its header and folded
 * by `foldTurn`; a tool call and its result one row, consecutive output of a stream one log),
 * kept pure so the virtualized list only measures and draws.
 */
import type { Entry, OutputEvent } from "../../../shared/api/types.generated";
import { foldTurn, type FoldSettings, type TurnRow } from "./fold";

/** Merges `more` into `entries` (both in `seq` order), once per `seq`. */
export function mergeEntries(entries: Entry[], more: Entry[]): Entry[] {
  if (more.length === 0) return entries;
  const last = entries[entries.length - 1];
  const first = more[0];
  // The common cases, live output after what is held and an earlier page before it, cost no sort.
  if (!last || (first && first.seq > last.seq)) return [...entries, ...more];
  const head = entries[0];
  const tail = more[more.length - 1];
  if (head && tail && tail.seq < head.seq) return [...more, ...entries];
  const bySeq = new Map<number, Entry>();
  for (const entry of [...entries, ...more]) bySeq.set(entry.seq, entry);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The entry an `output` event carries. */
export function entryOfEvent(event: OutputEvent): Entry {
  return { seq: event.seq, turn: event.turn, at: event.at, ...event.entry };
}

type ToolCall = Extract<Entry, { kind: "tool_call" }>;
type ToolResult = Extract<Entry, { kind: "tool_result" }>;
type Output = Extract<Entry, { kind: "stdout" | "stderr" }>;

/**
 * What the page draws for a run of entries: an entry alone, a tool call with its result (`null`
 * while the tool runs), or a stream's consecutive output as one log.
 */
export type EntryRow =
  | { kind: "entry"; entry: Entry }
  | { kind: "tool"; call: ToolCall; result: ToolResult | null }
  | { kind: "log"; stream: Output["kind"]; entries: Output[] };

export type KeyedEntryRow = { key: string } & EntryRow;

export type Row =
  | { kind: "turn"; key: string; turn: number; input: string | null }
  | KeyedEntryRow
  /**
   * What the final-message folding hid, as the rows it opens to: grouped here, not when drawn,
   * so "N earlier steps" counts those rows (a call with its result is one step, not two).
   */
  | { kind: "folded"; key: string; steps: KeyedEntryRow[] }
  | Extract<TurnRow, { kind: "marker" }>;

/** Stable while entries are appended: a row is named by its first entry. */
function entryRowKey(row: EntryRow): string {
  switch (row.kind) {
    case "entry":
      return `entry-${row.entry.seq}`;
    case "tool":
      return `entry-${row.call.seq}`;
    case "log":
      return `log-${(row.entries[0] as Output).seq}`;
  }
}

/**
 * A log holds at most this many entries or characters, so a program that prints 50 MB still
 * draws as rows the list can leave out of the page, each a screenful or so.
 */
export const LOG_MAX_ENTRIES = 100;
export const LOG_MAX_CHARS = 64 * 1024;

/** `entries` as rows (see `groupEntries`), each named as the transcript names it. */
function keyedRows(entries: readonly Entry[]): KeyedEntryRow[] {
  return groupEntries(entries).map((row) => ({ ...row, key: entryRowKey(row) }));
}

/**
 * `entries` as rows: each tool result joins its call (by the engine's tool id, else the call
 * right before it), and each run of one stream's output becomes one log (split at the limits
 * above). A result whose call is not held (an earlier page) stands alone.
 */
export function groupEntries(entries: readonly Entry[]): EntryRow[] {
  const rows: EntryRow[] = [];
  const waiting = new Map<string, Extract<EntryRow, { kind: "tool" }>>();
  let logChars = 0;
  for (const entry of entries) {
    const last = rows[rows.length - 1];
    if (entry.kind === "tool_call") {
      const row = { kind: "tool" as const, call: entry, result: null };
      if (entry.toolId !== null) waiting.set(entry.toolId, row);
      rows.push(row);
    } else if (entry.kind === "tool_result") {
      const byId = entry.toolId === null ? undefined : waiting.get(entry.toolId);
      const call = byId ?? (last?.kind === "tool" && last.result === null && entry.toolId === null ? last : undefined);
      if (call && call.result === null) {
        call.result = entry;
        if (entry.toolId !== null) waiting.delete(entry.toolId);
      } else {
        rows.push({ kind: "entry", entry });
      }
    } else if (entry.kind === "stdout" || entry.kind === "stderr") {
      const fits =
        last?.kind === "log" &&
        last.stream === entry.kind &&
        last.entries.length < LOG_MAX_ENTRIES &&
        logChars + entry.text.length <= LOG_MAX_CHARS;
      if (fits) {
        last.entries.push(entry);
        logChars += entry.text.length;
      } else {
        rows.push({ kind: "log", stream: entry.kind, entries: [entry] });
        logChars = entry.text.length;
      }
    } else {
      rows.push({ kind: "entry", entry });
    }
  }
  return rows;
}

/**
 * The rows to draw. Each turn's header shows what started it: its `input` entry, or until that
 * arrives (and for sessions recorded before turns stored one) what `inputs` holds for the turns the
 * page knows (the prompt for turn 1, follow-ups sent from this page); a turn whose first entries are not loaded yet
 * (`complete` false) gets no header until they are, and a started turn without output yet (up to
 * `turns`) gets its header alone.
 */
export function transcriptRows(
  entries: Entry[],
  settings: FoldSettings,
  inputs: ReadonlyMap<number, string>,
  complete: boolean,
  turns: number,
): Row[] {
  const header = (turn: number, input?: string): Row => ({
    kind: "turn",
    key: `turn-${turn}`,
    turn,
    input: input ?? inputs.get(turn) ?? null,
  });
  const rows: Row[] = [];
  let start = 0;
  while (start < entries.length) {
    const turn = entries[start]?.turn ?? 0;
    let end = start;
    while (end < entries.length && entries[end]?.turn === turn) end++;
    const isFirstHeld = start === 0;
    const turnEntries = entries.slice(start, end);
    const input = turnEntries.find((e) => e.kind === "input");
    if (!isFirstHeld || complete || input) {
      rows.push(header(turn, input?.kind === "input" ? input.text : undefined));
    }
    const output = turnEntries.filter((e) => e.kind !== "input");
    let shown: Entry[] = [];
    const flushShown = () => {
      for (const row of keyedRows(shown)) rows.push(row);
      shown = [];
    };
    for (const row of foldTurn(output, settings)) {
      if (row.kind === "entry") {
        shown.push(row.entry);
      } else {
        flushShown();
        rows.push(row.kind === "folded" ? { kind: "folded", key: row.key, steps: keyedRows(row.entries) } : row);
      }
    }
    flushShown();
    start = end;
  }
  for (let turn = (entries[entries.length - 1]?.turn ?? 0) + 1; turn <= turns; turn++) rows.push(header(turn));
  return rows;
}
