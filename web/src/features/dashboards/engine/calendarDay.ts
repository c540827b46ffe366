/**
 * Calendar days as integers (days since 1970-01-01, UTC) so that date columns, timelines and
 * `createdAt` timestamps compare and bucket without allocating Date objects per item.
 */

/** Returned by {@link calendarDay} for anything that is not a `YYYY-MM-DD…` string. */
export const NO_DAY = -2147483648;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days from civil (Howard Hinnant's algorithm), exact for the proleptic Gregorian calendar. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * The day a value names: a `YYYY-MM-DD` date, or the date part of an RFC 3339 timestamp.
 * Anything else (wrong shape, impossible date) is {@link NO_DAY}.
 */
export function calendarDay(value: unknown): number {
  if (typeof value !== "string" || value.length < 10) return NO_DAY;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return NO_DAY;
  if (value.length > 10 && value.charCodeAt(10) !== 84 && value.charCodeAt(10) !== 116) return NO_DAY;
  const c0 = value.charCodeAt(0) - 48;
  const c1 = value.charCodeAt(1) - 48;
  const c2 = value.charCodeAt(2) - 48;
  const c3 = value.charCodeAt(3) - 48;
  const c5 = value.charCodeAt(5) - 48;
  const c6 = value.charCodeAt(6) - 48;
  const c8 = value.charCodeAt(8) - 48;
  const c9 = value.charCodeAt(9) - 48;
  // A non-digit gives a code below 0 (the OR is then negative) or above 9.
  if (
    (c0 | c1 | c2 | c3 | c5 | c6 | c8 | c9) < 0 ||
    c0 > 9 ||
    c1 > 9 ||
    c2 > 9 ||
    c3 > 9 ||
    c5 > 9 ||
    c6 > 9 ||
    c8 > 9 ||
    c9 > 9
  ) {
    return NO_DAY;
  }
  const y = c0 * 1000 + c1 * 100 + c2 * 10 + c3;
  const m = c5 * 10 + c6;
  const d = c8 * 10 + c9;
  if (m < 1 || m > 12 || d < 1) return NO_DAY;
  const max = m === 2 && !isLeap(y) ? 28 : (DAYS_IN_MONTH[m - 1] ?? 0);
  if (d > max) return NO_DAY;
  return daysFromCivil(y, m, d);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** The `YYYY-MM-DD` text of a day number. */
export function formatCalendarDay(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** The Monday on or before a day (ISO weeks start on Monday; 1970-01-01 was a Thursday). */
export function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

/**
 * The value itself when it has the shape of a `YYYY-MM-DD` string, else null. Such strings
 * order like the days they name, so filters and spans compare them as text, which is several
 * times cheaper than parsing each one. Only the shape is checked (length and dashes): the
 * server refuses malformed dates, and reading every digit costs as much as parsing.
 */
export function dayText(value: unknown): string | null {
  return typeof value === "string" && value.length === 10 && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45
    ? value
    : null;
}
