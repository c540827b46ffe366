/** Proves the one pill: a status is capitalised and coloured by what it means; a user's label keeps its words and colour. */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { Pill, pillLabel, pillStyle, statusTone } from "./Pill";

describe("statusTone", () => {
  test("every feature's state words map to one of five meanings", () => {
    expect(["waiting_for_input", "pending", "stranded", "new", "question"].map(statusTone)).toEqual(
      Array(5).fill("attention"),
    );
    expect(["running", "active", "in_progress", "connecting", "queued"].map(statusTone)).toEqual(
      Array(5).fill("running"),
    );
    expect(["finished", "done", "landed", "connected", "triaged"].map(statusTone)).toEqual(Array(5).fill("done"));
    expect(["failed", "stalled", "turned_down", "unreachable", "high"].map(statusTone)).toEqual(
      Array(5).fill("failed"),
    );
    expect(["paused", "archived", "dismissed", "something new"].map(statusTone)).toEqual(Array(4).fill("neutral"));
  });

  test("reads a word however a feature spells it", () => {
    expect(statusTone("Waiting for input")).toBe("attention");
    expect(statusTone("in-progress")).toBe("running");
    expect(statusTone(" FAILED ")).toBe("failed");
  });
});

test("a status label is capitalised words", () => {
  expect(pillLabel("waiting_for_input")).toBe("Waiting for input");
  expect(pillLabel("active")).toBe("Active");
  expect(pillLabel("No project")).toBe("No project");
});

describe("Pill", () => {
  test("a status takes its tone's class and is written capitalised", () => {
    const html = renderToStaticMarkup(<Pill status="waiting_for_input" />);
    expect(html).toBe('<span class="pill pill-attention" data-tone="attention">Waiting for input</span>');
    expect(renderToStaticMarkup(<Pill status="triaged">triaged by hand</Pill>)).toContain('class="pill pill-done"');
    expect(renderToStaticMarkup(<Pill status="triaged">triaged by hand</Pill>)).toContain(">Triaged by hand<");
  });

  test("a label the user typed keeps its words and the theme's grey", () => {
    expect(renderToStaticMarkup(<Pill>gpu</Pill>)).toBe('<span class="pill">gpu</span>');
  });
});

test("a light grey pill gets black text, a dark one white", () => {
  expect(pillStyle("#c4c4c4")).toEqual({ "--pill-bg": "#c4c4c4", "--pill-text": "#000000" });
  expect(pillStyle("#1f2430")).toEqual({ "--pill-bg": "#1f2430", "--pill-text": "#ffffff" });
});

test("no colour leaves the theme's", () => {
  expect(pillStyle(undefined)).toBeUndefined();
  expect(pillStyle("")).toBeUndefined();
});
