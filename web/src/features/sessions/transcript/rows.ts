/**
 * The transcript as the page holds it (entries in `seq` order, from pages and the live stream in
 * any order) and as it draws it (one flat list of rows, each turn opened by its header and folded
 * by `foldTurn`), kept pure so the virtualized list only measures and draws.
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

export type Row = { kind: "turn"; key: string; turn: number; input: string | null } | ({ key: string } & TurnRow);

function rowKey(row: TurnRow): string {
  return row.kind === "entry" ? `entry-${row.entry.seq}` : row.key;
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
    for (const row of foldTurn(output, settings)) rows.push({ ...row, key: rowKey(row) });
    start = end;
  }
  for (let turn = (entries[entries.length - 1]?.turn ?? 0) + 1; turn <= turns; turn++) rows.push(header(turn));
  return rows;
}
