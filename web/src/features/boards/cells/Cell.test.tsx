import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import type { Column } from "../types";
import { Cell } from "./Cell";
import { plainDay } from "../../../shared/time";

const draw = (column: Column, value: unknown) =>
  renderToStaticMarkup(<Cell itemId="i1" itemName="Alpha" column={column} value={value} onChange={() => {}} />);

test("a number shows its unit on its side and names it for screen readers", () => {
  const html = draw({ id: "n", title: "Budget", type: "number", settings: { unit: "$", unitPosition: "left" } }, 1200);
  expect(html).toContain(">$1,200<");
  expect(html).toContain('aria-label="Budget of Alpha ($): $1,200"');
});

test("a status shows its label in the label's colour, with text that reads on it", () => {
  const column: Column = {
    id: "s",
    title: "Status",
    type: "status",
    settings: { labels: [{ name: "Done", color: "#00c875" }] },
  };
  const html = draw(column, "Done");
  expect(html).toContain('style="--pill-bg:#00c875;--pill-text:#000000"');
  expect(html).toContain(">Done<");
  expect(draw(column, null)).not.toContain("--pill-bg");
  // The preset "To Do" grey was drawn with white text (1.8:1): it now gets black.
  const todo: Column = { ...column, settings: { labels: [{ name: "To Do", color: "#c4c4c4" }] } };
  expect(draw(todo, "To Do")).toContain("--pill-text:#000000");
});

test("dates, timelines, checkboxes and dropdowns are drawn from their values", () => {
  // In the reader's locale, as every page writes a day.
  expect(draw({ id: "d", title: "Due", type: "date", settings: {} }, "2025-03-14")).toContain(
    `>${plainDay("2025-03-14")}<`,
  );
  expect(
    draw({ id: "t", title: "Sprint", type: "timeline", settings: {} }, { from: "2025-03-03", to: "2025-03-16" }),
  ).toContain(`${plainDay("2025-03-03")} – ${plainDay("2025-03-16")}`);
  expect(draw({ id: "c", title: "Done", type: "checkbox", settings: {} }, true)).toContain('checked=""');
  expect(draw({ id: "c", title: "Done", type: "checkbox", settings: {} }, null)).not.toContain("checked");
  const tags = draw({ id: "x", title: "Tags", type: "dropdown", settings: {} }, ["a", "b"]);
  expect(tags.match(/class="pill"/g)).toHaveLength(2);
});

test("people unknown to the directory still show as an avatar", () => {
  const html = draw({ id: "p", title: "Owner", type: "people", settings: {} }, ["m1", "m2"]);
  expect(html.match(/class="avatar"/g)).toHaveLength(2);
  expect(html).toContain('title="Unknown member"');
});

test("a text cell holding a session's address links to the session page and still edits", () => {
  const column: Column = { id: "session", title: "Session", type: "text", settings: {} };
  const html = draw(column, "/sessions/0197a1b2c3d4e5f6");
  expect(html).toContain('href="/sessions/0197a1b2c3d4e5f6"');
  expect(html).toContain(">Session c3d4e5f6<");
  expect(html).toContain('aria-label="Session of Alpha"');
  expect(draw(column, "see /sessions/x for context")).not.toContain("href");
  expect(draw(column, "/sessions/a/b")).not.toContain("href");
});
