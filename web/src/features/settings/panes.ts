/**
 * The settings page's panes: each section has a name an agent can put in a navigation request
 * (`POST /ui/navigate {"view": "settings", "pane": ...}` opens `/settings#<pane>`). A pane is
 * the area's slug ("sessions-agents"), or the area's and the section's
 * ("sessions-agents-agent-control"); an area's pane opens its first section. docs/api.md lists them.
 */

/** Lower-case letters and digits joined by single dashes: what a request's pane may carry. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A section's pane: the area's slug, followed by the section's unless it is the area's `general` one. */
export function paneOf(area: string, section: string): string {
  return section === "general" ? slug(area) : `${slug(area)}-${slug(section)}`;
}

/** The pane of the section the address names: that section, else the first of that area. */
export function paneFor(wanted: string, sections: readonly { pane: string; area: string }[]): string | undefined {
  if (!wanted) return undefined;
  return (sections.find((s) => s.pane === wanted) ?? sections.find((s) => s.area === wanted))?.pane;
}

/**
 * The setting the address names (`/settings#agentDrivenMaxConcurrent`, as an inbox row's fix links
 * it), when it names one of `known`; `null` for a pane or anything else.
 */
export function settingKeyOf(hash: string, known: { has(key: string): boolean }): string | null {
  let key: string;
  try {
    key = decodeURIComponent(hash);
  } catch {
    return null;
  }
  return key !== "" && known.has(key) ? key : null;
}
