/**
 * The automations page's address: the tab is its fragment (`/automations#rules`),
 * `#run=<recipe id>` asks the page to open that recipe's Run dialog, `#runs=<recipe id>`
 * opens that recipe's run history (where an inbox row about a run that never started points), and
 * `#new-recipe` (from the palette) opens the New recipe form.
 */

export const AUTOMATIONS_PATH = "/automations";

export type AutomationTab = "recipes" | "schedules" | "rules";

export const TABS: readonly AutomationTab[] = ["recipes", "schedules", "rules"];

export const TAB_LABEL: Record<AutomationTab, string> = {
  recipes: "Recipes",
  schedules: "Schedules",
  rules: "Rules",
};

const RUN_PREFIX = "run=";

/** The fragment that asks for the New recipe form. */
export const NEW_RECIPE_FRAGMENT = "new-recipe";

/** The address that opens the New recipe form. */
export const newRecipePath = `${AUTOMATIONS_PATH}#${NEW_RECIPE_FRAGMENT}`;

/** The tab a fragment shows: a run or new-recipe request shows recipes, anything unknown too. */
export function tabOf(hash: string): AutomationTab {
  return TABS.find((tab) => tab === hash) ?? "recipes";
}

const RUNS_PREFIX = "runs=";

function idAfter(hash: string, prefix: string): string | null {
  if (!hash.startsWith(prefix)) return null;
  try {
    const id = decodeURIComponent(hash.slice(prefix.length));
    return id === "" ? null : id;
  } catch {
    return null;
  }
}

/** The recipe a `#run=<id>` fragment asks to run; null for any other fragment. */
export function runRequestOf(hash: string): string | null {
  return idAfter(hash, RUN_PREFIX);
}

/** The recipe whose run history a `#runs=<id>` fragment opens; null for any other fragment. */
export function runsRequestOf(hash: string): string | null {
  return idAfter(hash, RUNS_PREFIX);
}

/** The address that opens a recipe's Run dialog. */
export const runRecipePath = (recipeId: string) => `${AUTOMATIONS_PATH}#${RUN_PREFIX}${encodeURIComponent(recipeId)}`;

/** The address that opens a recipe's run history. */
export const recipeRunsPagePath = (recipeId: string) =>
  `${AUTOMATIONS_PATH}#${RUNS_PREFIX}${encodeURIComponent(recipeId)}`;
