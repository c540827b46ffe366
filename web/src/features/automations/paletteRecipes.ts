/**
 * "Run recipe: NAME" in the command palette: one entry per recipe. A recipe whose prompt asks for
 * values opens its Run dialog on the automations page; any other starts at once and its session's
 * page opens.
 */
import { useEffect, useState } from "react";
import type { Recipe } from "../../shared/api/types.generated";
import { navigate, sessionPath } from "../../shared/router";
import { listRecipes, runRecipe } from "./api";
import { runRecipePath } from "./page";
import { byName } from "./recipes";

/** One palette entry, as the palette draws an action. */
export interface RecipeEntry {
  id: string;
  label: string;
  hint: string;
  recipe: Recipe;
}

/** An entry for each recipe, by name; its hint is the engine and folder it starts in. */
export function recipeEntries(recipes: readonly Recipe[]): RecipeEntry[] {
  return byName(recipes).map((recipe) => ({
    id: `recipe:${recipe.id}`,
    label: `Run recipe: ${recipe.name}`,
    hint: `${recipe.engine} · ${recipe.cwd}`,
    recipe,
  }));
}

/**
 * Runs it as the palette does: straight to the new session, or to the Run dialog when its prompt
 * has placeholders. Rejects with the server's refusal.
 */
export async function runFromPalette(recipe: Recipe): Promise<void> {
  if (recipe.placeholders.length > 0) {
    navigate(runRecipePath(recipe.id));
    return;
  }
  const started = await runRecipe(recipe.id, {});
  navigate(sessionPath(started.sessionId));
}

/**
 * The account's recipes as palette entries, read when the palette opens: null until the read
 * settles, none when they cannot be read.
 */
export function useRecipeEntries(): RecipeEntry[] | null {
  const [entries, setEntries] = useState<RecipeEntry[] | null>(null);
  useEffect(() => {
    let live = true;
    listRecipes().then(
      (list) => live && setEntries(recipeEntries(list.recipes)),
      () => live && setEntries([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return entries;
}
