/** What every cell editor takes. */
import type { Column } from "../types";

export interface CellProps<T> {
  column: Column;
  value: unknown;
  /** The accessible name of the cell's control: "<column> of <item>". */
  label: string;
  /** `null` clears the value. */
  onChange: (value: T | null) => void;
}
