/**
 * The `/` menu's choice, apart from its drawing: when the text being typed asks for it, which of
 * the engine's skills match what follows the `/`, best first, and the text once one is picked.
 * The menu only ever filters: a plain `/path/to/file` matches nothing, so nothing stops it being
 * sent as typed.
 */

import type { Skill } from "../api/types.generated";

/**
 * One entry of `GET /skills` (issue 65): `insert` is what goes in the box, `/name` or `$name`; a
 * skill whose file is broken carries `error`, and an entry without a name is the engine's reason
 * for listing nothing.
 */
export type { Skill };

/** What the menu shows for one engine and folder: the skills, or why the engine lists none. */
export interface SkillList {
  skills: readonly Skill[];
  /** Why the list is empty (an engine that cannot list, a list that failed); shown on hover. */
  reason: string | null;
}

/** The most options drawn at once: typing more narrows it. */
export const MENU_LIMIT = 50;

/**
 * What was typed after a leading `/` when the caret is still in that first word: `""` right
 * after the `/`; null when the text does not start with `/`, the caret has left the word, or the
 * word is a path (a second `/`).
 */
export function slashQuery(text: string, caret: number): string | null {
  if (!text.startsWith("/")) return null;
  const end = wordEnd(text);
  if (caret < 1 || caret > end) return null;
  const word = text.slice(1, end);
  if (word.includes("/")) return null;
  return word;
}

/** Where the first word ends: the first whitespace, or the end of the text. */
function wordEnd(text: string): number {
  const match = /\s/.exec(text);
  return match ? match.index : text.length;
}

/**
 * How well a skill matches the lower-cased query; null when it does not. Lower is better: the
 * whole name, then a name that starts with it, then one with a part (after `-`, `_`, `:` or `.`)
 * that starts with it, then anywhere in the name, then in the description.
 */
function rank(skill: Skill, query: string): number | null {
  if (query === "") return 0;
  const name = skill.name.toLowerCase();
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  if (name.split(/[-_:.]/).some((part) => part.startsWith(query))) return 2;
  if (name.includes(query)) return 3;
  if (skill.description.toLowerCase().includes(query)) return 4;
  return null;
}

/**
 * The skills that match `query`, best first; within one rank, in the server's order (the
 * folder's and the user's own before plugins' and the engine's built-in ones).
 */
export function matchSkills(skills: readonly Skill[], query: string, limit = MENU_LIMIT): Skill[] {
  const wanted = query.toLowerCase();
  return skills
    .map((skill) => ({ skill, rank: rank(skill, wanted) }))
    .filter((entry): entry is { skill: Skill; rank: number } => entry.rank !== null)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map((entry) => entry.skill);
}

/** The text with its leading `/word` replaced by the skill's `insert` and one space; the caret goes after that space. */
export function pickSkill(text: string, skill: Skill): { text: string; caret: number } {
  const rest = text.slice(wordEnd(text)).replace(/^[ \t]+/, "");
  const inserted = `${skill.insert} `;
  return { text: inserted + rest, caret: inserted.length };
}

/** The next option's index going `step` (+1 down, -1 up), wrapping at both ends. */
export function moveActive(active: number, step: 1 | -1, count: number): number {
  if (count === 0) return 0;
  return (active + step + count) % count;
}

/** How a scope reads beside a skill's name. */
export const SCOPE_WORDS: Record<Skill["scope"], string> = {
  user: "Yours",
  project: "Project",
  plugin: "Plugin",
  builtin: "Built in",
};

/**
 * `GET /skills`'s answer as the menu shows it: an entry without a name carries the engine's
 * reason for listing nothing (an engine that cannot list), not a skill.
 */
export function skillList(entries: readonly Skill[]): SkillList {
  const skills = entries.filter((entry) => entry.name !== "");
  const reasons = entries.filter((entry) => entry.name === "" && entry.error).map((entry) => entry.error as string);
  if (skills.length > 0) return { skills, reason: null };
  return { skills, reason: reasons.length > 0 ? reasons.join(" ") : "This engine offers no skills in this folder." };
}
