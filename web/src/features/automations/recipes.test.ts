import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { recipe } from "./fixtures";
import {
  byName,
  deletedAlong,
  missingValues,
  placeholders,
  recipeDraft,
  recipeFields,
  runHow,
  valuesFor,
  waitingFirst,
} from "./recipes";

describe("placeholders", () => {
  it("names each placeholder once, in order of first use, spaces inside the braces allowed", () => {
    expect(placeholders("Fix {{ticket}} on {{ branch }}; then {{ticket}} again.")).toEqual(["ticket", "branch"]);
  });

  it("accepts the server's name characters: a letter or _, then letters, digits, _, - or .", () => {
    expect(placeholders("{{a.b-c_1}} {{_x}} {{1st}} {{has space}} {{}}")).toEqual(["a.b-c_1", "_x"]);
  });

  it("leaves braces around no name, and an unclosed {{, as text", () => {
    expect(placeholders("{{ {{name}} }}")).toEqual(["name"]);
    expect(placeholders("{{{name}}}")).toEqual(["name"]);
    expect(placeholders("open {{name")).toEqual([]);
    expect(placeholders('a JSON sample: {{"k": 1}} and {{label}}')).toEqual(["label"]);
    expect(placeholders("no placeholders at all")).toEqual([]);
  });

  it("finds every name written into any text, and nothing more", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/);
    const text = fc.string({ maxLength: 12 }).map((t) => t.replace(/[{}]/g, ""));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, name), { maxLength: 6 }), (parts) => {
        const prompt = parts.map(([t, n]) => `${t}{{${n}}}`).join("");
        expect(placeholders(prompt)).toEqual([...new Set(parts.map(([, n]) => n))]);
      }),
    );
  });
});

describe("values", () => {
  it("are missing when absent or blank", () => {
    expect(missingValues(["a", "b", "c"], { a: "x", b: "  " })).toEqual(["b", "c"]);
    expect(missingValues([], {})).toEqual([]);
  });

  it("are sent only for the placeholders the prompt names", () => {
    expect(valuesFor(["a"], { a: "1", stale: "2" })).toEqual({ a: "1" });
  });
});

describe("recipeFields", () => {
  const draft = { ...recipeDraft(null, "primary"), name: " Triage ", prompt: "Look at {{x}}", cwd: " /srv/app " };

  it("trims and sends the required fields, leaving blank optional ones out", () => {
    expect(recipeFields(draft)).toEqual({
      ok: true,
      value: { name: "Triage", engine: "primary", prompt: "Look at {{x}}", cwd: "/srv/app" },
    });
  });

  it("sends the worktree, runner, level and cap when set", () => {
    const checked = recipeFields({
      ...draft,
      worktree: true,
      runner: "box",
      permissionLevel: "guarded",
      spendCap: "2.5",
    });
    expect(checked).toEqual({
      ok: true,
      value: {
        name: "Triage",
        engine: "primary",
        prompt: "Look at {{x}}",
        cwd: "/srv/app",
        isolation: "worktree",
        runner: "box",
        permissionLevel: "guarded",
        spendCapUsd: 2.5,
      },
    });
  });

  it("names the field that is wrong", () => {
    const field = (over: Partial<typeof draft>) => {
      const checked = recipeFields({ ...draft, ...over });
      return checked.ok ? null : Object.keys(checked.errors.byField).join(",");
    };
    expect(field({ name: "  " })).toBe("name");
    expect(field({ engine: "" })).toBe("engine");
    expect(field({ prompt: " \n" })).toBe("prompt");
    expect(field({ cwd: "relative/path" })).toBe("cwd");
    expect(field({ spendCap: "0" })).toBe("spendCapUsd");
    expect(field({ spendCap: "lots" })).toBe("spendCapUsd");
  });

  it("round-trips a saved recipe through the form", () => {
    const saved = recipe("r", {
      name: "N",
      prompt: "P {{a}}",
      placeholders: ["a"],
      isolation: "worktree",
      runner: "box",
      permissionLevel: "full",
      spendCapUsd: 3,
    });
    expect(recipeFields(recipeDraft(saved))).toEqual({
      ok: true,
      value: {
        name: "N",
        engine: "primary",
        prompt: "P {{a}}",
        cwd: "/home/me/app",
        isolation: "worktree",
        runner: "box",
        permissionLevel: "full",
        spendCapUsd: 3,
      },
    });
  });
});

describe("recipeFields says every problem at once", () => {
  it("in the server's words, each under its field", () => {
    const empty = recipeFields(recipeDraft(null, "primary"));
    expect(empty.ok ? null : empty.errors.byField).toEqual({
      name: ["Give the recipe a name."],
      prompt: ["Write the prompt the session starts with."],
      cwd: ["Give the folder the session starts in."],
    });
  });
});

describe("byName", () => {
  it("sorts letter case aside", () => {
    expect(byName([{ name: "beta" }, { name: "Alpha" }, { name: "alpha 2" }]).map((r) => r.name)).toEqual([
      "Alpha",
      "alpha 2",
      "beta",
    ]);
  });
});

describe("the lists' words and order", () => {
  it("says how a run started", () => {
    const run = { scheduleId: null, scheduledFor: null, catchUp: false };
    expect(runHow(run)).toBe("by hand or rule");
    expect(runHow({ ...run, scheduleId: "s1", scheduledFor: "2026-01-01T02:30:00Z" })).toBe("scheduled");
    // A run of a deleted schedule keeps its tick.
    expect(runHow({ ...run, scheduledFor: "2026-01-01T02:30:00Z", catchUp: true })).toBe("catch-up");
  });

  it("says what goes with a deleted recipe", () => {
    expect(deletedAlong(0)).toBe("The records of its runs go with it.");
    expect(deletedAlong(1)).toBe("Its schedule and the records of its runs go with it.");
    expect(deletedAlong(3)).toBe("Its 3 schedules and the records of its runs go with it.");
  });

  it("lists what waits for approval first, then by name", () => {
    const items = [
      { name: "b", state: "active" },
      { name: "c", state: "pending" },
      { name: "a", state: "paused" },
      { name: "d", state: "pending" },
    ];
    expect(waitingFirst(items, (i) => i.name).map((i) => i.name)).toEqual(["c", "d", "a", "b"]);
    expect(items.map((i) => i.name)).toEqual(["b", "c", "a", "d"]);
  });
});
