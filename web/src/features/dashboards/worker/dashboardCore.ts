/**
 * The dashboard worker's message handling, free of any Worker API so Vitest drives it directly:
 * it loads the connected boards (fetch, JSON parse, ETag revalidation), prepares them, applies
 * the filters and computes the widgets, and answers with what the page draws: board states,
 * per-board column lists and widget results. The full reads never leave the worker, so parsing
 * 100,000 items and every recomputation stay off the page's main thread.
 */
import { ApiError } from "../../../shared/api/client";
import { errorMessage } from "../../../shared/api/errorMessage";
import { type Dashboard, type Versioned, getDashboard } from "../api";
import { effectiveFilters } from "../filterEdit";
import { type BoardFetcher, type BoardLoad, loadBoards, loadedBoards, readTogether } from "../boardLoader";
import { applyFilters } from "../engine/applyFilters";
import { type WidgetResult, computeWidget, deriveForView, itemFieldsFor } from "../engine/computeWidget";
import { prepareBoards } from "../engine/prepareBoards";
import type {
  Board,
  BoardRead,
  DashboardFilters,
  FilteredData,
  FilterReport,
  ReadField,
  WidgetConfig,
} from "../engine/types";
import { type ComputedWidget, FilterCache } from "./filterCache";

/** What the settings panel and the toolbar need of a loaded board: never its items. */
export interface BoardMeta {
  board: Pick<Board, "id" | "name" | "columns">;
}

/** A board's load state as the page shows it (a loaded board's data stays in the worker). */
export type BoardStatus =
  | { id: string; state: "loading"; slow: boolean }
  | { id: string; state: "loaded" }
  | { id: string; state: "missing" }
  | { id: string; state: "error"; message: string };

export type WorkerRequest =
  /**
   * Given by the worker's name as it starts (`workerName.ts`): read the dashboard and start
   * reading its boards. The dashboard read itself is posted at once, for the starter to keep
   * (the page needs its name, config and ETag: one read serves both); every other reply waits
   * until the page's first request, so none is lost.
   */
  | { type: "open"; dashboardId: string }
  /** Read these boards; `revalidate` reads the ones already loaded again (with their ETag). */
  | { type: "load"; ids: string[]; revalidate: boolean }
  /** The filters and widgets to compute; send only when one of them changed (not on a move). */
  | {
      type: "view";
      filters: DashboardFilters | null;
      widgets: WidgetConfig[];
      /** The page's name for this view, which results computed for it carry back (`viewKey`). */
      key?: string;
      /**
       * The page already shows results it kept for this view: those of `dataKey`, shown when it
       * had had `seen` results messages from here. If none was sent since and this filter's
       * results are still `dataKey`'s, only a note that the page holds them (`kept`) is sent.
       */
      shown?: { dataKey: number; seen: number };
    };

export interface ResultsUpdate {
  /**
   * Changes with every new filter result (a filter come back to over the same boards may give
   * its earlier one back); widgets mark themselves drawn with it.
   */
  dataKey: number;
  /** The view these results are of, as the page named it; none for the saved view `open` read. */
  viewKey?: string;
  /** Changes whenever the loaded boards do: results of another number are of other data. */
  boardsVersion: number;
  /**
   * The page holds these results already: those it kept for `viewKey` under `dataKey` and showed
   * (see `shown`). Later updates build on them; this one carries no results of its own.
   */
  kept?: true;
  report: FilterReport;
  /**
   * Results computed in this pass, by widget id: with `unchanged`, every widget when `dataKey`
   * changed, else only the widgets whose type or settings changed (the page keeps the others as
   * they are).
   */
  results: Record<string, WidgetResult>;
  /**
   * Widgets of this pass whose result is the very one last sent (the same figures under a new
   * filter, say): the page keeps its copy and its drawing, and only marks them with `dataKey`.
   */
  unchanged: string[];
}

/** The dashboard as `open` read it, or why it could not. */
export type DashboardRead =
  | { ok: true; dashboard: Dashboard; etag: string | null }
  | { ok: false; status: number; code: string; message: string };

/** How many of the connected boards have answered (read, missing or failed), of how many. */
export interface BoardProgress {
  settled: number;
  total: number;
}

/**
 * Held replies as the page needs them: a board state or count that a later board state replaces
 * is news to nobody, and each reply is a render of the page. A load that settled before the
 * page first asked then arrives as one render of its boards and results, not a frame of every
 * board "loading" drawn just before it. Results are never dropped: each says what the next
 * leaves unchanged.
 */
export function withoutSuperseded(replies: readonly WorkerReply[]): WorkerReply[] {
  const lastBoards = replies.findLastIndex((reply) => reply.boards !== undefined);
  return replies.filter((reply, i) => i >= lastBoards || reply.results !== undefined);
}

export interface WorkerReply {
  /** What `open` read of the dashboard, posted once as soon as the read settles. */
  dashboard?: DashboardRead;
  /**
   * Every connected board's state, with the column lists of the loaded ones: when a load starts
   * and when it settles, when a board turns slow, missing or failed, and with results over the
   * boards so far. Each one renders the page, so boards that merely arrive send `progress`.
   */
  boards?: { loads: BoardStatus[]; metas: BoardMeta[] };
  /** While boards arrive: the count the page's progress bar shows, and nothing else renders. */
  progress?: BoardProgress;
  results?: ResultsUpdate;
}

export interface CoreOptions {
  post: (reply: WorkerReply) => void;
  fetchBoard?: BoardFetcher;
  /** A dashboard with its ETag, for `open`. */
  fetchDashboard?: (dashboardId: string) => Promise<Versioned<Dashboard>>;
  flushMs?: number;
  slowAfterMs?: number;
  /**
   * While boards are still arriving, widgets are recomputed over the boards loaded so far once
   * the load has run this long, then at most this often: each pass delays parsing the next
   * replies, which share this thread, and a load that ends sooner would compute twice.
   */
  partialEveryMs?: number;
}

/** What a widget's result is computed from: its type and settings. */
function widgetKey(widget: WidgetConfig): string {
  return `${widget.type}\n${JSON.stringify(widget.settings ?? null)}`;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function dashboardRead(read: Promise<Versioned<Dashboard>>): Promise<DashboardRead> {
  return read.then(
    ({ data, etag }): DashboardRead => ({ ok: true, dashboard: data, etag }),
    (error: unknown): DashboardRead =>
      error instanceof ApiError
        ? { ok: false, status: error.status, code: error.code, message: error.message }
        : { ok: false, status: 0, code: "network_error", message: errorMessage(error) },
  );
}

function status(load: BoardLoad): BoardStatus {
  return load.state === "loaded" ? { id: load.id, state: "loaded" } : load;
}

function meta({ board }: BoardRead): BoardMeta {
  return {
    board: { id: board.id, name: board.name, columns: Array.isArray(board.columns) ? board.columns : [] },
  };
}

/** Returns the handler of the page's messages; every answer goes through `post`. */
export function createDashboardCore(options: CoreOptions): (request: WorkerRequest) => void {
  let loads: BoardLoad[] = [];
  let cancel: (() => void) | null = null;
  let view: {
    filters: DashboardFilters | null;
    filtersKey: string;
    widgets: WidgetConfig[];
    key: string | undefined;
  } | null = null;
  let boards: BoardRead[] = [];
  let boardsVersion = 0;
  /** The last data key given out, and how many results messages were posted. */
  let lastKey = 0;
  let sentCount = 0;
  let data: { boards: BoardRead[]; filtersKey: string; filtered: FilteredData; key: number } | null = null;
  let computed: ReadonlyMap<string, ComputedWidget> = new Map();
  /**
   * Each widget as last sent: what the page holds, so a result equal to it goes as `unchanged`
   * and the page redraws nothing for it. A result's JSON is made once and kept with it (here and
   * in the filter cache), so a filter come back to is not serialised again.
   */
  let sent = new Map<string, ComputedWidget>();
  const filterCache = new FilterCache<BoardRead[]>();
  const jsonOf = (widget: ComputedWidget) => (widget.json ??= JSON.stringify(widget.result));
  /** Boards changed since the last results were sent. */
  let stale = false;
  /** When results over the boards so far were last sent, or the load began. */
  let partialAt = 0;
  const partialEveryMs = options.partialEveryMs ?? 1000;
  /** Pending while, and only while, a view waits for the load's first partial results (`awaitPartial`). */
  let partialTimer: ReturnType<typeof setTimeout> | null = null;
  const stopAwaitingPartial = () => {
    if (partialTimer === null) return;
    clearTimeout(partialTimer);
    partialTimer = null;
  };
  // The boards a load asks for at once come in one reply.
  const fetchBoard = options.fetchBoard ?? readTogether();
  const fetchDashboard = options.fetchDashboard ?? getDashboard;
  // Until the page's first request it may not be listening yet: replies wait here.
  let held: WorkerReply[] | null = [];
  const post = (reply: WorkerReply) => (held ? held.push(reply) : options.post(reply));
  let loadingIds: string[] | null = null;
  /**
   * The item fields the boards are read with: only what the widgets read (`itemFieldsFor`),
   * chosen from the saved widgets when `open` starts the reads. A widget that needs more (a
   * table, added later) has every board read again with all of them; one that needs less
   * keeps what was read.
   */
  let readFields: readonly ReadField[] | undefined;
  const fetchAndDerive: BoardFetcher = async (id, signal, fields) => {
    const read = await fetchBoard(id, signal, fields);
    const [prepared] = prepareBoards([read]);
    try {
      if (view && prepared) deriveForView(prepared, view.filters, view.widgets);
    } catch {
      // Only a head start: the pass over all boards computes the same and reports what fails,
      // while the board itself did load.
    }
    return read;
  };

  const results = (shown?: { dataKey: number; seen: number }): ResultsUpdate | undefined => {
    if (!view) return undefined;
    const widgetKeys = new Map(view.widgets.map((w) => [w.id, widgetKey(w)]));
    let fresh = false;
    if (!data || data.boards !== boards || data.filtersKey !== view.filtersKey) {
      // A filter seen before over the same boards: its rows and widget results are reused.
      const seen = filterCache.get(boards, view.filtersKey);
      if (
        seen &&
        shown?.dataKey === seen.key &&
        shown.seen === sentCount &&
        [...widgetKeys].every(([id, key]) => seen.computed.get(id)?.key === key)
      ) {
        // The page shows these very results, kept from when they were sent, and has had every
        // message since: they are what it holds now.
        data = { boards, filtersKey: view.filtersKey, filtered: seen.filtered, key: seen.key };
        computed = seen.computed;
        sent = new Map([...widgetKeys.keys()].map((id) => [id, seen.computed.get(id) as ComputedWidget]));
        sentCount++;
        return {
          dataKey: seen.key,
          ...(view.key === undefined ? {} : { viewKey: view.key }),
          boardsVersion,
          report: seen.filtered.report,
          results: {},
          unchanged: [],
          kept: true,
        };
      }
      const filtered = seen?.filtered ?? applyFilters(prepareBoards(boards), view.filters);
      data = { boards, filtersKey: view.filtersKey, filtered, key: ++lastKey };
      computed = seen?.computed ?? new Map();
      fresh = true;
    }
    const out: Record<string, WidgetResult> = {};
    const unchanged: string[] = [];
    const next = new Map<string, ComputedWidget>();
    // New data replaces the page's results whole: it then holds only what this pass lists.
    const nextSent = new Map<string, ComputedWidget>();
    const send = (id: string, widget: ComputedWidget) => {
      nextSent.set(id, widget);
      const before = sent.get(id);
      // Only new data can make a result "unchanged": the same data keeps the page's results.
      if (fresh && before !== undefined && (before === widget || jsonOf(before) === jsonOf(widget))) {
        unchanged.push(id);
      } else {
        out[id] = widget.result;
      }
    };
    for (const widget of view.widgets) {
      const key = widgetKeys.get(widget.id) as string;
      const hit = computed.get(widget.id);
      if (hit && hit.key === key) {
        next.set(widget.id, hit);
        // New data (a filter come back to) sends every widget under its new key; the same data
        // keeps what the page holds.
        if (fresh) send(widget.id, hit);
        else nextSent.set(widget.id, sent.get(widget.id) ?? hit);
        continue;
      }
      const computedNow = { key, result: computeWidget(data.filtered, widget) };
      next.set(widget.id, computedNow);
      send(widget.id, computedNow);
    }
    computed = next;
    sent = nextSent;
    filterCache.set(boards, data.filtersKey, { filtered: data.filtered, computed, key: data.key });
    // The same data keeps every result the page holds: only new ones are news.
    if (!fresh && Object.keys(out).length === 0) return undefined;
    sentCount++;
    return {
      dataKey: data.key,
      ...(view.key === undefined ? {} : { viewKey: view.key }),
      boardsVersion,
      report: data.filtered.report,
      results: out,
      unchanged,
    };
  };

  /** What of the board states the page shows beyond a count: sent again only when it changes. */
  let shownStates: string | null = null;
  const onLoads = (next: BoardLoad[]) => {
    loads = next;
    const loaded = loadedBoards(next);
    if (loaded.length !== boards.length || loaded.some((b, i) => b !== boards[i])) {
      boards = loaded;
      boardsVersion++;
      stale = true;
    }
    const settledCount = next.filter((l) => l.state !== "loading").length;
    const settled = settledCount === next.length;
    let update: ResultsUpdate | undefined;
    if (stale && (settled || Date.now() - partialAt >= partialEveryMs)) {
      if (!settled) partialAt = Date.now();
      stale = false;
      stopAwaitingPartial();
      update = results();
    }
    const statuses = next.map(status);
    // A board that merely arrived changes nothing here but the count.
    const states = JSON.stringify(
      statuses.map((l) => (l.state === "loaded" || (l.state === "loading" && !l.slow) ? l.id : l)),
    );
    if (settled || update || states !== shownStates) {
      shownStates = settled ? null : states;
      post({
        boards: { loads: statuses, metas: loaded.map(meta) },
        ...(update ? { results: update } : {}),
      });
    } else {
      post({ progress: { settled: settledCount, total: next.length } });
    }
  };

  const setView = (filters: DashboardFilters | null, widgets: WidgetConfig[], key?: string) => {
    view = { filters, filtersKey: JSON.stringify(filters ?? null), widgets, key };
  };

  /**
   * Has `onLoads` send what a view waits for at the load's first partial results, should no board
   * come by then.
   */
  const awaitPartial = () => {
    stopAwaitingPartial();
    partialTimer = setTimeout(
      () => {
        partialTimer = null;
        if (stale) onLoads(loads);
      },
      partialAt + partialEveryMs - Date.now(),
    );
  };

  const load = (ids: string[], revalidate: boolean) => {
    // The page asks for the boards `open` is already reading: those reads go on.
    if (!revalidate && loadingIds && sameIds(loadingIds, ids)) return;
    loadingIds = ids;
    partialAt = Date.now();
    cancel?.();
    const fields = readFields;
    cancel = loadBoards(ids, {
      onChange: onLoads,
      previous: loads,
      revalidate,
      fetchBoard: (id, signal) => fetchAndDerive(id, signal, fields),
      flushMs: options.flushMs,
      slowAfterMs: options.slowAfterMs,
    });
    // A view waiting on the load this one replaces waits on this one's clock.
    if (partialTimer !== null) awaitPartial();
  };

  return (request) => {
    if (request.type === "open") {
      void dashboardRead(fetchDashboard(request.dashboardId)).then((read) => {
        // Straight to the starter, which listens from the start: were it held with the rest,
        // the page would wait for its first request's answer, and so for whatever this thread
        // is busy with, before it could even render the dashboard.
        options.post({ dashboard: read });
        // A failed read is the page's to show; it asks for no boards then.
        if (!read.ok) return;
        const { config } = read.dashboard;
        // The saved filters and widgets are what the page will ask for first: with them each
        // board's columns are read as it arrives, even before the page has said so.
        if (!view) setView(effectiveFilters(config.filters), config.widgets);
        if (loadingIds === null) {
          readFields = itemFieldsFor(config.widgets);
          load(config.boardIds, false);
        }
      });
      return;
    }
    if (held) {
      const replies = withoutSuperseded(held);
      held = null;
      for (const reply of replies) options.post(reply);
    }
    if (request.type === "load") {
      load(request.ids, request.revalidate);
      return;
    }
    setView(request.filters, request.widgets, request.key);
    if (readFields !== undefined && itemFieldsFor(request.widgets) === undefined && loadingIds !== null) {
      // The boards were read without what a widget now shows: read with every field, the
      // results come once they are in (none now, of boards that lack it).
      readFields = undefined;
      load(loadingIds, true);
      stale = true;
      return;
    }
    if (loads.some((l) => l.state === "loading") && partialAt + partialEveryMs > Date.now()) {
      // Its boards are still coming in, and not for long: the results go out with them, as
      // `onLoads` sends them, not now over the few (or none) in so far, for the page to draw
      // them and then everything again a moment later.
      stale = true;
      awaitPartial();
      return;
    }
    stale = false;
    stopAwaitingPartial();
    const update = results(request.shown);
    if (update) post({ results: update });
  };
}
