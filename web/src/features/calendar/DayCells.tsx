/**
 * A week's day cells behind its entries, in the month and in the week's all-day row: where a
 * dragged item lands, today's mark and, in a month, the neighbouring months' days dimmed.
 */
import type { Day } from "./days";

export function DayCells({
  days,
  today,
  over,
  month,
}: {
  days: readonly Day[];
  today: Day;
  /** The day a drag is over. */
  over: Day | null;
  /** `YYYY-MM` of the month shown, when in one. */
  month?: string;
}) {
  return days.map((day, i) => (
    <div
      key={`bg-${day}`}
      className="cal-day"
      style={{ gridColumn: i + 1, gridRow: "1 / -1" }}
      data-day={day}
      data-outside={(month !== undefined && !day.startsWith(month)) || undefined}
      data-today={day === today || undefined}
      data-drop={day === over || undefined}
    />
  ));
}
