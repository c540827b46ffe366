/**
 * The quick switch between light and dark, for the sidebar's button and the palette: it changes
 * `pmColorMode` as the settings page does ("system" stays there) and names the theme it switches
 * to. Null until the settings are read.
 */
import { useMemo } from "react";
import { colorModeOf, resolveTheme } from "../shared/appearance";
import { useSettings } from "../shared/settings";
import { useToast } from "../shared/ui/toasts";
import { useMediaQuery } from "../shared/useMediaQuery";
import { themeToggle } from "./themeToggle";

export interface ThemeSwitch {
  next: "light" | "dark";
  label: string;
  switchTheme(): void;
}

export function useThemeSwitch(): ThemeSwitch | null {
  const { values, update } = useSettings();
  const toast = useToast();
  // Followed live, so the label is right after the system's theme changes under "system".
  const prefersDark = useMediaQuery("(prefers-color-scheme: dark)");
  const shown = values ? resolveTheme(colorModeOf(values.pmColorMode), prefersDark) : null;
  return useMemo(() => {
    if (shown === null) return null;
    const { next, label } = themeToggle(shown);
    const switchTheme = () => {
      update("pmColorMode", next).catch((e: unknown) => toast.error(e, "The theme was not changed"));
    };
    return { next, label, switchTheme };
  }, [shown, update, toast]);
}
