/**
 * The command palette's automations: "Run recipe: NAME" for each recipe, and "Run schedule now:
 * NAME, WHEN" for each schedule the user has (not one an agent made that waits for approval). A
 * recipe whose prompt asks for values opens its Run dialog on the automations page; any other
 * starts at once and its session's page opens. A schedule runs now (`POST /schedules/{id}/run`:
 * its recipe with its values; its ticks go on as they were) and its session's page opens.
 */
import { useEffect, useState } from "react";
import type { Recipe, RecipeRunStarted, RecipeSchedule, RecipeScheduleList } from "../../shared/api/types.generated";
import { navigate, sessionPath } from "../../shared/router";
import { apiFetch } from "../../shared/api/client";
import { listRecipes, runRecipe, SCHEDULES_PATH } from "./api";
import { runRecipePath } from "./page";
import { byName } from "./recipes";
import { describeSchedule, scheduleRule } from "./schedules";

/** One palette entry, as the palette draws an action, and what choosing it does. */
export interface AutomationEntry {
  id: string;
  label: string;
  hint: string;
  /** Rejects with the server's refusal. */
  run: () => Promise<void>;
  /** What the toast says when it is refused. */
  failure: string;
}

async function openStarted(started: Promise<RecipeRunStarted>): Promise<void> {
  navigate(sessionPath((await started).sessionId));
}

/**
 * Runs it as the palette does: straight to the new session, or to the Run dialog when its prompt
 * has placeholders.
 */
async function runFromPalette(recipe: Recipe): Promise<void> {
  if (recipe.placeholders.length > 0) {
    navigate(runRecipePath(recipe.id));
    return;
  }
  await openStarted(runRecipe(recipe.id, {}));
}

/** An entry for each recipe, by name; its hint is the engine and folder it starts in. */
export function recipeEntries(recipes: readonly Recipe[]): AutomationEntry[] {
  return byName(recipes).map((recipe) => ({
    id: `recipe:${recipe.id}`,
    label: `Run recipe: ${recipe.name}`,
    hint: `${recipe.engine} · ${recipe.cwd}`,
    run: () => runFromPalette(recipe),
    failure: `${recipe.name} did not start`,
  }));
}

/**
 * An entry for each schedule, by its recipe's name, then as the server lists them; its hint is
 * the values it runs with, and "paused" when it is. One waiting for approval is left out: running
 * it would approve what an agent wrote, which its inbox row asks the user to read first.
 */
export function scheduleEntries(schedules: readonly RecipeSchedule[], recipes: readonly Recipe[]): AutomationEntry[] {
  return byName(recipes).flatMap((recipe) =>
    schedules
      .filter((schedule) => schedule.recipeId === recipe.id && schedule.state !== "pending")
      .map((schedule) => {
        const when = describeSchedule(schedule) ?? scheduleRule(schedule).text;
        const values = Object.entries(schedule.values).map(([name, value]) => `${name}: ${value}`);
        return {
          id: `schedule:${schedule.id}`,
          label: `Run schedule now: ${recipe.name}, ${when}`,
          hint: [...values, ...(schedule.state === "paused" ? ["paused"] : [])].join(" · "),
          run: () =>
            openStarted(
              apiFetch<RecipeRunStarted>(`${SCHEDULES_PATH}/${encodeURIComponent(schedule.id)}/run`, {
                method: "POST",
              }),
            ),
          failure: `${recipe.name} did not start`,
        };
      }),
  );
}

/**
 * The account's recipes and schedules as palette entries, read when the palette opens: null until
 * both reads settle; what cannot be read is left out.
 */
export function useAutomationEntries(): AutomationEntry[] | null {
  const [entries, setEntries] = useState<AutomationEntry[] | null>(null);
  useEffect(() => {
    let live = true;
    Promise.allSettled([listRecipes(), apiFetch<RecipeScheduleList>(SCHEDULES_PATH)]).then(([recipes, schedules]) => {
      if (!live) return;
      const recipeList = recipes.status === "fulfilled" ? recipes.value.recipes : [];
      const scheduleList = schedules.status === "fulfilled" ? schedules.value.schedules : [];
      setEntries([...recipeEntries(recipeList), ...scheduleEntries(scheduleList, recipeList)]);
    });
    return () => {
      live = false;
    };
  }, []);
  return entries;
}
