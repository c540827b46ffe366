import { describe, expect, it, test } from "vitest";
import { SETTING_DEFINITIONS, type SettingKey } from "../../shared/api/settings.generated";
import { fieldFor, optionLabel, parseField, textOf } from "./settingFields";

const definition = (key: SettingKey) => SETTING_DEFINITIONS.find((d) => d.key === key);

describe("fieldFor follows the catalog", () => {
  test("selects list their choices, numbers their range", () => {
    expect(fieldFor(definition("pmColorMode"), "system")).toEqual({
      kind: "select",
      options: ["system", "light", "dark"],
    });
    expect(fieldFor(definition("alarmsDefaultSnoozeMinutes"), 9)).toEqual({ kind: "select", options: [5, 9, 15, 30] });
    expect(fieldFor(definition("agentDrivenMaxConcurrent"), 3)).toEqual({
      kind: "number",
      min: 0,
      max: 10,
      integer: true,
    });
    expect(fieldFor(definition("agentAlertsEnabled"), true)).toEqual({ kind: "toggle" });
  });
  test("text knows its length and whether null means something", () => {
    expect(fieldFor(definition("initialTitleModel"), null)).toEqual({ kind: "text", maxLength: 100, nullable: true });
    expect(fieldFor(definition("heardAboutUs"), "")).toEqual({ kind: "text", maxLength: 64, nullable: false });
  });
  test("lists, maps and objects are edited as JSON", () => {
    expect(fieldFor(definition("pmInboxBoardPreferences"), {}).kind).toBe("json");
    expect(fieldFor(definition("pmCalendarBoardIds"), []).kind).toBe("json");
  });
  test("every key of the catalog gets a control", () => {
    for (const d of SETTING_DEFINITIONS) expect(fieldFor(d, d.default).kind, d.key).toBeTruthy();
  });
  test("a key the catalog does not describe follows its value", () => {
    expect(fieldFor(undefined, true).kind).toBe("toggle");
    expect(fieldFor(undefined, 3).kind).toBe("number");
    expect(fieldFor(undefined, "x").kind).toBe("text");
    expect(fieldFor(undefined, ["x"]).kind).toBe("json");
  });
});

describe("parseField", () => {
  test("values go back with their catalog type", () => {
    expect(parseField({ kind: "number", integer: false }, "2.5")).toBe(2.5);
    expect(parseField({ kind: "select", options: [5, 9] }, "9")).toBe(9);
    expect(parseField({ kind: "select", options: ["a"] }, "a")).toBe("a");
    expect(parseField({ kind: "json" }, '["a"]')).toEqual(["a"]);
    expect(parseField({ kind: "text", nullable: true }, "")).toBeNull();
    expect(parseField({ kind: "text", nullable: false }, "")).toBe("");
  });
  test("bad input is refused with a reason", () => {
    expect(() => parseField({ kind: "number", integer: true }, "")).toThrow("Enter a number.");
    expect(() => parseField({ kind: "number", integer: true }, "ten")).toThrow("Enter a number.");
    expect(() => parseField({ kind: "json" }, "[")).toThrow("not valid JSON");
  });
});

test("textOf", () => {
  expect(textOf({ kind: "json" }, { a: 1 })).toBe('{\n "a": 1\n}');
  expect(textOf({ kind: "text", nullable: true }, null)).toBe("");
});

describe("optionLabel", () => {
  it("reads a catalog word as words, capitalised", () => {
    expect(optionLabel("read_only")).toBe("Read only");
    expect(optionLabel("first-agent-board")).toBe("First agent board");
    expect(optionLabel("guarded")).toBe("Guarded");
  });

  it("keeps file names, numbers and mixed case as they are", () => {
    expect(optionLabel("PRIMARY.md")).toBe("PRIMARY.md");
    expect(optionLabel(".github/alt4-instructions.md")).toBe(".github/alt4-instructions.md");
    expect(optionLabel(15)).toBe("15");
  });
});
