/**
 * How the settings page groups the keys it lists: the keys this version acts on in sections in
 * catalog order, those it does not in one group per reason; which key a filter keeps; and the
 * navigation over the sections (each area with its sections). Pure, so the grouping is tested
 * without drawing the page.
 */
import { SETTING_DEFINITIONS, type SettingDefinition } from "../../shared/api/settings.generated";
import { noEffectReason } from "./effectNote";
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
 * Whether the filter's text is in the key, its label, the summary the page shows or the spec's
 * description (so a key found before still is). An empty filter keeps every key.
 */
export function matchesFilter(key: string, needle: string): boolean {
  if (!needle) return true;
  const d = DEFINITIONS.get(key);
  return [key, d?.label ?? "", d?.summary ?? "", d?.description ?? ""].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

/**
 * Whether this version acts on the key. A key this build does not describe counts as acting, so
 * it is listed with the rest and nothing stored is out of reach.
 */
export function hasEffect(key: string): boolean {
  return DEFINITIONS.get(key)?.inEffect !== false;
}

/** How many of the keys have no effect in this version: what the page's switch reveals. */
export function noEffectCount(keys: readonly string[]): number {
  return keys.filter((key) => !hasEffect(key)).length;
}

/** The settings that do nothing here, gathered under why. */
export interface NoEffectGroup {
  /** The whole reason, as the catalog gives it. */
  reason: string;
  /** Its head ("Only for a desktop app"), the group's heading, and the rest, said under it. */
  title: string;
  detail: string;
  /** In catalog order. */
  keys: string[];
}

/** Splits "Head: the rest." into the head and the rest; a reason without a colon is all head. */
export function splitReason(reason: string): { title: string; detail: string } {
  const colon = reason.indexOf(": ");
  if (colon < 0) return { title: reason, detail: "" };
  const detail = reason.slice(colon + 2);
  return { title: reason.slice(0, colon), detail: detail.charAt(0).toUpperCase() + detail.slice(1) };
}

/** The pane of the group of settings with no effect, for the navigation and `#no-effect`. */
export const NO_EFFECT_PANE = "no-effect";

/**
 * The keys with no effect, one group per reason. The smaller groups come first: they are the
 * settings a person looks for by what they are (a desktop app's, Windows'), and the large "not
 * built yet" group would bury them.
 */
export function noEffectGroups(keys: readonly string[]): NoEffectGroup[] {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const d = DEFINITIONS.get(key);
    if (!d) continue;
    const reason = noEffectReason(d);
    if (reason === undefined) continue;
    groups.set(reason, [...(groups.get(reason) ?? []), key]);
  }
  return [...groups]
    .map(([reason, grouped]) => ({ reason, ...splitReason(reason), keys: grouped }))
    .sort((a, b) => a.keys.length - b.keys.length);
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

/** What the page draws for the stored keys under a filter. */
export interface SettingsView {
  /** The keys this version acts on that the filter keeps, by section. */
  sections: Section[];
  /** The keys with no effect that the filter keeps, by reason; empty unless asked for. */
  noEffect: NoEffectGroup[];
  /** The panes the address may name: every section's, and the no-effect group's when drawn. */
  panes: { pane: string; area: string }[];
  nav: NavArea[];
}

/** The page's lists: the keys that act in sections, and when asked, those that do not in their group. */
export function settingsView(keys: readonly string[], needle: string, showNoEffect: boolean): SettingsView {
  const kept = keys.filter((key) => matchesFilter(key, needle));
  const sections = sectionsOf(kept.filter(hasEffect));
  const noEffect = showNoEffect ? noEffectGroups(kept.filter((key) => !hasEffect(key))) : [];
  const nav = navOf(sections);
  const panes: { pane: string; area: string }[] = [...sections];
  if (noEffect.length > 0) {
    nav.push({ title: NO_EFFECT_TITLE, pane: NO_EFFECT_PANE, sections: [] });
    panes.push({ pane: NO_EFFECT_PANE, area: NO_EFFECT_PANE });
  }
  return { sections, noEffect, panes, nav };
}

/** The heading of the group of settings with no effect, and its link in the navigation. */
export const NO_EFFECT_TITLE = "Settings with no effect here";
