/** The widget types the `+ Add widget` menu offers; battery, table and apps stay off it. */
export const WIDGET_MENU = ["numbers", "chart", "velocity", "plannedVsUnplanned", "burndown"] as const;

export type MenuWidgetType = (typeof WIDGET_MENU)[number];

/** Every widget type the engine computes, menu or not. */
export const WIDGET_TYPES = [...WIDGET_MENU, "battery", "table", "apps"] as const;

export type WidgetType = (typeof WIDGET_TYPES)[number];
