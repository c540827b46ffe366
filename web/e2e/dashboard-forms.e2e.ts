/**
 * The full-board read's two forms, end to end against a real server:
 * boards generated with every column type are read as JSON and in the compact column form, and
 * the browser's decoder must give exactly the JSON's values; then one dashboard over such boards
 * is opened three ways (all its boards in one reply, the same after a reload, and board by board
 * in JSON when a proxy refuses the one reply) and every widget must show the same figures each
 * time. Opened directly, no widget may glide into place and no chart be drawn at two widths.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import type { FullBoardBody } from "../src/shared/api/types.generated";
import { COLUMNS_MEDIA_TYPE, FULL_READ_ACCEPT } from "../src/features/dashboards/boardLoader";
import { formatCompact } from "../src/features/dashboards/engine/formatFigure";
import { ITEM_FIELDS, decodeItemColumns } from "../src/features/dashboards/engine/itemColumns";
import { fullReads } from "./dashboardTimings";
import { createBoard, createMembers, loggedInPage, serverAndBrowser, widgetsDrawn } from "./harness";

const e2e = serverAndBrowser();

const LABELS = ["To do", "Working on it", "Stuck", "Done"];

const COLUMNS = [
  {
    id: "status",
    title: "Status",
    type: "status",
    settings: { labels: LABELS.map((name) => ({ name, done: name === "Done" })) },
  },
  { id: "owner", title: "Owner", type: "people" },
  { id: "points", title: "Points", type: "number", settings: { unit: "pt", unitPosition: "right" } },
  { id: "due", title: "Due", type: "date" },
  { id: "span", title: "Span", type: "timeline" },
  { id: "ok", title: "Reviewed", type: "checkbox" },
  { id: "tags", title: "Tags", type: "dropdown" },
  { id: "sprint", title: "Sprint", type: "text" },
  { id: "note", title: "Note", type: "text" },
];

const day = fc
  .integer({ min: 0, max: 89 })
  .map((n) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));

/** Each column's values as the contract accepts them; a key left out is an item without it. */
function valuesArb(members: string[]) {
  return fc.record(
    {
      status: fc.constantFrom(...LABELS),
      owner: fc.uniqueArray(fc.constantFrom(...members), { maxLength: members.length }),
      points: fc.oneof(fc.integer({ min: 0, max: 13 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
      due: day,
      span: fc.tuple(day, day).map(([a, b]) => (a <= b ? { from: a, to: b } : { from: b, to: a })),
      ok: fc.boolean(),
      tags: fc.uniqueArray(fc.constantFrom("api", "ui", "ops", "naïve", "日本"), { maxLength: 3 }),
      sprint: fc.constantFrom("Sprint 1", "Sprint 2", "Sprint 3"),
      note: fc.string({ unit: "binary", maxLength: 24 }),
    },
    { requiredKeys: [] },
  );
}

function itemsArb(members: string[], maxLength: number) {
  return fc.array(
    fc.record({
      groupId: fc.constantFrom("g1", "g2", "g3"),
      name: fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 }),
      values: valuesArb(members),
    }),
    { maxLength, size: "max" },
  );
}

const seedMembers = () => createMembers(e2e.server, ["Ada", "Grace", "Linus"]);

function boardWithItems(workspaceId: string, name: string, items: readonly unknown[]): Promise<string> {
  const groups = [
    { id: "g1", title: "Now" },
    { id: "g2", title: "Next" },
    { id: "g3", title: "Later" },
  ];
  return createBoard(e2e.server, { workspaceId, name, columns: COLUMNS, groups }, items);
}

/** A Content-Type without its parameters. */
const mediaType = (contentType: string) => contentType.split(";")[0] ?? "";

async function read(boardId: string, accept: string): Promise<{ type: string; body: unknown }> {
  const response = await fetch(`${e2e.server.controlUrl}/boards/${boardId}/full`, {
    headers: { Authorization: `Bearer ${e2e.server.token}`, Accept: accept },
  });
  expect(response.status).toBe(200);
  return { type: response.headers.get("Content-Type") ?? "", body: await response.json() };
}

test("the compact form decodes to exactly the JSON read's values, for generated boards of every column type", async () => {
  const members = await seedMembers();
  const workspace = await e2e.server.api<{ id: string }>("POST", "/workspaces", { name: "Forms" });
  let n = 0;
  await fc.assert(
    fc.asyncProperty(itemsArb(members, 40), async (items) => {
      const boardId = await boardWithItems(workspace.body.id, `Generated ${++n}`, items);
      const json = await read(boardId, "application/json");
      const columns = await read(boardId, FULL_READ_ACCEPT);
      expect(mediaType(json.type)).toBe("application/json");
      expect(mediaType(columns.type)).toBe(COLUMNS_MEDIA_TYPE);
      const full = json.body as FullBoardBody;
      const compact = columns.body as { board: unknown; items: unknown };
      expect(compact.board).toEqual(full.board);
      const decoded = decodeItemColumns(compact.items);
      expect(decoded.count).toBe(full.items.length);
      for (const field of ITEM_FIELDS) expect(decoded.field(field)).toEqual(full.items.map((item) => item[field]));
      const keys = new Set([...COLUMNS.map((c) => c.id), ...full.items.flatMap((item) => Object.keys(item.values))]);
      for (const key of keys) {
        const cells = decoded.cells(key);
        full.items.forEach((item, row) => {
          expect(cells[row]).toStrictEqual(Object.hasOwn(item.values, key) ? item.values[key] : undefined);
        });
      }
    }),
    { numRuns: 12, seed: 17 },
  );
}, 120_000);

const SPRINT = { sprintColumn: "sprint", effortColumn: "points", doneColumn: "status", dateColumn: "due" };
const WIDGETS = [
  { type: "numbers", settings: { function: "count" } },
  { type: "numbers", settings: { function: "sum", column: "points" } },
  { type: "numbers", settings: { function: "median", column: "points" } },
  { type: "chart", settings: { chartType: "bar", groupBy: "status" } },
  { type: "chart", settings: { chartType: "donut", groupBy: "owner", function: "sum", column: "points" } },
  { type: "chart", settings: { chartType: "line", groupBy: "due", dateBucket: "week" } },
  { type: "chart", settings: { chartType: "column", groupBy: "span", dateBucket: "month" } },
  { type: "chart", settings: { chartType: "bar", groupBy: "tags", function: "avg", column: "points" } },
  { type: "chart", settings: { chartType: "pie", groupBy: "ok" } },
  { type: "chart", settings: { chartType: "bar", groupBy: "group" } },
  { type: "velocity", settings: SPRINT },
  { type: "plannedVsUnplanned", settings: { ...SPRINT, doneColumn: "ok", dateColumn: "span" } },
  { type: "burndown", settings: SPRINT },
  { type: "battery", settings: { column: "status" } },
  { type: "table", settings: { columns: ["status", "owner", "span", "tags"], limit: 25 } },
].map((w, i) => ({ id: `w${i}`, layout: { x: (i % 3) * 4, y: Math.floor(i / 3) * 4, w: 4, h: 4 }, ...w }));

declare global {
  interface Window {
    __placement?: { glides: string[]; chartWidths: Record<string, number[]> };
  }
}

/**
 * Page script: records each grid item that starts a transition, and the widths each widget's
 * chart was drawn at (a draw starts by clearing its canvas).
 */
function watchPlacementAndDraws(): void {
  const placement = { glides: [] as string[], chartWidths: {} as Record<string, number[]> };
  window.__placement = placement;
  addEventListener("transitionrun", (event) => {
    const item = (event.target as Element).closest("[data-widget-id]");
    if (item) placement.glides.push(`${item.getAttribute("data-widget-id")} ${event.propertyName}`);
  });
  const clear = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...args: Parameters<typeof clear>) {
    const widget = this.canvas.closest("[data-widget-id]")?.getAttribute("data-widget-id");
    const widths = widget ? (placement.chartWidths[widget] ??= []) : null;
    if (widths && !widths.includes(this.canvas.width)) widths.push(this.canvas.width);
    clear.apply(this, args);
  };
}

/** Every widget's text: numbers' figures, charts' figure tables, the battery's and table's text. */
async function figures(page: Page): Promise<Record<string, string>> {
  await widgetsDrawn(page, WIDGETS.length, { timeout: 60_000 });
  // People are named once the member list has arrived (a stand-in until then): wait for it in
  // every widget.
  await page.waitForFunction(() =>
    [...document.querySelectorAll("[data-widget-id] .dash-widget-body")].every(
      (body) => !/Member [0-9a-f]{32}/.test(body.textContent ?? ""),
    ),
  );
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-widget-id]")].map((w) => [
        w.getAttribute("data-widget-id") as string,
        w.querySelector(".dash-widget-body")?.textContent ?? "",
      ]),
    ),
  );
}

/** Bytes fetched for each full read of the page's dashboard worker (headers included). */
async function readSizes(page: Page): Promise<number[]> {
  const worker = page.workers().find((w) => w.url().includes("dashboard.worker"));
  if (!worker) throw new Error("the dashboard worker is not running");
  return (await fullReads(worker)).reads.map((read) => read.fetched);
}

/**
 * The media types of the full reads made in `context` from now on, as the network saw them:
 * `together` for `GET /boards/full`, `alone` for each `GET /boards/<id>/full`.
 */
function watchReads(context: BrowserContext): { together: string[]; alone: string[] } {
  const reads = { together: [] as string[], alone: [] as string[] };
  context.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    const type = mediaType(response.headers()["content-type"] ?? "");
    if (path === "/api/boards/full") reads.together.push(type);
    else if (/\/boards\/[^/]+\/full$/.test(path)) reads.alone.push(type);
  });
  return reads;
}

/** The items the dashboard's filters keep: owned by one of `people`, with at least 1 point. */
function keptCount(boards: readonly { values: { owner?: string[]; points?: number } }[][], people: readonly string[]) {
  const kept = ({ values: { owner = [], points = Number.NaN } }: (typeof boards)[number][number]) =>
    owner.some((id) => people.includes(id)) && points >= 1;
  return boards.reduce((sum, items) => sum + items.filter(kept).length, 0);
}

test("a dashboard shows the same figures from one read of all its boards, after a reload, and from JSON read board by board", async () => {
  const members = await seedMembers();
  const workspace = await e2e.server.api<{ id: string }>("POST", "/workspaces", { name: "Dashboard forms" });
  const boards = fc.sample(itemsArb(members, 300), { numRuns: 3, seed: 29 });
  const boardIds: string[] = [];
  for (const [b, items] of boards.entries()) {
    boardIds.push(await boardWithItems(workspace.body.id, `Mixed ${b + 1}`, items));
  }
  const people = members.slice(0, 2);
  const dashboard = await e2e.server.api<{ id: string }>("POST", "/dashboards", {
    workspaceId: workspace.body.id,
    name: "Forms",
    config: {
      boardIds,
      widgets: WIDGETS,
      filters: { people, rules: [{ column: "points", op: "gte", value: 1 }] },
    },
  });
  expect(dashboard.status).toBe(201);
  const url = `${e2e.server.uiUrl}/dashboards/${dashboard.body.id}`;

  // Reads are watched from before the dashboard's navigation, so none is missed.
  const compact = await loggedInPage(e2e, "/");
  const compactReads = watchReads(compact.context);
  await compact.page.addInitScript(watchPlacementAndDraws);
  await compact.page.goto(url);
  const fromColumns = await figures(compact.page);
  // Every widget appeared where it belongs: none glided in from a guessed grid width, and no
  // chart was drawn at that width before the measured one.
  await compact.page.waitForTimeout(500);
  const placement = await compact.page.evaluate(() => window.__placement);
  expect(placement?.glides).toEqual([]);
  const charts = WIDGETS.filter((w) => ["chart", "velocity", "plannedVsUnplanned", "burndown"].includes(w.type));
  expect(Object.keys(placement?.chartWidths ?? {}).sort()).toEqual(charts.map((w) => w.id).sort());
  for (const widths of Object.values(placement?.chartWidths ?? {})) expect(widths).toHaveLength(1);
  // One reply brought every board, in the compact form.
  const sizes = await readSizes(compact.page);
  expect(sizes).toHaveLength(1);
  expect(sizes[0]).toBeGreaterThan(1_000 * boardIds.length);
  expect(compactReads).toEqual({ together: ["application/x-ndjson"], alone: [] });
  expect(Object.keys(fromColumns)).toHaveLength(WIDGETS.length);
  // The count is the filtered items' own, and not none, so the comparisons below compare figures.
  const count = keptCount(boards, people);
  expect(count).toBeGreaterThan(0);
  expect(fromColumns.w0).toBe(`${formatCompact(count)}count`);

  // A reload starts a fresh worker with nothing in memory: one reply again.
  await compact.page.reload();
  expect(await figures(compact.page)).toEqual(fromColumns);
  expect(await readSizes(compact.page)).toHaveLength(1);
  await compact.context.close();

  // A proxy that refuses the read of all boards, and gives JSON for each board's own: the
  // worker reads the boards one by one, in JSON.
  const json = await loggedInPage(e2e, "/");
  await json.context.route(
    (address) => address.pathname === "/api/boards/full",
    (route) => route.fulfill({ status: 502, contentType: "text/plain", body: "Bad gateway" }),
  );
  // By path: the reads carry a query (`codes=base64`, and `fields=` without a table).
  await json.context.route(
    (address) => /^\/api\/boards\/[^/]+\/full$/.test(address.pathname),
    (route) => route.continue({ headers: { ...route.request().headers(), accept: "application/json" } }),
  );
  const jsonReads = watchReads(json.context);
  await json.page.goto(url);
  expect(await figures(json.page)).toEqual(fromColumns);
  expect(jsonReads).toEqual({ together: ["text/plain"], alone: boardIds.map(() => "application/json") });
  await json.context.close();
}, 180_000);
