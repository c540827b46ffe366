/**
 * Thin typed calls for automations (docs/automations.md): recipes and their runs, schedules, and
 * rules with their firings. A bad field rejects with an `ApiError` whose `field` names it.
 */
import { apiFetch } from "../../shared/api/client";
import type {
  Board,
  EngineInfo,
  NewRule,
  Recipe,
  RecipeFields,
  RecipeList,
  RecipeRunList,
  RecipeRunStarted,
  RecipeSchedule,
  RecipeScheduleFields,
  RecipeScheduleList,
  Rule,
  RuleFiringList,
  RuleList,
  Webhook,
} from "../../shared/api/types.generated";

const id = encodeURIComponent;

export const RECIPES_PATH = "/recipes";
export const SCHEDULES_PATH = "/schedules";
export const RULES_PATH = "/rules";

export const listRecipes = () => apiFetch<RecipeList>(RECIPES_PATH);

export const createRecipe = (fields: RecipeFields) => apiFetch<Recipe>(RECIPES_PATH, { method: "POST", body: fields });

/** Replaces every field of the recipe. */
export const updateRecipe = (recipeId: string, fields: RecipeFields) =>
  apiFetch<Recipe>(`${RECIPES_PATH}/${id(recipeId)}`, { method: "PUT", body: fields });

/** Deletes the recipe, its schedules and its runs' records. */
export const deleteRecipe = (recipeId: string) =>
  apiFetch<undefined>(`${RECIPES_PATH}/${id(recipeId)}`, { method: "DELETE" });

/** Runs it now; a placeholder without a value is a 400 naming `values`. */
export const runRecipe = (recipeId: string, values: Record<string, string>) =>
  apiFetch<RecipeRunStarted>(`${RECIPES_PATH}/${id(recipeId)}/runs`, {
    method: "POST",
    body: Object.keys(values).length > 0 ? { values } : {},
  });

/** Its runs, newest first. */
export const recipeRunsPath = (recipeId: string) => `${RECIPES_PATH}/${id(recipeId)}/runs`;
export const listRecipeRuns = (recipeId: string) => apiFetch<RecipeRunList>(recipeRunsPath(recipeId));

export const listSchedules = () => apiFetch<RecipeScheduleList>(SCHEDULES_PATH);

export const createSchedule = (fields: RecipeScheduleFields) =>
  apiFetch<RecipeSchedule>(SCHEDULES_PATH, { method: "POST", body: fields });

export type StateChange = "approve" | "pause" | "resume";

export const changeSchedule = (scheduleId: string, change: StateChange) =>
  apiFetch<RecipeSchedule>(`${SCHEDULES_PATH}/${id(scheduleId)}/${change}`, { method: "POST" });

export const deleteSchedule = (scheduleId: string) =>
  apiFetch<undefined>(`${SCHEDULES_PATH}/${id(scheduleId)}`, { method: "DELETE" });

export const listRules = () => apiFetch<RuleList>(RULES_PATH);

export const createRule = (rule: NewRule) => apiFetch<Rule>(RULES_PATH, { method: "POST", body: rule });

export const changeRule = (ruleId: string, change: StateChange) =>
  apiFetch<Rule>(`${RULES_PATH}/${id(ruleId)}/${change}`, { method: "POST" });

export const deleteRule = (ruleId: string) => apiFetch<undefined>(`${RULES_PATH}/${id(ruleId)}`, { method: "DELETE" });

export const ruleFiringsPath = (ruleId: string) => `${RULES_PATH}/${id(ruleId)}/firings`;
export const listRuleFirings = (ruleId: string) => apiFetch<RuleFiringList>(ruleFiringsPath(ruleId));

/** The engines a recipe may name (`GET /engines`). */
export const listEngines = () => apiFetch<EngineInfo[]>("/engines");

/** Every board the account can see, for a rule's trigger and its item updates. */
export const listBoards = () => apiFetch<Board[]>("/boards");

/** The account's webhooks, for a rule set off by a delivery. */
export const listWebhooks = () => apiFetch<Webhook[]>("/webhooks");
