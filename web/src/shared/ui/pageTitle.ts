/** The browser tab's title for a page: the thing's own name (a board's, a dashboard's), then the app. */
export const APP_NAME = "Switchboard";

export function pageTitle(name: string | undefined): string {
  const trimmed = name?.trim();
  return trimmed ? `${trimmed} · ${APP_NAME}` : APP_NAME;
}
