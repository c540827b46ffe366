/**
 * The Apps widget: kept so that a saved config naming it still renders, though there are no
 * apps to embed in this version.
 */
export interface AppsResult {
  kind: "apps";
  message: string;
}

export function computeApps(): AppsResult {
  return { kind: "apps", message: "Apps are not available in this version." };
}
