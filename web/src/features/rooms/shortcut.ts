/**
 * Ctrl+Shift+Z (Cmd+Shift+Z on a Mac) opens Meeting rooms while `meetingRoomsEnabled` is on. Text
 * fields keep the keys: there the combination is the editor's redo.
 */
type Values = Readonly<Record<string, unknown>> | undefined;

export const ROOMS_PATH = "/meeting-rooms";

export function roomsShown(values: Values): boolean {
  return values?.meetingRoomsEnabled !== false;
}

interface Keyed {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

function typingIn(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Whether a key press is the shortcut, for a user whose settings show the rooms. Before the
 * settings are read it is not: a page just loaded would open the rooms the stored setting hides.
 */
export function isRoomsShortcut(event: Keyed, values: Values): boolean {
  return (
    values !== undefined &&
    roomsShown(values) &&
    event.key.toLowerCase() === "z" &&
    (event.ctrlKey || event.metaKey) &&
    event.shiftKey &&
    !event.altKey &&
    !typingIn(event.target)
  );
}
