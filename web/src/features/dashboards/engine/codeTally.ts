/**
 * Kept items tallied by slot (0 for no value, code + 1 for entry `code` of a column as read): the
 * one loop over items of the widgets that aggregate over a board's entries. A board's columns
 * hold few distinct values beside its items, and what each value means (its number, its
 * buckets) is decided once per entry (`columnar.ts`); what is left per item is this small loop
 * of integers, the same for every column and widget, which the JIT compiles once and early.
 * Copying each column into a value per item first took a loop of its own per column, all run
 * in a worker whose code nothing has compiled yet.
 */

/** Per slot: its kept items' count, sum, least and greatest value. */
export interface SlotTally {
  count: Float64Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
  /** The slots the kept items hold, in the order they first meet them (`metCount` of them). */
  met: Int32Array;
  metCount: number;
}

/**
 * Tallies each kept row's value (`valueOfSlot` at the slot of its `valueCodes`; NaN leaves the
 * row out) into the slot of its `codes` (`slots` of them), in row order. Slots merged in `met`
 * order add up the same way whatever order a board's dictionary lists its entries in.
 */
export function tallyBySlot(
  rows: Uint32Array,
  codes: Int32Array,
  slots: number,
  valueCodes: Int32Array,
  valueOfSlot: Float64Array,
): SlotTally {
  const count = new Float64Array(slots);
  const sum = new Float64Array(slots);
  const min = new Float64Array(slots).fill(Infinity);
  const max = new Float64Array(slots).fill(-Infinity);
  const met = new Int32Array(slots);
  let metCount = 0;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const v = valueOfSlot[(valueCodes[row] as number) + 1] as number;
    if (v !== v) continue;
    const slot = (codes[row] as number) + 1;
    if (count[slot] === 0) met[metCount++] = slot;
    count[slot] = (count[slot] as number) + 1;
    sum[slot] = (sum[slot] as number) + v;
    if (v < (min[slot] as number)) min[slot] = v;
    if (v > (max[slot] as number)) max[slot] = v;
  }
  return { count, sum, min, max, met, metCount };
}
