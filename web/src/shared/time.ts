/** Times in words, as the board and the inbox show them (the exact time goes in a tooltip). */

/** The time in milliseconds; 0 for a time that cannot be read. */
export function epochMs(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - epochMs(iso)) / 1000));
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** The exact local time, for a tooltip beside `relativeTime`. */
export function exactTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString();
}
