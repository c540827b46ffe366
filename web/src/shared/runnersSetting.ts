/**
 * The setting that lets sessions run on other machines (docs/runners.md), named as the settings
 * page names it: the Runners page and the New session dialog both point to it. The catalog itself
 * stays out of the main bundle, so its label is written here and a test holds it to the catalog.
 */
export const RUNNERS_SETTING = {
  key: "cloudControlPlaneEnabled",
  label: "Cloud sessions (developer preview)",
  /** The settings page opened at the section that lists it. */
  path: "/settings#sessions-agents-cloud",
} as const;
