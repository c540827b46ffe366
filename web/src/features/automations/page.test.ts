import { describe, expect, it } from "vitest";
import { recipe } from "./fixtures";
import { recipeRunsPagePath, runRecipePath, runRequestOf, runsRequestOf, tabOf } from "./page";
import { recipeEntries } from "./paletteRecipes";

describe("the page's address", () => {
  it("shows the tab its fragment names, recipes otherwise", () => {
    expect(tabOf("schedules")).toBe("schedules");
    expect(tabOf("rules")).toBe("rules");
    expect(tabOf("")).toBe("recipes");
    expect(tabOf("run=r1")).toBe("recipes");
    expect(tabOf("nonsense")).toBe("recipes");
  });

  it("asks for a recipe's Run dialog by its id", () => {
    const path = runRecipePath("r 1/2");
    expect(path).toBe("/automations#run=r%201%2F2");
    expect(runRequestOf(path.split("#")[1] ?? "")).toBe("r 1/2");
    expect(runRequestOf("run=")).toBeNull();
    expect(runRequestOf("run=%E0%A4%A")).toBeNull();
    expect(runRequestOf("schedules")).toBeNull();
  });
});

describe("the palette's recipes", () => {
  it("are one Run entry each, by name, hinted with the engine and folder", () => {
    const entries = recipeEntries([recipe("b", { name: "Zeta" }), recipe("a", { name: "alpha", cwd: "/srv" })]);
    expect(entries.map(({ id, label, hint }) => ({ id, label, hint }))).toEqual([
      { id: "recipe:a", label: "Run recipe: alpha", hint: "primary · /srv" },
      { id: "recipe:b", label: "Run recipe: Zeta", hint: "primary · /home/me/app" },
    ]);
  });
});

describe("the address of a recipe's runs", () => {
  it("opens the recipes tab with that recipe's history, and is not a run request", () => {
    const hash = recipeRunsPagePath("r 1").split("#")[1] ?? "";
    expect(runsRequestOf(hash)).toBe("r 1");
    expect(runRequestOf(hash)).toBeNull();
    expect(tabOf(hash)).toBe("recipes");
    expect(runsRequestOf("rules")).toBeNull();
  });
});
