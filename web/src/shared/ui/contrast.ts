/**
 * WCAG 2.x contrast: the relative luminance of an sRGB colour, the ratio between two colours, and
 * the text colour that reads on a given background. Pure, so the stylesheet's tokens and a
 * pill's colours can be checked by tests instead of by eye.
 */

/** What AA asks of text: 4.5:1 for body text, 3:1 for large text and for the edges of controls. */
export const AA_TEXT = 4.5;
export const AA_LARGE = 3;

/**
 * Text for pills on arbitrary colours: black or white. Only these two reach 4.5:1 on every
 * colour (the worst, a mid tone, still gets 4.58:1); a softer dark fails on mid purples.
 */
export const DARK_TEXT = "#000000";
export const LIGHT_TEXT = "#ffffff";

export type Rgb = readonly [number, number, number];

/** `#rgb`, `#rrggbb` or `rgb(r, g, b)` (alpha is not supported: a translucent colour has no one contrast). */
export function parseColor(color: string): Rgb | null {
  const value = color.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value);
  if (short) return [short[1]!, short[2]!, short[3]!].map((d) => parseInt(d + d, 16)) as unknown as Rgb;
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(value);
  if (long) return [long[1]!, long[2]!, long[3]!].map((d) => parseInt(d, 16)) as unknown as Rgb;
  const fn = /^rgb\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*\)$/.exec(value);
  if (fn) {
    const rgb = [fn[1]!, fn[2]!, fn[3]!].map(Number);
    return rgb.every((c) => c <= 255) ? (rgb as unknown as Rgb) : null;
  }
  return null;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** From 1 (the same colour) to 21 (black on white); null when either colour cannot be read. */
export function contrastRatio(a: string, b: string): number | null {
  const [x, y] = [parseColor(a), parseColor(b)];
  if (!x || !y) return null;
  const [lx, ly] = [relativeLuminance(x), relativeLuminance(y)];
  return (Math.max(lx, ly) + 0.05) / (Math.min(lx, ly) + 0.05);
}

/**
 * The text colour for a pill of colour `background`: whichever of dark and white contrasts more,
 * so a light grey "To Do" gets dark text and a deep red white. Unreadable colours get dark text.
 */
export function readableTextOn(background: string): string {
  const onDark = contrastRatio(LIGHT_TEXT, background);
  const onLight = contrastRatio(DARK_TEXT, background);
  if (onDark === null || onLight === null) return DARK_TEXT;
  return onDark > onLight ? LIGHT_TEXT : DARK_TEXT;
}
