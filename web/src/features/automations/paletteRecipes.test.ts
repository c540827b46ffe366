import { describe, expect, it } from "vitest";
import { recipe, schedule } from "./fixtures";
import { NEW_RECIPE_FRAGMENT, newRecipePath, tabOf } from "./page";
import { scheduleEntries } from "./paletteRecipes";

describe("the palette's schedules", () => {
  const recipes = [recipe("r1", { name: "Triage" }), recipe("r2", { name: "Backup" })];

  it("are one Run now entry each, by recipe name, said in words, hinted with their values", () => {
    const entries = scheduleEntries(
      [
        schedule("s1", { cron: "0 9 * * *" }, { recipeId: "r1", values: { label: "bug" } }),
        schedule("s2", { cron: "30 2 * * *" }, { recipeId: "r2", state: "paused" }),
      ],
      recipes,
    );
    expect(entries.map(({ id, label, hint }) => ({ id, label, hint }))).toEqual([
      { id: "schedule:s2", label: "Run schedule now: Backup, every day at 02:30", hint: "paused" },
      { id: "schedule:s1", label: "Run schedule now: Triage, every day at 09:00", hint: "label: bug" },
    ]);
  });

  it("leave out one waiting for approval and one whose recipe is unknown", () => {
    const entries = scheduleEntries(
      [
        schedule("s1", { cron: "0 9 * * *" }, { recipeId: "r1", state: "pending" }),
        schedule("s2", { cron: "0 9 * * *" }, { recipeId: "gone" }),
      ],
      recipes,
    );
    expect(entries).toEqual([]);
  });
});

describe("the palette's New recipe", () => {
  it("opens the recipes tab with its form asked for", () => {
    expect(newRecipePath).toBe("/automations#new-recipe");
    expect(tabOf(NEW_RECIPE_FRAGMENT)).toBe("recipes");
  });
});
