/**
 * Recipes apart from their rendering: the `{{name}}` placeholders of a prompt (read as the server
 * reads them), the form's fields and what they send (or every problem with them), and the words
 * for a run's state.
 */
import { fieldProblems, type FormErrors } from "../../shared/api/formErrors";
import type { Recipe, RecipeFields, RecipeRun, RecipeRunState } from "../../shared/api/types.generated";

/** A placeholder's name: a letter or `_`, then letters, digits, `_`, `-` or `.`. */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The placeholders a prompt names, each once, in order of first use: `{{name}}`, spaces inside
 * the braces allowed. Braces around anything that is not a name, or a `{{` never closed, are text.
 */
export function placeholders(prompt: string): string[] {
  const found: string[] = [];
  let at = 0;
  for (;;) {
    const open = prompt.indexOf("{{", at);
    if (open < 0) break;
    const close = prompt.indexOf("}}", open + 2);
    if (close < 0) break;
    const name = prompt.slice(open + 2, close).trim();
    if (NAME.test(name)) {
      if (!found.includes(name)) found.push(name);
      at = close + 2;
    } else {
      // Braces around no name: step past the first brace only, so a `{{name}}` inside is still found.
      at = open + 1;
    }
  }
  return found;
}

/** The placeholders that have no value yet (a blank one counts as none). */
export function missingValues(names: readonly string[], values: Readonly<Record<string, string>>): string[] {
  return names.filter((name) => (values[name] ?? "").trim() === "");
}

/** Only the values the prompt names: a stale one from an earlier prompt is not sent. */
export function valuesFor(names: readonly string[], values: Readonly<Record<string, string>>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = values[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

export const PERMISSION_LEVELS = ["read_only", "guarded", "autonomous", "full"] as const;

export const PERMISSION_LABEL: Record<(typeof PERMISSION_LEVELS)[number], string> = {
  read_only: "Read only",
  guarded: "Guarded",
  autonomous: "Autonomous",
  full: "Full",
};

/** The recipe form as typed: every field a string or a switch. */
export interface RecipeDraft {
  name: string;
  engine: string;
  prompt: string;
  cwd: string;
  worktree: boolean;
  runner: string;
  /** "" for the account's `agentPermissionLevel`. */
  permissionLevel: string;
  /** US dollars as typed; "" for no cap. */
  spendCap: string;
}

/** The form for a new recipe (on `engine`), or filled with a saved one's fields. */
export function recipeDraft(recipe: Recipe | null, engine = ""): RecipeDraft {
  if (!recipe) {
    return { name: "", engine, prompt: "", cwd: "", worktree: false, runner: "", permissionLevel: "", spendCap: "" };
  }
  return {
    name: recipe.name,
    engine: recipe.engine,
    prompt: recipe.prompt,
    cwd: recipe.cwd,
    worktree: recipe.isolation === "worktree",
    runner: recipe.runner ?? "",
    permissionLevel: recipe.permissionLevel ?? "",
    spendCap: recipe.spendCapUsd === null ? "" : String(recipe.spendCapUsd),
  };
}

/** What a form sends, or every problem that keeps it from sending. */
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

/** Problems found as `[field, sentence]` pairs, as a refusal; or the value when there are none. */
export function checked<T>(problems: readonly (readonly [string, string])[], value: () => T): Checked<T> {
  return problems.length > 0 ? { ok: false, errors: fieldProblems(problems) } : { ok: true, value: value() };
}

/** "Give a value for {{a}} and {{b}}.", as the server says it. */
export function missingSentence(missing: readonly string[]): string {
  const quoted = missing.map((n) => `{{${n}}}`);
  const last = quoted.pop();
  return `Give a value for ${quoted.length > 0 ? `${quoted.join(", ")} and ${last}` : last}.`;
}

/**
 * The fields to send, checked as far as the browser can and in the server's words (the server
 * checks them all again, and whether the folder exists): every problem at once. A blank optional
 * field is left out.
 */
export function recipeFields(draft: RecipeDraft): Checked<RecipeFields> {
  const problems: [string, string][] = [];
  const name = draft.name.trim();
  if (!name) problems.push(["name", "Give the recipe a name."]);
  else if ([...name].length > 80) problems.push(["name", "The name can be at most 80 characters."]);
  if (!draft.engine.trim()) problems.push(["engine", "Choose an engine."]);
  if (!draft.prompt.trim()) problems.push(["prompt", "Write the prompt the session starts with."]);
  const cwd = draft.cwd.trim();
  if (!cwd) problems.push(["cwd", "Give the folder the session starts in."]);
  else if (!cwd.startsWith("/"))
    problems.push(["cwd", "Give the folder as an absolute path, such as /home/me/project."]);
  const cap = draft.spendCap.trim();
  const dollars = Number(cap);
  if (cap && !(Number.isFinite(dollars) && dollars > 0)) {
    problems.push(["spendCapUsd", "The spend cap must be a number of dollars above 0."]);
  }
  return checked(problems, () => {
    const fields: RecipeFields = { name, engine: draft.engine.trim(), prompt: draft.prompt, cwd };
    if (draft.worktree) fields.isolation = "worktree";
    if (draft.runner.trim()) fields.runner = draft.runner.trim();
    if (draft.permissionLevel) fields.permissionLevel = draft.permissionLevel;
    if (cap) fields.spendCapUsd = dollars;
    return fields;
  });
}

export const RUN_STATE_LABEL: Record<RecipeRunState, string> = {
  started: "Running",
  finished: "Finished",
  failed: "Failed",
  stalled: "Stalled",
  incomplete: "Incomplete",
};

/** How a run was started, in words: by its schedule (a catch-up for missed ticks), or by hand or a rule. */
export function runHow(run: Pick<RecipeRun, "scheduleId" | "scheduledFor" | "catchUp">): string {
  if (!run.scheduleId && !run.scheduledFor) return "by hand or rule";
  return run.catchUp ? "catch-up" : "scheduled";
}

/** What Delete says goes with a recipe that has `schedules` schedules. */
export function deletedAlong(schedules: number): string {
  if (schedules === 0) return "The records of its runs go with it.";
  return `Its ${schedules === 1 ? "schedule" : `${schedules} schedules`} and the records of its runs go with it.`;
}

/** Recipes by name, letter case aside, as the server lists them. */
export function byName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));
}

/** Schedules or rules as listed: those waiting for approval first, then by `name`. */
export function waitingFirst<T extends { state: string }>(items: readonly T[], name: (item: T) => string): T[] {
  return [...items].sort(
    (a, b) => Number(b.state === "pending") - Number(a.state === "pending") || name(a).localeCompare(name(b)),
  );
}
