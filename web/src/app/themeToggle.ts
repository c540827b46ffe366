/** The theme button's action: the other theme than the one shown, and a label that says so. */
export function themeToggle(shown: "light" | "dark"): { next: "light" | "dark"; label: string } {
  const next = shown === "dark" ? "light" : "dark";
  return { next, label: `Switch to ${next} theme` };
}
