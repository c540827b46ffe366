/**
 * Touch targets: the media query under which the stylesheet grows controls to `--touch` (44 px),
 * and the row height a virtual list must use there, since a 44 px control needs room around it.
 */
export const TOUCH_PX = 44;

/** The stylesheet's phone query (`@media (max-width: 640px), (pointer: coarse)` in styles.css). */
export const PHONE_QUERY = "(max-width: 640px), (pointer: coarse)";

/** A row of controls on a phone: at least a target and a few pixels of room above and below it. */
export function touchRowHeight(height: number, phone: boolean): number {
  return phone ? Math.max(height, TOUCH_PX + 8) : height;
}

/** A pointer that is a finger: there, keyboard hints say nothing and Enter starts a line. */
export const COARSE_QUERY = "(pointer: coarse)";

/** How a box that sends is sent, in the words of the device it is typed on. */
export function sendHint(touch: boolean): string {
  return touch ? "tap Send to send" : "Enter sends, Shift+Enter for a new line";
}
