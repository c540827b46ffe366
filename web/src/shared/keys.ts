/** Keyboard use of a list page, shared by the pages that offer j/k: when a key is the page's, and where j/k move. */

/** Whether a key pressed in `target` is typing (a field, a select, editable text), not a command. */
export function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** The selection after `j` (+1) or `k` (-1), kept inside the list; none selected starts at the top. */
export function moveSelection(items: readonly { id: string }[], selected: string | null, step: 1 | -1): string | null {
  if (items.length === 0) return null;
  const at = items.findIndex((item) => item.id === selected);
  if (at < 0) return items[0]?.id ?? null;
  const next = Math.min(items.length - 1, Math.max(0, at + step));
  return items[next]?.id ?? null;
}
