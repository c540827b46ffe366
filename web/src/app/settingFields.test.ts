import { describe, expect, test } from "vitest";
import { fieldFor, humanize, parseField, textOf } from "./settingFields";

describe("fieldFor", () => {
  test("the shell's selects list their options", () => {
    expect(fieldFor("pmColorMode", "system")).toEqual({ kind: "select", options: ["system", "light", "dark"] });
    expect(fieldFor("pmBoardDensity", "dense")).toMatchObject({ kind: "select" });
  });
  test("other keys follow the value's JSON type", () => {
    expect(fieldFor("a", true).kind).toBe("toggle");
    expect(fieldFor("a", 3).kind).toBe("number");
    expect(fieldFor("a", "x").kind).toBe("text");
    expect(fieldFor("a", ["x"]).kind).toBe("json");
    expect(fieldFor("a", { x: 1 }).kind).toBe("json");
    expect(fieldFor("a", null).kind).toBe("json");
  });
});

describe("parseField", () => {
  test("numbers and JSON are parsed, text is kept", () => {
    expect(parseField({ kind: "number" }, "2.5")).toBe(2.5);
    expect(parseField({ kind: "json" }, '["a"]')).toEqual(["a"]);
    expect(parseField({ kind: "json" }, "null")).toBeNull();
    expect(parseField({ kind: "text" }, " x ")).toBe(" x ");
  });
  test("bad input is refused with a reason", () => {
    expect(() => parseField({ kind: "number" }, "")).toThrow("Enter a number.");
    expect(() => parseField({ kind: "number" }, "ten")).toThrow("Enter a number.");
    expect(() => parseField({ kind: "json" }, "[")).toThrow("not valid JSON");
  });
});

test("textOf and humanize", () => {
  expect(textOf({ kind: "json" }, { a: 1 })).toBe('{\n "a": 1\n}');
  expect(textOf({ kind: "text" }, null)).toBe("");
  expect(humanize("pmBoardDensity")).toBe("Pm board density");
  expect(humanize("cliServerEnabled")).toBe("Cli server enabled");
  expect(humanize("enableHTTPServer")).toBe("Enable http server");
});
