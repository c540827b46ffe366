/**
 * Thin typed calls for automations (docs/automations.md): recipes and their runs, schedules, and
 * rules with their firings. A bad field rejects with an `ApiError` whose `field` names it.
 */
import { apiFetch } from "../../shared/api/client";
import type {
  NewRule,
  Recipe,
  RecipeFields,
  RecipeList,
  RecipeRunStarted,
  RecipeSchedule,
  RecipeScheduleFields,
  Rule,
  RuleDryRun,
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

/** Its runs, newest first. */
export const recipeRunsPath = (recipeId: string) => `${RECIPES_PATH}/${id(recipeId)}/runs`;

/** Runs it now; a placeholder without a value is a 400 naming `values`. */
export const runRecipe = (recipeId: string, values: Record<string, string>) =>
  apiFetch<RecipeRunStarted>(recipeRunsPath(recipeId), {
    method: "POST",
    body: Object.keys(values).length > 0 ? { values } : {},
  });

export const createSchedule = (fields: RecipeScheduleFields) =>
  apiFetch<RecipeSchedule>(SCHEDULES_PATH, { method: "POST", body: fields });

export type StateChange = "approve" | "pause" | "resume";

export const changeSchedule = (scheduleId: string, change: StateChange) =>
  apiFetch<RecipeSchedule>(`${SCHEDULES_PATH}/${id(scheduleId)}/${change}`, { method: "POST" });

/** Runs the schedule's recipe now with its values; its ticks go on as they were. */
export const runScheduleNow = (scheduleId: string) =>
  apiFetch<RecipeRunStarted>(`${SCHEDULES_PATH}/${id(scheduleId)}/run`, { method: "POST" });

/** What the rule would do if its event came now: a dry run that starts, changes and posts nothing. */
export const testRule = (ruleId: string) =>
  apiFetch<RuleDryRun>(`${RULES_PATH}/${id(ruleId)}/test`, { method: "POST" });

export const deleteSchedule = (scheduleId: string) =>
  apiFetch<undefined>(`${SCHEDULES_PATH}/${id(scheduleId)}`, { method: "DELETE" });

export const createRule = (rule: NewRule) => apiFetch<Rule>(RULES_PATH, { method: "POST", body: rule });

export const changeRule = (ruleId: string, change: StateChange) =>
  apiFetch<Rule>(`${RULES_PATH}/${id(ruleId)}/${change}`, { method: "POST" });

export const deleteRule = (ruleId: string) => apiFetch<undefined>(`${RULES_PATH}/${id(ruleId)}`, { method: "DELETE" });

/** What the rule did each time it fired. */
export const ruleFiringsPath = (ruleId: string) => `${RULES_PATH}/${id(ruleId)}/firings`;
