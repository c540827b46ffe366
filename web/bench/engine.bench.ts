/**
 * Engine benchmark: 50 boards × 2,000 items (100,000 items), generated deterministically, and
 * the median time of each widget over all of them, plus the filter step. Target: under 20 ms
 * per widget on this machine. Last, a cold load as the dashboard worker meets it: the 50
 * compact bodies parsed, decoded and every column read derived for a first dashboard, both in
 * this warmed-up process and as the worker really meets it: once, in a fresh process whose JIT
 * has compiled nothing yet; and, in fresh processes too, the first load of the dashboard that
 * `e2e/dashboard-scale.e2e.ts` measures in Chromium, its boards read with their own dictionaries
 * and with shared ones (`dicts=shared`). Prints figures; asserts nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { applyFilters } from "../src/features/dashboards/engine/applyFilters";
import { computeDashboard, computeWidget, itemFieldsFor } from "../src/features/dashboards/engine/computeWidget";
import { columnsBody, packCodes, shareDicts } from "../src/features/dashboards/engine/fixtures/columnsBody";
import {
  SCALE_BOARDS,
  SCALE_COLUMNS,
  SCALE_GROUPS,
  SCALE_ITEMS_PER_BOARD,
  SCALE_WIDGETS,
  scaleBoardName,
  scaleItem,
  scaleRandom,
} from "../src/features/dashboards/engine/fixtures/scaleDashboard";
import { type SharedDicts, decodeItemColumns } from "../src/features/dashboards/engine/itemColumns";
import { prepareBoards } from "../src/features/dashboards/engine/prepareBoards";
import type {
  BoardFull,
  ColumnarBoard,
  Column,
  DashboardFilters,
  Item,
  WidgetConfig,
} from "../src/features/dashboards/engine/types";

/** Set in the fresh processes of the first-load row: the file of bodies to load once. */
const FIRST_LOAD_INPUT = process.env.ENGINE_BENCH_FIRST_LOAD;
/** Fresh processes the first-load row starts, one load each. */
const FIRST_LOADS = 9;

const BOARDS = 50;
const ITEMS_PER_BOARD = 2000;
const RUNS = 31;
const WARMUP = 5;
const TARGET_MS = 20;
/** The per-widget target does not apply to this row: it sums the filter and every widget. */
const DASHBOARD_ROW = "whole dashboard (filter + all widgets above)";

/** mulberry32: a small seeded generator, so every run sees the same data. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LABELS = ["Not started", "Working on it", "Stuck", "In review", "Done"];
const TAGS = ["frontend", "backend", "infra", "docs", "design", "qa"];
const DAY_MS = 86_400_000;
const START = Date.UTC(2024, 0, 1);

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function makeBoards(): BoardFull[] {
  const random = generator(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const boards: BoardFull[] = [];
  for (let b = 0; b < BOARDS; b++) {
    const columns: Column[] = [
      {
        id: "status",
        title: "Status",
        type: "status",
        settings: { labels: LABELS.map((name) => ({ name, done: name === "Done" })) },
      },
      { id: "owner", title: "Owner", type: "people" },
      // Every fifth board budgets in euros, so Numbers and Chart meet mixed units.
      {
        id: "budget",
        title: "Budget",
        type: "number",
        settings: { unit: b % 5 === 0 ? "€" : "$", unitPosition: "left" },
      },
      { id: "effort", title: "Effort", type: "number" },
      { id: "sprint", title: "Sprint", type: "text" },
      { id: "done_on", title: "Done on", type: "date" },
      { id: "span", title: "Timeline", type: "timeline" },
      { id: "ok", title: "Approved", type: "checkbox" },
      { id: "tags", title: "Tags", type: "dropdown" },
      { id: "note", title: "Note", type: "text" },
    ];
    const groups = [0, 1, 2, 3].map((g) => ({ id: `b${b}g${g}`, title: `Group ${g}` }));
    const items: Item[] = [];
    for (let i = 0; i < ITEMS_PER_BOARD; i++) {
      const sprint = 1 + Math.floor(random() * 12);
      const sprintStart = START + (sprint - 1) * 14 * DAY_MS;
      const status = pick(LABELS);
      const from = START + Math.floor(random() * 180) * DAY_MS;
      const created = sprintStart + Math.floor((random() - 0.3) * 10 * DAY_MS);
      const values: Item["values"] = {
        status: random() < 0.05 ? null : status,
        owner:
          random() < 0.1
            ? []
            : random() < 0.3
              ? [`m${Math.floor(random() * 40)}`, `m${Math.floor(random() * 40)}`]
              : [`m${Math.floor(random() * 40)}`],
        budget: random() < 0.1 ? null : Math.round(random() * 100_000) / 100,
        effort: random() < 0.1 ? null : pick([1, 2, 3, 5, 8, 13]),
        sprint: random() < 0.05 ? null : `Sprint ${sprint}`,
        done_on: status === "Done" ? isoDay(sprintStart + Math.floor(random() * 14) * DAY_MS) : null,
        span: { from: isoDay(from), to: isoDay(from + Math.floor(random() * 20) * DAY_MS) },
        ok: random() < 0.5,
        tags: [pick(TAGS), pick(TAGS)],
        note: `Item ${i} of board ${b}`,
      };
      const at = new Date(created).toISOString();
      items.push({
        id: `b${b}i${i}`,
        groupId: pick(groups).id,
        name: `Item ${i}`,
        values,
        createdAt: at,
        updatedAt: at,
      });
    }
    boards.push({ board: { id: `b${b}`, name: `Board ${b}`, columns, groups }, items });
  }
  // Round-trip through JSON: the page gets boards from `GET /boards/<id>/full`, so strings and
  // objects should be shaped as JSON.parse makes them, not as the generator built them.
  return JSON.parse(JSON.stringify(boards)) as BoardFull[];
}

/** The boards `e2e/dashboard-scale.e2e.ts` seeds, with made-up member ids. */
function makeScaleBoards(): BoardFull[] {
  const random = scaleRandom();
  const members = ["m1", "m2", "m3"];
  // The scale bench's items are made in one batch: one creation time.
  const createdAt = new Date(START).toISOString();
  return Array.from({ length: SCALE_BOARDS }, (_, b): BoardFull => {
    const items = Array.from({ length: SCALE_ITEMS_PER_BOARD }, (_, i): Item => {
      const { groupId, name, values } = scaleItem(random, members, i);
      return { id: `s${b}i${i}`, groupId, name, values: values as Item["values"], createdAt, updatedAt: createdAt };
    });
    const board = { id: `s${b}`, name: scaleBoardName(b), columns: SCALE_COLUMNS, groups: SCALE_GROUPS };
    return { board, items };
  });
}

interface Timing {
  median: number;
  min: number;
}

/** Garbage left by one widget's runs is collected before the next widget is timed. */
const collect = (globalThis as { gc?: () => void }).gc;

function time(run: () => unknown): Timing {
  collect?.();
  for (let i = 0; i < WARMUP; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  samples.sort((x, y) => x - y);
  return { median: samples[samples.length >> 1] as number, min: samples[0] as number };
}

const layout = { x: 0, y: 0, w: 4, h: 3 };
const sprintSettings = { sprintColumn: "sprint", effortColumn: "effort", doneColumn: "status", dateColumn: "done_on" };
const WIDGETS: WidgetConfig[] = [
  { id: "numbers sum", type: "numbers", layout, settings: { function: "sum", column: "budget" } },
  { id: "numbers median", type: "numbers", layout, settings: { function: "median", column: "budget" } },
  {
    id: "numbers median (few distinct values)",
    type: "numbers",
    layout,
    settings: { function: "median", column: "effort" },
  },
  {
    id: "chart pie by status, count",
    type: "chart",
    layout,
    settings: { chartType: "pie", groupBy: "status", function: "count" },
  },
  {
    id: "chart bar by people, sum",
    type: "chart",
    layout,
    settings: { chartType: "bar", groupBy: "owner", function: "sum", column: "budget" },
  },
  {
    id: "chart line by week, avg",
    type: "chart",
    layout,
    settings: { chartType: "line", groupBy: "done_on", dateBucket: "week", function: "avg", column: "effort" },
  },
  {
    id: "chart column by group, median",
    type: "chart",
    layout,
    settings: { chartType: "column", groupBy: "group", function: "median", column: "budget" },
  },
  { id: "velocity", type: "velocity", layout, settings: sprintSettings },
  { id: "plannedVsUnplanned", type: "plannedVsUnplanned", layout, settings: sprintSettings },
  { id: "burndown", type: "burndown", layout, settings: sprintSettings },
  { id: "battery", type: "battery", layout, settings: { column: "status" } },
  { id: "table", type: "table", layout, settings: { columns: ["status", "owner", "budget"] } },
  { id: "apps", type: "apps", layout, settings: {} },
];
const FILTERS: DashboardFilters = {
  people: ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"],
  rules: [
    { column: "status", op: "is_not", value: "Done" },
    { column: "budget", op: "gte", value: 100 },
    { column: "span", op: "lte", value: "2024-05-01" },
  ],
};

type Parsed = { board: ColumnarBoard["board"]; items: unknown };
const figureWidgets = WIDGETS.filter((w) => w.type !== "table");

/** What a fresh process's first load computes: the first line of its input, then a body a line. */
interface FirstLoadView {
  widgets: WidgetConfig[];
  filters: DashboardFilters | null;
}

/**
 * One load of the bodies in `input` (a line each, after the view, and the dictionaries they
 * share first if they do), in this process as it
 * started: nothing the load runs is compiled or optimised yet, as in the dashboard worker of a
 * newly opened page. Prints its wall time and the CPU every thread of the process used meanwhile
 * (the JIT's compilers and the collector run beside the load).
 */
function firstLoadHere(input: string): void {
  const [header = "{}", ...bodies] = readFileSync(input, "utf8").split("\n");
  const view = JSON.parse(header) as FirstLoadView;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let shared: SharedDicts | undefined;
  const reads: ColumnarBoard[] = [];
  for (const body of bodies) {
    const line = JSON.parse(body) as Parsed | { dicts: SharedDicts };
    if ("dicts" in line) shared = line.dicts;
    else reads.push({ board: line.board, itemColumns: decodeItemColumns(line.items, shared) });
  }
  computeDashboard(prepareBoards(reads), view.filters, view.widgets);
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1000 }));
}

if (FIRST_LOAD_INPUT !== undefined) {
  firstLoadHere(FIRST_LOAD_INPUT);
  process.exit(0);
}

/** `FIRST_LOADS` first loads of `bodies`, each in a fresh process: medians and fastest. */
function firstLoads(bodies: readonly string[], view: FirstLoadView): { wall: Timing; cpu: Timing } {
  const folder = mkdtempSync(join(tmpdir(), "engine-bench-"));
  const input = join(folder, "bodies.ndjson");
  writeFileSync(input, [JSON.stringify(view), ...bodies].join("\n"));
  const script = process.argv[1] as string;
  const runs: { wall: number; cpu: number }[] = [];
  try {
    for (let i = 0; i < FIRST_LOADS; i++) {
      const out = execFileSync(process.execPath, [script], {
        env: { ...process.env, ENGINE_BENCH_FIRST_LOAD: input },
        encoding: "utf8",
      });
      runs.push(JSON.parse(out) as { wall: number; cpu: number });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const summary = (values: number[]): Timing => {
    values.sort((x, y) => x - y);
    return { median: values[values.length >> 1] as number, min: values[0] as number };
  };
  return { wall: summary(runs.map((r) => r.wall)), cpu: summary(runs.map((r) => r.cpu)) };
}

const t0 = performance.now();
const raw = makeBoards();
const generated = performance.now() - t0;
const t1 = performance.now();
const boards = prepareBoards(raw);
const prepared = performance.now() - t1;
const all = applyFilters(boards, {});
const total = all.report.totalItems;

const rows: [string, Timing][] = [];
rows.push(["filter step (3 rules + People)", time(() => applyFilters(boards, FILTERS))]);
// A fresh (unfiltered) result per run, as after a filter change: nothing cached from a previous run.
for (const widget of WIDGETS) rows.push([widget.id, time(() => computeWidget(applyFilters(boards, {}), widget))]);
rows.push(["whole dashboard (filter + all widgets above)", time(() => computeDashboard(boards, FILTERS, WIDGETS))]);

/**
 * A board's compact body as the server sends it to a dashboard of `widgets`: only the item fields
 * they read, its codes packed when the read asks for `codes=base64`.
 */
function wireBody(read: BoardFull, widgets: readonly WidgetConfig[], packed: boolean): string {
  const fields = new Set<string>(itemFieldsFor(widgets) ?? []);
  const { board, items } = columnsBody(read);
  const lean = Object.fromEntries(Object.entries(items).filter(([key]) => key === "count" || fields.has(key)));
  return JSON.stringify({ board, items: packed ? packCodes(lean) : lean });
}

const bodies = raw.map((read) => wireBody(read, figureWidgets, false));
const parse = (): Parsed[] => bodies.map((body) => JSON.parse(body) as Parsed);
const decode = (parsed: Parsed[]): ColumnarBoard[] =>
  parsed.map(({ board, items }) => ({ board, itemColumns: decodeItemColumns(items) }));
const firstDashboard = (reads: ColumnarBoard[]) => computeDashboard(prepareBoards(reads), FILTERS, figureWidgets);
const COLD_ROW = "cold load (parse, decode, first dashboard)";
const COLD_PARTS = ["  of it: parse", "  of it: decode", "  of it: first dashboard"];
rows.push([COLD_ROW, time(() => firstDashboard(decode(parse())))]);
rows.push([COLD_PARTS[0] as string, time(parse)]);
const parsedOnce = parse();
rows.push([COLD_PARTS[1] as string, time(() => decode(parsedOnce))]);
// Each run derives from fresh decodes: prepared boards and their column reads are kept per read.
const decodes = Array.from({ length: WARMUP + RUNS }, () => decode(parse()));
rows.push([COLD_PARTS[2] as string, time(() => firstDashboard(decodes.pop() ?? decode(parse())))]);
const wireBytes = bodies.reduce((sum, body) => sum + body.length, 0);
// The same bodies as the web app asks for them, with every list of codes packed (`codes=base64`).
const packedBodies = raw.map((read) => wireBody(read, figureWidgets, true));
// The dashboard scale bench's own load (e2e/dashboard-scale.e2e.ts): its boards, its seven
// widgets, no rule applied, codes packed as the worker reads them.
const scaleBoards = makeScaleBoards();
const scaleBodies = scaleBoards.map((read) => wireBody(read, SCALE_WIDGETS, true));
/** The same boards as `GET /boards/full?dicts=shared` sends them: the dictionaries' line first. */
const sharedScaleBodies = (() => {
  const fields = new Set<string>(itemFieldsFor(SCALE_WIDGETS) ?? []);
  const { dicts, bodies } = shareDicts(scaleBoards.map((read) => columnsBody(read)));
  const lines = bodies.map(({ board, items }) => {
    const lean = Object.fromEntries(Object.entries(items).filter(([key]) => key === "count" || fields.has(key)));
    return JSON.stringify({ board, items: packCodes(lean, dicts) });
  });
  return [JSON.stringify({ dicts }), ...lines];
})();
const firstLoadRows = [
  ["the same cold load", "codes as numbers", bodies, firstLoads(bodies, { widgets: figureWidgets, filters: FILTERS })],
  [
    "the same cold load",
    "codes packed (codes=base64)",
    packedBodies,
    firstLoads(packedBodies, { widgets: figureWidgets, filters: FILTERS }),
  ],
  [
    "the dashboard scale bench's cold load (its 50 boards × 2,000 items and seven widgets, no rule)",
    "codes packed",
    scaleBodies,
    firstLoads(scaleBodies, { widgets: SCALE_WIDGETS, filters: null }),
  ],
  [
    "the same boards read with shared dictionaries (dicts=shared)",
    "codes packed",
    sharedScaleBodies,
    firstLoads(sharedScaleBodies, { widgets: SCALE_WIDGETS, filters: null }),
  ],
] as const;

console.log(`engine bench: ${BOARDS} boards × ${ITEMS_PER_BOARD} items = ${total} items (Node ${process.version})`);
console.log(`generate ${generated.toFixed(0)} ms, prepareBoards ${prepared.toFixed(2)} ms (once per load)`);
console.log(`median (and fastest) of ${RUNS} runs after ${WARMUP} warm-up runs, over all ${total} items:`);
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, { median, min }] of rows) {
  const over =
    median > TARGET_MS && name !== DASHBOARD_ROW && name !== COLD_ROW && !COLD_PARTS.includes(name)
      ? `  over the ${TARGET_MS} ms target`
      : "";
  console.log(`  ${name.padEnd(width)}  ${median.toFixed(2).padStart(7)} ms  (${min.toFixed(2)} ms)${over}`);
}
for (const [load, codes, loadBodies, loads] of firstLoadRows) {
  const megabytes = loadBodies.reduce((sum, body) => sum + body.length, 0) / 1e6;
  console.log(
    `${load} in a fresh process (nothing compiled yet, as in a newly opened page's worker), ${codes}, ` +
      `${megabytes.toFixed(1)} MB, ${FIRST_LOADS} processes: median ${loads.wall.median.toFixed(1)} ms ` +
      `(fastest ${loads.wall.min.toFixed(1)} ms), CPU of all its threads (the JIT's compilers and the collector too) ` +
      `median ${loads.cpu.median.toFixed(1)} ms (least ${loads.cpu.min.toFixed(1)} ms)`,
  );
}
const filtered = applyFilters(boards, FILTERS);
console.log(`filter keeps ${filtered.report.keptItems} of ${filtered.report.totalItems} items`);
console.log(`the cold load's bodies: ${(wireBytes / 1e6).toFixed(1)} MB of JSON, every widget but the table`);
