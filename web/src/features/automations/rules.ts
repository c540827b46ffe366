/**
 * Automation rules apart from their rendering: one line saying what a rule does ("When an item on
 * “Bugs” enters “Ready” → run “Fix bug”, on finish set the item to “Done”"), and the create
 * form's common cases turned into the rule to send.
 */
import type {
  Board,
  FiringOutcome,
  ItemFollowUp,
  NewRule,
  Rule,
  RuleAction,
  RuleSessionOutcome,
  RuleState,
  RuleTrigger,
} from "../../shared/api/types.generated";
import { settingsOf } from "../../shared/api/columnSettings";
import { fieldProblems, messageFor, type FormErrors } from "../../shared/api/formErrors";
import { checked, missingSentence, missingValues, valuesFor, type Checked } from "./recipes";

export const RULE_STATE_LABEL: Record<RuleState, string> = {
  active: "Active",
  pending: "Waiting for approval",
  paused: "Paused",
};

export const FIRING_OUTCOME_LABEL: Record<FiringOutcome, string> = {
  started: "Started",
  done: "Done",
  skipped: "Skipped",
  failed: "Failed",
};

export const OUTCOME_LABEL: Record<RuleSessionOutcome, string> = {
  finished: "finishes",
  failed: "fails",
  needs_user: "needs you",
};

/** What a rule's description names things by: the account's recipes, boards, webhooks and schedules. */
export interface RuleNames {
  recipes: ReadonlyMap<string, string>;
  boards: ReadonlyMap<string, Board>;
  webhooks: ReadonlyMap<string, string>;
  /** A schedule by what it runs and when ("Nightly triage, every day at 02:30"). */
  schedules: ReadonlyMap<string, string>;
}

export const NO_NAMES: RuleNames = { recipes: new Map(), boards: new Map(), webhooks: new Map(), schedules: new Map() };

const quoted = (text: string) => `“${text}”`;

/** A name, or what is left of a thing that is gone. */
function named(map: ReadonlyMap<string, string>, id: string, what: string): string {
  const name = map.get(id);
  return name === undefined ? `a deleted ${what}` : quoted(name);
}

function boardName(names: RuleNames, boardId: string): string {
  const board = names.boards.get(boardId);
  return board ? quoted(board.name) : "a deleted board";
}

function groupName(board: Board | undefined, groupId: string): string {
  const group = board?.groups.find((g) => g.id === groupId);
  return group ? quoted(group.title) : quoted(groupId);
}

function columnName(board: Board | undefined, columnId: string): string {
  return board?.columns.find((c) => c.id === columnId)?.title ?? columnId;
}

/** `path = "value"` pairs, joined by "and". */
function matchText(match: Readonly<Record<string, string>> | undefined): string {
  const pairs = Object.entries(match ?? {});
  if (pairs.length === 0) return "";
  return ` where ${pairs.map(([path, value]) => `${path} is ${quoted(value)}`).join(" and ")}`;
}

/** What sets the rule off, in words: "an item on “Bugs” enters “Ready”". */
export function describeTrigger(trigger: RuleTrigger, names: RuleNames): string {
  switch (trigger.kind) {
    case "webhook": {
      const hook = names.webhooks.get(trigger.webhookId);
      const to = hook === undefined ? "a deleted webhook" : `webhook ${quoted(hook)}`;
      return `a delivery to ${to}${matchText(trigger.match)}`;
    }
    case "item_status": {
      const board = names.boards.get(trigger.boardId);
      const column = trigger.column ? ` in ${columnName(board, trigger.column)}` : "";
      return `an item on ${boardName(names, trigger.boardId)} enters ${quoted(trigger.status)}${column}`;
    }
    case "item_group":
      return `an item on ${boardName(names, trigger.boardId)} moves to group ${groupName(names.boards.get(trigger.boardId), trigger.groupId)}`;
    case "session_end": {
      const who = trigger.recipeId ? `a run of ${named(names.recipes, trigger.recipeId, "recipe")}` : "a session";
      return `${who} ${OUTCOME_LABEL[trigger.outcome]}`;
    }
    case "schedule":
      return `the schedule ${named(names.schedules, trigger.scheduleId, "schedule")} comes due`;
  }
}

function valueText(value: unknown): string {
  return typeof value === "string" ? quoted(value) : JSON.stringify(value);
}

/** What one action does, in words; `board` is the trigger's, whose groups and columns it names. */
export function describeAction(action: RuleAction, names: RuleNames, board: Board | undefined): string {
  switch (action.kind) {
    case "start_recipe": {
      const parts = [`run ${named(names.recipes, action.recipeId, "recipe")}`];
      const item = action.item;
      if (item?.runningStatus) parts.push(`set the item to ${quoted(item.runningStatus)} while it runs`);
      if (item?.sessionColumn) parts.push(`link its session in ${columnName(board, item.sessionColumn)}`);
      if (item?.summaryColumn) parts.push(`write its summary in ${columnName(board, item.summaryColumn)}`);
      if (item?.finishedStatus) parts.push(`on finish set the item to ${quoted(item.finishedStatus)}`);
      if (item?.failedStatus) parts.push(`on failure to ${quoted(item.failedStatus)}`);
      return parts.join(", ");
    }
    case "update_item": {
      const pairs = Object.entries(action.values);
      if (pairs.length === 0) return "update the item";
      return `set the item's ${pairs.map(([column, value]) => `${columnName(board, column)} to ${valueText(value)}`).join(", ")}`;
    }
    case "move_item":
      return `move the item to group ${groupName(board, action.groupId)}`;
    case "inbox":
      return `put ${quoted(action.title)} in the inbox`;
  }
}

/** The board the trigger is about, whose items the actions change. */
function triggerBoard(trigger: RuleTrigger, names: RuleNames): Board | undefined {
  return trigger.kind === "item_status" || trigger.kind === "item_group"
    ? names.boards.get(trigger.boardId)
    : undefined;
}

/** A rule in one line: "When <trigger> → <action>; then <action>". */
export function describeRule(rule: Pick<Rule, "when" | "then">, names: RuleNames): string {
  const board = triggerBoard(rule.when, names);
  const actions = rule.then.map((action) => describeAction(action, names, board));
  const then = actions.length === 0 ? "do nothing" : actions.join("; then ");
  return `When ${describeTrigger(rule.when, names)} → ${then}`;
}

/** The status labels a board's status column offers (the first status column when none is named). */
export function statusLabels(board: Board | undefined, columnId?: string): string[] {
  const column = board?.columns.find((c) => (columnId ? c.id === columnId : c.type === "status"));
  if (!column || column.type !== "status") return [];
  return (settingsOf(column).labels ?? []).map((label) => label.name);
}

/** The cases the create form offers; `json` takes any rule as written. */
export type RuleTemplate = "item_status" | "webhook" | "session_end" | "json";

export const TEMPLATE_LABEL: Record<RuleTemplate, string> = {
  item_status: "An item enters a status → run a recipe",
  webhook: "A webhook delivery → run a recipe",
  session_end: "A session ends → tell me in the inbox",
  json: "Anything else (written as JSON)",
};

/** The create form's cases: with the board module off (`projectBoardsEnabled`), none that picks a board. */
export function ruleTemplates(boardsOn: boolean): readonly RuleTemplate[] {
  const all: readonly RuleTemplate[] = ["item_status", "webhook", "session_end", "json"];
  return boardsOn ? all : all.filter((t) => t !== "item_status");
}

/** The rule form as typed: the fields of every case, of which the chosen one's are read. */
export interface RuleDraft {
  template: RuleTemplate;
  name: string;
  boardId: string;
  /** The status column the trigger watches; "" for the board's first. */
  statusColumn: string;
  status: string;
  recipeId: string;
  values: Record<string, string>;
  runningStatus: string;
  finishedStatus: string;
  failedStatus: string;
  sessionColumn: string;
  webhookId: string;
  /** One `path = value` a line. */
  match: string;
  outcome: RuleSessionOutcome;
  /** Only runs of this recipe; "" for any session. */
  endRecipeId: string;
  inboxTitle: string;
  inboxBody: string;
  json: string;
}

const JSON_EXAMPLE = `{
  "when": { "kind": "item_group", "boardId": "…", "groupId": "…" },
  "then": [{ "kind": "inbox", "title": "An item moved" }]
}`;

export function ruleDraft(template: RuleTemplate = "item_status"): RuleDraft {
  return {
    template,
    name: "",
    boardId: "",
    statusColumn: "",
    status: "",
    recipeId: "",
    values: {},
    runningStatus: "",
    finishedStatus: "",
    failedStatus: "",
    sessionColumn: "",
    webhookId: "",
    match: "",
    outcome: "finished",
    endRecipeId: "",
    inboxTitle: "",
    inboxBody: "",
    json: JSON_EXAMPLE,
  };
}

/**
 * Whether the event of a case fills a placeholder of that name by itself (docs/automations.md,
 * Actions): an item's `item.<column>`, `item.name`, `board.id`, `status`, `column`; a delivery's
 * `title` and `body.<path>`; a session's `session.<field>`. A rule written as JSON may be set off
 * by anything, so none is asked for there.
 */
export function eventFills(template: RuleTemplate, name: string): boolean {
  switch (template) {
    case "item_status":
      return name.startsWith("item.") || name === "board.id" || name === "status" || name === "column";
    case "webhook":
      return name === "title" || name.startsWith("body.");
    case "session_end":
      return name.startsWith("session.");
    case "json":
      return true;
  }
}

/** Where the event's value for a placeholder comes from, in words ("from the item"). */
export const EVENT_SOURCE: Record<RuleTemplate, string> = {
  item_status: "the item",
  webhook: "the delivery",
  session_end: "the session",
  json: "the event",
};

/** `path = value` lines as the trigger's `match` (blank lines skipped); or the first line that is not one. */
export function parseMatch(text: string): Checked<Record<string, string>> {
  const match: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf("=");
    const path = at < 0 ? "" : line.slice(0, at).trim();
    if (!path) return checked([["match", `Write each condition as path = value, not ${quoted(line)}.`]], () => match);
    match[path] = line.slice(at + 1).trim();
  }
  return { ok: true, value: match };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A rule written as JSON: an object with a `when` object and a `then` list (the server checks the rest). */
function jsonRule(name: string, text: string, problems: [string, string][]): NewRule | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's own words differ from browser to browser and speak of tokens and positions.
    problems.push(["json", "This is not JSON: check its brackets, quotes and commas."]);
    return null;
  }
  if (!isObject(parsed) || !isObject(parsed.when) || typeof parsed.when.kind !== "string") {
    problems.push(["json", 'Give an object whose "when" is a trigger with a "kind".']);
    return null;
  }
  if (!Array.isArray(parsed.then) || parsed.then.length === 0) {
    problems.push(["json", 'Give "then" as a list of one or more actions.']);
    return null;
  }
  return { name, when: parsed.when as RuleTrigger, then: parsed.then as RuleAction[] };
}

/**
 * The rule a filled-in form stands for; `placeholders` are those of the chosen recipe's prompt,
 * each of which needs a value. Every problem is said at once. A blank optional field is left out.
 */
export function ruleFromDraft(draft: RuleDraft, placeholders: readonly string[]): Checked<NewRule> {
  const problems: [string, string][] = [];
  const name = draft.name.trim();
  if (!name) problems.push(["name", "Give the rule a name."]);
  const startRecipe = (): Extract<RuleAction, { kind: "start_recipe" }> => {
    if (!draft.recipeId) problems.push(["recipeId", "Choose the recipe to start."]);
    // What the event fills needs no value; a blank one is not sent, so the event's stands.
    const asked = placeholders.filter((name) => !eventFills(draft.template, name));
    const missing = missingValues(asked, draft.values);
    if (missing.length > 0) problems.push(["values", missingSentence(missing)]);
    const given = placeholders.filter((name) => (draft.values[name] ?? "").trim() !== "");
    const action: Extract<RuleAction, { kind: "start_recipe" }> = { kind: "start_recipe", recipeId: draft.recipeId };
    if (given.length > 0) action.values = valuesFor(given, draft.values);
    return action;
  };
  switch (draft.template) {
    case "item_status": {
      if (!draft.boardId) problems.push(["boardId", "Choose the board whose items set it off."]);
      if (!draft.status.trim()) problems.push(["status", "Choose the status an item enters."]);
      const start = startRecipe();
      const statuses: ItemFollowUp = {
        ...(draft.runningStatus ? { runningStatus: draft.runningStatus } : {}),
        ...(draft.finishedStatus ? { finishedStatus: draft.finishedStatus } : {}),
        ...(draft.failedStatus ? { failedStatus: draft.failedStatus } : {}),
      };
      // The statuses it sets are of the column it watches, when that is not the board's first.
      const item: ItemFollowUp = {
        ...(draft.sessionColumn ? { sessionColumn: draft.sessionColumn } : {}),
        ...(draft.statusColumn && Object.keys(statuses).length > 0 ? { statusColumn: draft.statusColumn } : {}),
        ...statuses,
      };
      const action = Object.keys(item).length > 0 ? { ...start, item } : start;
      const when: RuleTrigger = {
        kind: "item_status",
        boardId: draft.boardId,
        status: draft.status.trim(),
        ...(draft.statusColumn ? { column: draft.statusColumn } : {}),
      };
      return checked(problems, () => ({ name, when, then: [action] }));
    }
    case "webhook": {
      if (!draft.webhookId) problems.push(["webhookId", "Choose the webhook whose deliveries set it off."]);
      const match = parseMatch(draft.match);
      if (!match.ok) problems.push(["match", messageFor(match.errors, "match") ?? ""]);
      const start = startRecipe();
      const conditions = match.ok ? match.value : {};
      const when: RuleTrigger = {
        kind: "webhook",
        webhookId: draft.webhookId,
        ...(Object.keys(conditions).length > 0 ? { match: conditions } : {}),
      };
      return checked(problems, () => ({ name, when, then: [start] }));
    }
    case "session_end": {
      const title = draft.inboxTitle.trim();
      if (!title) problems.push(["inboxTitle", "Give the inbox row a title."]);
      const when: RuleTrigger = {
        kind: "session_end",
        outcome: draft.outcome,
        ...(draft.endRecipeId ? { recipeId: draft.endRecipeId } : {}),
      };
      const body = draft.inboxBody.trim();
      const action: RuleAction = { kind: "inbox", title, ...(body ? { body } : {}) };
      return checked(problems, () => ({ name, when, then: [action] }));
    }
    case "json": {
      const rule = jsonRule(name, draft.json, problems);
      if (rule === null) return { ok: false, errors: fieldProblems(problems) };
      return checked(problems, () => rule);
    }
  }
}

/** Where the server's name for a rule's field (`when.boardId`, `then.title`) is in the form. */
const FORM_FIELD: Record<string, string> = {
  name: "name",
  "when.boardId": "boardId",
  "when.status": "status",
  "when.webhookId": "webhookId",
  "when.match": "match",
  "when.recipeId": "endRecipeId",
  "then.recipeId": "recipeId",
  "then.values": "values",
  "then.title": "inboxTitle",
  "then.body": "inboxBody",
};

/**
 * The form field a refusal is about: a rule written as JSON takes every refusal about its
 * `when` and `then`; any other case the field that shows it, or none (said above the buttons).
 */
export function ruleFormField(field: string | null, template: RuleTemplate): string | null {
  if (field === null) return null;
  if (template === "json" && /^(when|then)\b/.test(field)) return "json";
  return FORM_FIELD[field] ?? null;
}

/** The form's fields each case shows, so a refusal about another is said above the buttons. */
export const TEMPLATE_FIELDS: Record<RuleTemplate, readonly string[]> = {
  item_status: ["name", "boardId", "status", "recipeId", "values"],
  webhook: ["name", "webhookId", "match", "recipeId", "values"],
  session_end: ["name", "inboxTitle", "inboxBody"],
  json: ["name", "json"],
};

/** A refusal of the server with each field it names moved to where the form shows it (or above the buttons). */
export function ruleFormErrors(errors: FormErrors, template: RuleTemplate): FormErrors {
  const byField: Record<string, string[]> = {};
  const general: string[] = errors.general === null ? [] : [errors.general];
  for (const [field, list] of Object.entries(errors.byField)) {
    const shown = ruleFormField(field, template);
    if (shown === null) general.push(...list);
    else (byField[shown] ??= []).push(...list);
  }
  return { byField, general: general.length > 0 ? general.join(" ") : null };
}
