/**
 * Bench instrumentation for `dashboard-scale.e2e.ts` (whose worker read timings
 * `dashboard-forms.e2e.ts` reads as well): splits a dashboard's load into where the time goes
 * (before the first board read, the reads on the wire, the worker's work after the last read,
 * drawing) without adding anything to the app. The page's `Worker` is wrapped by an init script
 * to timestamp the worker's replies; the worker's own resource timings give the reads; a second
 * pass over the same reads inside the worker times `JSON.parse` alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page, Worker } from "playwright-core";
import { percentile } from "./figures";

declare global {
  interface Window {
    /** Page-clock times (`performance.now()`) of the dashboard worker's replies carrying results. */
    __dashResultsAt?: number[];
    /** Page-clock times of the worker's replies carrying board states (each one a page render). */
    __dashBoardsAt?: number[];
    /** Page-clock time of the `dash-bench-origin` mark, which ties the trace's clock to the page's. */
    __dashOriginAt?: number;
    /** Page-clock time of the page's first request to the dashboard worker (after `open`). */
    __dashAskedAt?: number;
  }
}

/** Installs the reply timestamps; call before the page's first navigation. */
export async function instrumentDashboard(page: Page): Promise<() => Worker | null> {
  await page.addInitScript(() => {
    const Native = window.Worker;
    window.__dashResultsAt = [];
    window.__dashBoardsAt = [];
    // A user-timing mark lands in a Chromium trace: its trace time and this page time match.
    window.__dashOriginAt = performance.now();
    performance.mark("dash-bench-origin");
    // Each request and reply is also a user-timing mark, so a trace (`DASH_TRACE`) places the
    // page's tasks between them.
    window.Worker = class extends Native {
      override postMessage(message: unknown, options?: unknown): void {
        window.__dashAskedAt ??= performance.now();
        performance.mark("dash-ask");
        super.postMessage(message, options as StructuredSerializeOptions);
      }
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        // Added first, so it runs before the page's own listener applies the results.
        this.addEventListener("message", (event: MessageEvent<{ results?: unknown; boards?: unknown }>) => {
          if (event.data?.results) window.__dashResultsAt?.push(performance.now());
          performance.mark(event.data?.results ? "dash-results" : event.data?.boards ? "dash-boards" : "dash-message");
          if (event.data?.boards) window.__dashBoardsAt?.push(performance.now());
        });
      }
    };
  });
  let latest: Worker | null = null;
  page.on("worker", (worker) => {
    if (worker.url().includes("dashboard")) latest = worker;
  });
  return () => latest;
}

interface LoadBreakdown {
  /** Page clock, ms after navigation start. */
  firstReadStart: number;
  lastReadEnd: number;
  lastResultsAt: number;
  drawnAt: number;
  /** Page-clock times of the board-state replies (each one renders the page). */
  boardMessages: number[];
  reads: number;
  /**
   * Bytes fetched (headers included: a read the HTTP cache revalidated costs only its 304's),
   * the bodies as compressed, and after decompression.
   */
  fetchedBytes: number;
  wireBytes: number;
  bodyBytes: number;
  /**
   * Each read's parts, median and longest: waiting for a connection (the browser opens six per
   * origin), the server's reply until its first byte, and the body until its last.
   */
  queued: [number, number];
  server: [number, number];
  body: [number, number];
  /**
   * The page's own requests (its code and small reads, not served from the memory cache) until
   * the widgets were drawn: how long they waited for a connection beside the reads, and when
   * the last one ended.
   */
  ownRequests: number;
  ownQueued: [number, number];
  ownLastEnd: number;
}

function medianAndMax(values: number[]): [number, number] {
  return values.length ? [percentile(values, 50), Math.max(...values)] : [0, 0];
}

/** One full board read in the worker's resource timeline (worker clock). */
interface ReadTiming {
  start: number;
  /** When the request went out (after waiting for a connection), and when the reply began. */
  requestStart: number;
  responseStart: number;
  end: number;
  fetched: number;
  wire: number;
  body: number;
}

/**
 * The full board reads `worker` made, with its clock's origin. The reads run in the worker,
 * so only its own resource timeline lists them.
 */
export function fullReads(worker: Worker): Promise<{ origin: number; reads: ReadTiming[] }> {
  return worker.evaluate(() => ({
    origin: performance.timeOrigin,
    reads: (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((e) => e.name.includes("/full"))
      .map((e) => ({
        start: e.startTime,
        requestStart: e.requestStart,
        responseStart: e.responseStart,
        end: e.responseEnd,
        fetched: e.transferSize,
        wire: e.encodedBodySize,
        body: e.decodedBodySize,
      })),
  }));
}

/** The load just drawn (`drawnAt` from `widgetsDrawn`), split by the page's and worker's clocks. */
export async function loadBreakdown(page: Page, worker: Worker | null, drawnAt: number): Promise<LoadBreakdown> {
  const { page0, lastResultsAt, boardMessages, ownRequests } = await page.evaluate(
    (drawn) => ({
      page0: performance.timeOrigin,
      lastResultsAt: (window.__dashResultsAt ?? []).at(-1) ?? 0,
      boardMessages: window.__dashBoardsAt ?? [],
      // The page's own requests until the widgets were drawn: its code and small reads.
      ownRequests: (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((e) => e.startTime <= drawn && e.requestStart > 0)
        .map((e) => ({ queued: e.requestStart - e.startTime, end: e.responseEnd })),
    }),
    drawnAt,
  );
  const { origin, reads } = worker ? await fullReads(worker) : { origin: page0, reads: [] };
  // The worker's clock starts later than the page's: shift its times onto the page's.
  const shift = origin - page0;
  const starts = reads.map((e) => e.start + shift);
  const ends = reads.map((e) => e.end + shift);
  return {
    firstReadStart: starts.length ? Math.min(...starts) : 0,
    lastReadEnd: ends.length ? Math.max(...ends) : 0,
    lastResultsAt,
    drawnAt,
    boardMessages,
    reads: reads.length,
    fetchedBytes: reads.reduce((s, e) => s + e.fetched, 0),
    wireBytes: reads.reduce((s, e) => s + e.wire, 0),
    bodyBytes: reads.reduce((s, e) => s + e.body, 0),
    ownRequests: ownRequests.length,
    ownQueued: medianAndMax(ownRequests.map((e) => e.queued)),
    ownLastEnd: Math.max(0, ...ownRequests.map((e) => e.end)),
    queued: medianAndMax(reads.map((e) => e.requestStart - e.start)),
    server: medianAndMax(reads.map((e) => e.responseStart - e.requestStart)),
    body: medianAndMax(reads.map((e) => e.end - e.responseStart)),
  };
}

export function describeLoad(b: LoadBreakdown): string {
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const span = ([median, max]: [number, number]) => `${median.toFixed(0)}/${max.toFixed(0)}`;
  return (
    `before the first read ${b.firstReadStart.toFixed(0)} ms, reads ${b.reads} ` +
    `(${mb(b.fetchedBytes)} MB fetched, bodies ${mb(b.wireBytes)} MB compressed, ${mb(b.bodyBytes)} MB decoded) ` +
    `until ${b.lastReadEnd.toFixed(0)} ms ` +
    `(each, median/longest: queued ${span(b.queued)}, server ${span(b.server)}, body ${span(b.body)} ms), ` +
    `the page's own ${b.ownRequests} requests queued ${span(b.ownQueued)} ms (the last ends at ` +
    `${b.ownLastEnd.toFixed(0)} ms), ` +
    `worker after the last read ${(b.lastResultsAt - b.lastReadEnd).toFixed(0)} ms, ` +
    `drawing after the last results ${(b.drawnAt - b.lastResultsAt).toFixed(0)} ms; ` +
    `${b.boardMessages.length} board-state messages (at ${b.boardMessages.map((t) => t.toFixed(0)).join(", ")} ms)`
  );
}

/**
 * Reads the boards again inside the worker in the form `accept` asks for, and times `JSON.parse`
 * of their bodies alone: the decoding cost the load pays, measured apart from the network and
 * the engine, with the size of the text it parses.
 */
export async function parseCost(
  worker: Worker,
  boardIds: readonly string[],
  accept: string,
): Promise<{ ms: number; megabytes: number }> {
  return worker.evaluate(
    async ({ ids, accept }) => {
      let ms = 0;
      let chars = 0;
      for (const id of ids) {
        const reply = await fetch(`/api/boards/${id}/full`, { headers: { Accept: accept }, cache: "no-store" });
        const text = await reply.text();
        const start = performance.now();
        JSON.parse(text);
        ms += performance.now() - start;
        chars += text.length;
      }
      return { ms, megabytes: chars / 1e6 };
    },
    { ids: boardIds, accept },
  );
}

/** CPU time (user + system, ms) the process has used so far, from `/proc/<pid>/stat`. */
export function cpuMs(pid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/**
 * CPU time (ms) the browser's processes have used so far: every process whose command is
 * Chromium's. Traces time tasks by the wall clock, which a busy machine stretches; this counts
 * what they really cost (a process that ends between two readings is left out).
 */
export function browserCpuMs(): Map<string, number> {
  const byProcess = new Map<string, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!/chrom/.test(readFileSync(`/proc/${entry}/comm`, "utf8"))) continue;
      const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${entry}/cmdline`, "utf8"))?.[1] ?? "browser";
      byProcess.set(`${type}:${entry}`, cpuMs(Number(entry)));
      if (SPLIT_THREADS && (type === "renderer" || type === "gpu-process"))
        for (const task of readdirSync(`/proc/${entry}/task`)) {
          const comm = readFileSync(`/proc/${entry}/task/${task}/comm`, "utf8").trim();
          byProcess.set(`${type}:${entry}/${comm}:${task}`, cpuMs(`${entry}/task/${task}`));
        }
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byProcess;
}

/**
 * `DASH_THREADS=1`: `browserCpuMs` also reads each thread of the renderers and the GPU process
 * (`renderer:<pid>/<thread>:<tid>`), so a load's CPU splits into the page's main thread, the
 * dashboard worker, V8's compiler and collector threads (`ThreadPoolForeg…`), the display
 * compositor (`VizCompositorTh…`) and the rest. Threads are not added to the total.
 */
const SPLIT_THREADS = Boolean(process.env.DASH_THREADS);

/** Each browser process's CPU between two `browserCpuMs` readings, and their total. */
export function browserCpuSince(before: Map<string, number>): string {
  const parts: string[] = [];
  let total = 0;
  for (const [key, ms] of browserCpuMs()) {
    const used = ms - (before.get(key) ?? 0);
    const thread = key.includes("/");
    if (!thread) total += used;
    if (used >= 10 || (thread && used > 0)) parts.push(`${key} ${used.toFixed(0)}`);
  }
  return `${total.toFixed(0)} ms (${parts.join(", ")})`;
}

/** The server's process id, from the `server.json` it wrote. */
export function serverPid(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, "server.json"), "utf8")) as { pid: number }).pid;
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/**
 * Busy time per browser thread in a Chromium trace: the summed duration of each thread's
 * top-level tasks, for the threads that did more than `minMs`, busiest first.
 */
export function busyThreads(traceJson: Buffer, minMs = 20): string {
  const { traceEvents } = JSON.parse(traceJson.toString("utf8")) as { traceEvents: TraceEvent[] };
  const names = new Map<string, string>();
  for (const e of traceEvents)
    if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args?.name ?? "");
  const busy = new Map<string, number>();
  // Top-level tasks only (nested events would count twice): the scheduler's task events.
  for (const e of traceEvents) {
    if (e.ph !== "X" || e.name !== "ThreadControllerImpl::RunTask" || e.dur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    busy.set(key, (busy.get(key) ?? 0) + e.dur / 1000);
  }
  return [...busy]
    .filter(([, ms]) => ms >= minMs)
    .sort((a, b) => b[1] - a[1])
    .map(([key, ms]) => `${names.get(key) || key} ${ms.toFixed(0)} ms`)
    .join(", ");
}

/**
 * The page's main thread and the dashboard worker's thread, busy time per phase of the load just
 * traced (`busyThreads`' tasks, placed on the page's clock through the `dash-bench-origin` mark):
 * before the first read, while the reads are on the wire, from the last read to the last
 * results, and drawing. Also the main thread's longest tasks, with when they started.
 */
export async function phases(page: Page, traceJson: Buffer, b: LoadBreakdown): Promise<string> {
  const originAt = await page.evaluate(() => window.__dashOriginAt ?? 0);
  const { traceEvents } = JSON.parse(traceJson.toString("utf8")) as { traceEvents: TraceEvent[] };
  const mark = traceEvents.find((e) => e.name === "dash-bench-origin");
  if (!mark) return "no origin mark in the trace";
  const names = new Map<string, string>();
  for (const e of traceEvents)
    if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args?.name ?? "");
  // The page's renderer is the process that recorded the mark; its worker is a thread of it.
  const threadOf = (name: string) =>
    [...names].find(([key, n]) => n.startsWith(name) && key.startsWith(`${mark.pid}:`))?.[0];
  const at = (ts: number) => (ts - mark.ts) / 1000 + originAt;
  const bounds = [0, b.firstReadStart, b.lastReadEnd, b.lastResultsAt, b.drawnAt];
  const labels = ["before the reads", "during the reads", "last read to last results", "drawing"];
  const describe = (key: string | undefined, label: string) => {
    if (!key) return `${label}: not in the trace`;
    const tasks = traceEvents
      .filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && `${e.pid}:${e.tid}` === key)
      .map((e) => ({ start: at(e.ts), ms: (e.dur ?? 0) / 1000 }));
    const busy = labels.map((_, i) => {
      const [from, to] = [bounds[i] as number, bounds[i + 1] as number];
      // A task's share inside the phase, so one that spans a bound counts on both sides.
      return tasks.reduce((s, t) => s + Math.max(0, Math.min(t.start + t.ms, to) - Math.max(t.start, from)), 0);
    });
    const longest = tasks
      .filter((t) => t.start + t.ms >= 0 && t.start <= b.drawnAt)
      .sort((x, y) => y.ms - x.ms)
      .slice(0, 6)
      .map((t) => `${t.ms.toFixed(0)} ms at ${t.start.toFixed(0)}`);
    return (
      `${label} busy ${labels.map((l, i) => `${l} ${(busy[i] as number).toFixed(0)}`).join(", ")} ms; ` +
      `longest tasks ${longest.join(", ")}`
    );
  };
  return `${describe(threadOf("CrRendererMain"), "page main thread")}\n  ${describe(threadOf("DedicatedWorker"), "worker")}`;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/**
 * Runs `during` under the V8 sampling profiler of `page`'s main thread and returns its `top`
 * functions by self time (the built app is minified, but library methods keep their names):
 * where a filter change's drawing goes, function by function.
 */
export async function profileTop(page: Page, during: () => Promise<void>, top = 25): Promise<string> {
  const session = await page.context().newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  await during();
  const { profile } = (await session.send("Profiler.stop")) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await session.detach();
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byNode.get(id);
    if (!node) return;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const file = url.split("/").at(-1) ?? "";
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber}:${columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self]
    .filter(([key]) => !key.startsWith("(idle)") && !key.startsWith("(program)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, ms]) => `${ms.toFixed(1)} ms ${key}`)
    .join("\n  ");
}
