/**
 * "Show only the final message": which of a turn's entries the session page shows and which it
 * folds into an expandable row, from the entries alone and the five `finalMessage*` settings.
 * Pure, so every rule is tested without rendering (docs/sessions.md states the rules).
 */
import type { SettingsValues } from "../../../shared/api/settings.generated";
import type { Entry } from "../../../shared/api/types.generated";

export interface FoldSettings {
  /** `finalMessageMarkerAlwaysHide`: the marker hides what precedes it on plain answers too. */
  alwaysHide: boolean;
  /** `finalMessageMarkerShowAllBlocks`: several marked messages in a turn are all shown. */
  showAllBlocks: boolean;
  /** `finalMessageStructuralFloor`: on a turn with tools, text after the last tool step stays. */
  structuralFloor: boolean;
  /** `finalMessageMarkerDebug`: a divider at the marker instead of hiding. */
  debug: boolean;
  /** `finalMessageCliBoundaryWins`: the engine's `final` entry wins over the printed marker. */
  cliBoundaryWins: boolean;
}

export type TurnRow =
  | { kind: "entry"; entry: Entry }
  /** Entries shown collapsed as one row; `key` is stable while entries are appended after it. */
  | { kind: "folded"; key: string; entries: Entry[] }
  /** Where a marker stood (debug mode only). */
  | { kind: "marker"; key: string };

/** The line an agent prints before its final answer: an HTML comment, invisible in Markdown. */
export const FINAL_MARKER = "<!-- final -->";

const isMarkerLine = (line: string) => line.trim() === FINAL_MARKER;

/** Kinds that are a tool step: the structural floor sits after the last of them. */
const TOOL_KINDS = new Set<Entry["kind"]>(["tool_call", "tool_result", "todo"]);

/** Text the marker can stand in: the agent's messages, and the engine's copy of the last one. */
function messageText(entry: Entry): string | null {
  return entry.kind === "text" || entry.kind === "final" ? entry.text : null;
}

/** `entry` with its text replaced (only called on `text` and `final` entries). */
function withText(entry: Entry, text: string): Entry {
  return entry.kind === "text" || entry.kind === "final" ? { ...entry, text } : entry;
}

/**
 * The engine's `final` repeats the turn's last message (Claude's `result`, Codex's last
 * `agent_message`): the copy that is also a `text` entry is dropped so the answer shows once,
 * at the boundary.
 */
function withoutFinalCopy(entries: Entry[]): Entry[] {
  const finalAt = entries.findLastIndex((e) => e.kind === "final");
  const final = entries[finalAt];
  if (!final || final.kind !== "final") return entries;
  const copyAt = entries.findLastIndex(
    (e, i) => i < finalAt && e.kind === "text" && e.text.trim() === final.text.trim(),
  );
  return copyAt < 0 ? entries : entries.filter((_, i) => i !== copyAt);
}

/**
 * One piece of the turn with whether it is shown. A message holding a marker is split at it:
 * what precedes the marker line is one piece, what follows it another (`marked`).
 */
interface Piece {
  entry: Entry;
  visible: boolean;
  /** Starts right after a marker line. */
  marked: boolean;
}

function splitAtMarkers(entries: Entry[]): Piece[] {
  const pieces: Piece[] = [];
  for (const entry of entries) {
    const text = messageText(entry);
    const lines = text?.split("\n");
    if (!lines?.some(isMarkerLine)) {
      pieces.push({ entry, visible: true, marked: false });
      continue;
    }
    let current: string[] = [];
    let marked = false;
    const flush = () => {
      const chunk = current.join("\n");
      if (chunk.trim() !== "" || marked) pieces.push({ entry: withText(entry, chunk.trim()), visible: true, marked });
      current = [];
    };
    for (const line of lines) {
      if (isMarkerLine(line)) {
        flush();
        marked = true;
      } else {
        current.push(line);
      }
    }
    flush();
  }
  return pieces;
}

/** Groups the pieces into rows: each run of hidden pieces becomes one folded row. */
function toRows(pieces: Piece[], dividers: boolean): TurnRow[] {
  const rows: TurnRow[] = [];
  let hidden: Entry[] = [];
  const flush = () => {
    const first = hidden[0];
    if (first) rows.push({ kind: "folded", key: `fold-${first.seq}`, entries: hidden });
    hidden = [];
  };
  pieces.forEach((piece, i) => {
    if (dividers && piece.marked) rows.push({ kind: "marker", key: `marker-${piece.entry.seq}-${i}` });
    if (piece.visible) {
      flush();
      // A marked message's empty remainder (the marker was its last line) has nothing to show.
      const text = messageText(piece.entry);
      if (text === null || text !== "") rows.push({ kind: "entry", entry: piece.entry });
    } else {
      hidden.push(piece.entry);
    }
  });
  flush();
  return rows;
}

/** The rows of one turn's entries (in `seq` order), folded as the settings say. */
export function foldTurn(turnEntries: Entry[], settings: FoldSettings): TurnRow[] {
  const entries = withoutFinalCopy(turnEntries);
  const pieces = splitAtMarkers(entries);
  const markers = pieces.flatMap((p, i) => (p.marked ? [i] : []));
  const boundary = pieces.findLastIndex((p) => p.entry.kind === "final");
  const usedTools = pieces.some((p) => TOOL_KINDS.has(p.entry.kind));

  const markerRules = markers.length > 0 && !(settings.cliBoundaryWins && boundary >= 0);
  if (markerRules) {
    if (settings.debug) return toRows(pieces, true);
    if (!usedTools && !settings.alwaysHide) return toRows(pieces, false);
    const lastTool = pieces.findLastIndex((p) => TOOL_KINDS.has(p.entry.kind));
    const floor = settings.structuralFloor && usedTools ? lastTool : Infinity;
    const lastMarker = markers[markers.length - 1] ?? 0;
    const firstMarker = markers[0] ?? 0;
    // A marked block: the message after a marker and the messages right after it.
    let inBlock = false;
    pieces.forEach((piece, i) => {
      if (i >= lastMarker) return;
      const message = messageText(piece.entry) !== null;
      inBlock = settings.showAllBlocks && i >= firstMarker && (piece.marked || (message && inBlock));
      const keptByFloor = i > floor && message;
      piece.visible = inBlock || keptByFloor || piece.entry.kind === "error";
    });
    return toRows(pieces, false);
  }
  // Without a marker, the engine's boundary: what precedes its `final` folds into one row.
  if (boundary >= 0) pieces.forEach((piece, i) => (piece.visible = i >= boundary || piece.entry.kind === "error"));
  return toRows(pieces, false);
}

/** The settings' values, the catalog's defaults while they load. */
export function foldSettingsOf(values: Partial<SettingsValues> | undefined): FoldSettings {
  return {
    alwaysHide: values?.finalMessageMarkerAlwaysHide ?? true,
    showAllBlocks: values?.finalMessageMarkerShowAllBlocks ?? true,
    structuralFloor: values?.finalMessageStructuralFloor ?? true,
    debug: values?.finalMessageMarkerDebug ?? false,
    cliBoundaryWins: values?.finalMessageCliBoundaryWins ?? false,
  };
}
