/**
 * The Battery widget (off the add-widget menu): the share of items per label of a status
 * column, labels merged by name across boards, in label order.
 */
import { doneLabelNames, statusLabels } from "./columnSettings";
import { type BucketEntry, bucketCodes } from "./columnar";
import { resolveColumn } from "./resolveColumn";
import type { BatterySettings, FilteredData } from "./types";
import { EMPTY_BUCKET_LABEL } from "./computeChart";

export interface BatterySegment {
  label: string;
  count: number;
  /** count / total, 0 to 1. */
  share: number;
  done: boolean;
  color?: string;
}

export interface BatteryResult {
  kind: "battery";
  /** Labels in order, then any value not among the labels, then "(empty)"; zero-count ones left out. */
  segments: BatterySegment[];
  total: number;
  doneCount: number;
  doneShare: number;
  empty: boolean;
  boardsWithoutColumn: string[];
  problem: string | null;
}

export function computeBattery(data: FilteredData, settings: BatterySettings | undefined): BatteryResult {
  const ref = settings?.column;
  const segments: BatterySegment[] = [];
  const index = new Map<string, number>();
  const boardsWithoutColumn: string[] = [];
  let emptyCount = 0;
  let total = 0;
  const segment = (label: string, done: boolean, color?: string): BatterySegment => {
    let i = index.get(label);
    if (i === undefined) {
      i = segments.length;
      index.set(label, i);
      segments.push(
        color === undefined ? { label, count: 0, share: 0, done } : { label, count: 0, share: 0, done, color },
      );
    }
    return segments[i] as BatterySegment;
  };
  for (const { board, rows } of data.boards) {
    const column = ref === undefined || ref === null ? undefined : resolveColumn(ref, board);
    if (!column || column.type !== "status") {
      boardsWithoutColumn.push(board.id);
      continue;
    }
    const done = doneLabelNames(column);
    for (const l of statusLabels(column)) segment(l.name, l.done === true, l.color);
    const { entries, codes } = bucketCodes(board, column, "day");
    // Segments in the order their values first appear among the kept items.
    const toSegment: (BatterySegment | undefined)[] = new Array(entries.length);
    for (let k = 0; k < rows.length; k++) {
      const c = codes[rows[k] as number] as number;
      if (c < 0) {
        emptyCount++;
        continue;
      }
      let s = toSegment[c];
      if (s === undefined) {
        const key = (entries[c] as BucketEntry).key;
        s = toSegment[c] = segment(key, done.has(key));
      }
      s.count++;
    }
    total += rows.length;
  }
  if (emptyCount > 0) segment(EMPTY_BUCKET_LABEL, false).count = emptyCount;
  const kept = segments.filter((s) => s.count > 0);
  let doneCount = 0;
  for (const s of kept) {
    s.share = s.count / total;
    if (s.done) doneCount += s.count;
  }
  return {
    kind: "battery",
    segments: kept,
    total,
    doneCount,
    doneShare: total === 0 ? 0 : doneCount / total,
    empty: total === 0,
    boardsWithoutColumn,
    problem: ref === undefined || ref === null ? "Choose a status column" : null,
  };
}
