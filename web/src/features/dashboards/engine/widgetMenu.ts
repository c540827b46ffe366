import type { WidgetType } from "../../../shared/api/types.generated";

/** The widget types the `+ Add widget` menu offers; battery, table and apps stay off it. */
export const WIDGET_MENU = [
  "numbers",
  "chart",
  "velocity",
  "plannedVsUnplanned",
  "burndown",
] as const satisfies readonly WidgetType[];

export type MenuWidgetType = (typeof WIDGET_MENU)[number];
