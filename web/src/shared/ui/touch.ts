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
