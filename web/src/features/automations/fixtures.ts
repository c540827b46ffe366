/** Recipes and schedules as the server gives them, for tests to vary. */
import type { Recipe, RecipeSchedule } from "../../shared/api/types.generated";

export function recipe(id: string, over: Partial<Recipe> = {}): Recipe {
  return {
    id,
    name: id,
    engine: "primary",
    prompt: "Triage",
    placeholders: [],
    cwd: "/home/me/app",
    isolation: null,
    runner: null,
    permissionLevel: null,
    spendCapUsd: null,
    createdByAgent: false,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    ...over,
  };
}

export function schedule(
  id: string,
  rule: { cron: string } | { rrule: string },
  over: Partial<RecipeSchedule> = {},
): RecipeSchedule {
  return {
    id,
    recipeId: "r1",
    timeZone: "Europe/Berlin",
    missed: "run_once",
    state: "active",
    createdByAgent: false,
    values: {},
    nextAt: null,
    lastRunAt: null,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    ...rule,
    ...over,
  } as RecipeSchedule;
}
