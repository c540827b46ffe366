/**
 * The automations page's address: the tab is its fragment (`/automations#rules`), and
 * `#run=<recipe id>` asks the page to open that recipe's Run dialog.
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

/** The tab a fragment shows: a run request shows recipes, anything unknown too. */
export function tabOf(hash: string): AutomationTab {
  return TABS.find((tab) => tab === hash) ?? "recipes";
}

/** The recipe a `#run=<id>` fragment asks to run; null for any other fragment. */
export function runRequestOf(hash: string): string | null {
  if (!hash.startsWith(RUN_PREFIX)) return null;
  try {
    const id = decodeURIComponent(hash.slice(RUN_PREFIX.length));
    return id === "" ? null : id;
  } catch {
    return null;
  }
}

/** The address that opens a recipe's Run dialog. */
export const runRecipePath = (recipeId: string) => `${AUTOMATIONS_PATH}#${RUN_PREFIX}${encodeURIComponent(recipeId)}`;
