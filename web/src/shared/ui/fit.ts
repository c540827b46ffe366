/**
 * Where a popover goes so it stays on screen: the shift that brings a panel drawn past an edge of
 * the window back inside it (up when it would run off the bottom, as a menu at the foot of the
 * sidebar does; left when it would run off the right), and the height it may take when it is
 * taller than the window. Pure, so the rule is tested without a browser.
 */

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface Fit {
  dx: number;
  dy: number;
  /** Set when the panel is taller than the window allows; it then scrolls. */
  maxHeight: number | null;
}

/** The margin kept between a panel and the window's edge. */
export const EDGE = 8;

export function fitIntoView(box: Box, viewport: { width: number; height: number }): Fit {
  const room = viewport.height - 2 * EDGE;
  const height = Math.min(box.height, room);
  const maxHeight = box.height > room ? room : null;
  const overBottom = box.top + height - (viewport.height - EDGE);
  let dy = overBottom > 0 ? -overBottom : 0;
  if (box.top + dy < EDGE) dy = EDGE - box.top;
  const overRight = box.left + box.width - (viewport.width - EDGE);
  let dx = overRight > 0 ? -overRight : 0;
  if (box.left + dx < EDGE) dx = EDGE - box.left;
  return { dx, dy, maxHeight };
}
