/**
 * Recipes apart from their rendering: the `{{name}}` placeholders of a prompt (read as the server
 * reads them), the form's fields and what they send, the words for a run's state, and a refusal
 * split into the field it is about and the sentence to show beside it.
 */
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
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

/** What a form sends, or the field it cannot send and why. */
export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/**
 * The fields to send, checked as far as the browser can (the server checks them all again): a
 * name, a prompt, an absolute folder, a cap above 0. A blank optional field is left out.
 */
export function recipeFields(draft: RecipeDraft): Checked<RecipeFields> {
  const name = draft.name.trim();
  if (!name) return { ok: false, field: "name", message: "Give the recipe a name." };
  if (!draft.engine.trim()) return { ok: false, field: "engine", message: "Pick an engine." };
  if (!draft.prompt.trim()) return { ok: false, field: "prompt", message: "Write the prompt the session starts with." };
  const cwd = draft.cwd.trim();
  if (!cwd.startsWith("/")) return { ok: false, field: "cwd", message: "The folder must be an absolute path." };
  const fields: RecipeFields = { name, engine: draft.engine.trim(), prompt: draft.prompt, cwd };
  if (draft.worktree) fields.isolation = "worktree";
  if (draft.runner.trim()) fields.runner = draft.runner.trim();
  if (draft.permissionLevel) fields.permissionLevel = draft.permissionLevel;
  const cap = draft.spendCap.trim();
  if (cap) {
    const dollars = Number(cap);
    if (!Number.isFinite(dollars) || dollars <= 0) {
      return { ok: false, field: "spendCapUsd", message: "The spend cap must be a number of dollars above 0." };
    }
    fields.spendCapUsd = dollars;
  }
  return { ok: true, value: fields };
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

/** A refusal, as a form shows it: beside the field the server named, or above the form. */
export interface FieldError {
  field: string | null;
  message: string;
}

/**
 * The server says a bad field as `"cwd: must be an absolute path"` and names it in `field`: the
 * sentence beside the field drops that prefix and starts with a capital.
 */
export function fieldError(error: unknown): FieldError {
  const message = errorMessage(error);
  const field = error instanceof ApiError && error.field ? error.field : null;
  if (field === null) return { field, message };
  const prefix = `${field}: `;
  const bare = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return { field, message: bare.charAt(0).toUpperCase() + bare.slice(1) };
}

/** The message for `field`, when `error` is about it. */
export function errorFor(error: FieldError | null, field: string): string | undefined {
  return error?.field === field ? error.message : undefined;
}

/** A refusal not about a field the form shows: said above its buttons. */
export function generalError(error: FieldError | null, shown: readonly string[]): string | undefined {
  if (!error) return undefined;
  return error.field !== null && shown.includes(error.field) ? undefined : error.message;
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
