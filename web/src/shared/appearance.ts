/**
 * Light/dark and density: the settings `pmColorMode` and `pmBoardDensity`
 * become attributes on <html>, which the stylesheet's variables follow.
 */

export type ColorMode = "system" | "light" | "dark";
export type Density = "dense" | "compact" | "comfortable" | "spacious";

export const COLOR_MODES: readonly ColorMode[] = ["system", "light", "dark"];
export const DENSITIES: readonly Density[] = ["dense", "compact", "comfortable", "spacious"];

/** Row height in pixels per density; the board's virtual list needs it as a number. */
export const ROW_HEIGHT: Record<Density, number> = { dense: 28, compact: 32, comfortable: 40, spacious: 48 };

export function colorModeOf(value: unknown): ColorMode {
  return COLOR_MODES.includes(value as ColorMode) ? (value as ColorMode) : "system";
}

export function densityOf(value: unknown): Density {
  return DENSITIES.includes(value as Density) ? (value as Density) : "comfortable";
}

export function resolveTheme(mode: ColorMode, systemPrefersDark: boolean): "light" | "dark" {
  if (mode === "system") return systemPrefersDark ? "dark" : "light";
  return mode;
}

export function applyAppearance(root: HTMLElement, theme: "light" | "dark", density: Density): void {
  root.dataset.theme = theme;
  root.dataset.density = density;
  root.style.colorScheme = theme;
}
