/**
 * A choice kept per browser in localStorage. Storage can be off (private mode, a blocked origin),
 * so reads fall back to nothing and writes are dropped: the choice then lasts for this page only.
 */
export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; `null` forgets it. */
export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: see the module's note.
  }
}
