/**
 * How the settings page groups the keys it lists: sections in catalog order, which key a filter
 * keeps, and the navigation over the sections (each area with its sections). Pure, so the grouping
 * is tested without drawing the page.
 */
import { SETTING_DEFINITIONS, type SettingDefinition } from "../../shared/api/settings.generated";
import { paneOf, slug } from "./panes";

export const DEFINITIONS = new Map<string, SettingDefinition>(SETTING_DEFINITIONS.map((d) => [d.key, d]));

export interface Section {
  /** The heading: the area, and the section unless it is the area's `general` one. */
  title: string;
  pane: string;
  /** The area's slug, the pane that opens its first section. */
  area: string;
  areaTitle: string;
  /** The section's own name ("Agent control"); empty for an area's `general` section, which the area names. */
  name: string;
  keys: string[];
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Catalog order, one section per area and section; keys this build does not describe come last. */
export function sectionsOf(keys: readonly string[]): Section[] {
  const sections = new Map<string, Section>();
  for (const key of keys) {
    const d = DEFINITIONS.get(key);
    const general = !d || d.section === "general";
    const title = d ? (general ? d.area : `${d.area}: ${d.section}`) : "Other";
    let section = sections.get(title);
    if (!section) {
      section = {
        title,
        pane: d ? paneOf(d.area, d.section) : "other",
        area: d ? slug(d.area) : "other",
        areaTitle: d ? d.area : "Other",
        name: general ? "" : capitalised(d.section),
        keys: [],
      };
      sections.set(title, section);
    }
    section.keys.push(key);
  }
  return [...sections.values()];
}

/**
 * Whether a key is listed: it matches the filter (key, label or description), and it has an
 * effect in this version unless `showStoredOnly` (keys this build does not describe are listed,
 * so nothing stored is out of reach).
 */
export function isListed(key: string, needle: string, showStoredOnly: boolean): boolean {
  const d = DEFINITIONS.get(key);
  if (d && !d.inEffect && !showStoredOnly) return false;
  if (!needle) return true;
  return [key, d?.label ?? "", d?.description ?? ""].some((text) => text.toLowerCase().includes(needle));
}

/** How many of the keys have no effect in this version: what the page's switch reveals. */
export function storedOnlyCount(keys: readonly string[]): number {
  return keys.filter((key) => DEFINITIONS.get(key)?.inEffect === false).length;
}

export interface NavArea {
  title: string;
  /** The area's pane: its `general` section, else its first section. */
  pane: string;
  /** The area's named sections; an area of one `general` section has none, its own link is enough. */
  sections: { title: string; pane: string }[];
}

/** The navigation over the listed sections: their areas in order, each with its named sections. */
export function navOf(sections: readonly Section[]): NavArea[] {
  const areas = new Map<string, NavArea>();
  for (const section of sections) {
    let area = areas.get(section.area);
    if (!area) {
      area = { title: section.areaTitle, pane: section.area, sections: [] };
      areas.set(section.area, area);
    }
    if (section.name) area.sections.push({ title: section.name, pane: section.pane });
  }
  return [...areas.values()];
}
