/**
 * End-to-end harness: a real `switchboard serve` (the debug binary cargo
 * built) on free loopback ports with a fresh data directory, and Debian's
 * headless Chromium driven by playwright-core, logged in through the
 * contract's `/login?token=` link.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");
/** The switchboard binary under test (a session engine can run it, as Claude Code runs its hook). */
export const binary = process.env.SWITCHBOARD_BIN ?? join(repoRoot, "target/debug/switchboard");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface RunningServer {
  dataDir: string;
  /** A folder beside the data directory for the test's engines to read and write: the sandbox hides the data directory from them. */
  scratchDir: string;
  uiUrl: string;
  controlUrl: string;
  token: string;
  /** Calls the control API with the owner's cli token. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** More arguments for `switchboard serve` (`--demo`, …). */
  args?: string[];
  /**
   * Listen on ports picked here rather than port 0: a restart in place runs `serve` again with
   * the same arguments, and the page must find the new process where the old one was.
   */
  fixedPorts?: boolean;
}

/** A port free on loopback right now (the kernel's choice, released at once). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no free port");
  return address.port;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`cargo build -p switchboard\` first`);
  const dataDir = mkdtempSync(join(tmpdir(), "switchboard-e2e-"));
  const scratchDir = mkdtempSync(join(tmpdir(), "switchboard-e2e-scratch-"));
  const [controlPort, uiPort] = options.fixedPorts ? [await freePort(), await freePort()] : [0, 0];
  const child: ChildProcess = spawn(
    binary,
    [
      "serve",
      "--data-dir",
      dataDir,
      "--control-port",
      String(controlPort),
      "--ui-port",
      String(uiPort),
      ...(options.args ?? []),
    ],
    // The demo's git repositories and the demo engine's conversations go to the cache: the
    // test's own, not the user's.
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, XDG_CACHE_HOME: scratchDir } },
  );
  const serverFile = join(dataDir, "server.json");
  const deadline = Date.now() + 30_000;
  let info: { pid: number; uiUrl: string; controlUrl: string } | undefined;
  while (Date.now() < deadline) {
    if (existsSync(serverFile)) {
      try {
        const parsed = JSON.parse(readFileSync(serverFile, "utf8"));
        if (parsed.pid === child.pid) {
          info = parsed;
          break;
        }
      } catch {
        // Written atomically, but a stale file from nowhere is simply retried.
      }
    }
    if (child.exitCode !== null) throw new Error(`switchboard serve exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  if (!info) throw new Error("switchboard serve did not write server.json in time");
  const token = readFileSync(join(dataDir, "cli-token"), "utf8").trim();
  const controlUrl = info.controlUrl;
  return {
    dataDir,
    scratchDir,
    uiUrl: info.uiUrl,
    controlUrl,
    token,
    async api<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${controlUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(scratchDir, { recursive: true, force: true });
    },
  };
}

/** Sets one setting through the control API, as the CLI does; anything but 200 fails the test. */
export async function setSetting(server: RunningServer, key: string, value: unknown): Promise<void> {
  const reply = await server.api("PATCH", `/settings/${key}`, { value });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** A delivery to a new webhook as a service sends it (the setting `webhooksEnabled` must be on): a `webhook` row. */
export async function deliverWebhook(server: RunningServer, body: object): Promise<Response> {
  const hook = await server.api<{ url: string }>("POST", "/webhooks", { name: "CI" });
  if (hook.status !== 201) throw new Error(`POST /webhooks: ${hook.status}`);
  return fetch(hook.body.url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Creates one member per name through the control API; their ids, in order. */
export async function createMembers(server: RunningServer, names: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const reply = await server.api<{ id: string }>("POST", "/members", { name });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    ids.push(reply.body.id);
  }
  return ids;
}

/** Creates a board (`POST /boards`) and its items in one batch through the control API; its id. */
export async function createBoard(
  server: RunningServer,
  board: { workspaceId: string; name: string; columns: unknown[]; groups: unknown[] },
  items: readonly unknown[],
): Promise<string> {
  const created = await server.api<{ id: string }>("POST", "/boards", board);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (items.length > 0) {
    const batch = await server.api("POST", `/boards/${created.body.id}/items/batch`, { items });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
  }
  return created.body.id;
}

/** Reads `read` every 50 ms until `done` holds or `timeoutMs` passes; the last value read either way. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/** Polls `GET /sessions/<id>` until the session's status is `status`; throws after `timeoutMs`. */
export async function waitForStatus(
  server: RunningServer,
  id: string,
  status: string,
  { timeoutMs = 30_000, pollMs = 20 }: { timeoutMs?: number; pollMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await server.api<{ status: string }>("GET", `/sessions/${id}`)).body.status !== status) {
    if (Date.now() > deadline) throw new Error(`session ${id} never reached ${status}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Starts a session from `page` as the browser does (the user's own, through the UI server); its id. */
export async function startSessionInPage(
  page: Page,
  request: { engine: string; prompt: string; title: string },
): Promise<string> {
  return page.evaluate(async (body) => {
    const r = await fetch("/api/sessions", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return ((await r.json()) as { id: string }).id;
  }, request);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // More flags for a measurement (`CHROMIUM_ARGS="--js-flags=--trace-deopt"`), never in a test run.
      ...(process.env.CHROMIUM_ARGS?.split(" ").filter(Boolean) ?? []),
    ],
  });
}

export interface E2e {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * The one setup of an e2e file: a server and a browser started before its tests and stopped
 * after them. Read `server` and `browser` inside tests and hooks, once they are started.
 */
export function serverAndBrowser(options: ServerOptions = {}): E2e {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error("the server starts in beforeAll");
      return server;
    },
    get browser() {
      if (!browser) throw new Error("the browser starts in beforeAll");
      return browser;
    },
  };
}

/** Collects what `page` logs as an error from now on: console errors and uncaught exceptions. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** A fresh browser context logged in as the owner, on `next`. */
export async function loggedInPage(
  { browser, server }: E2e,
  next = "/",
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.uiUrl}/login?token=${encodeURIComponent(server.token)}&next=${encodeURIComponent(next)}`);
  return { context, page };
}

/**
 * Waits until every one of the page's `count` widgets is drawn for its current filter result
 * (`data-drawn` equal to the root's `data-filter-key`) and no connected board is still loading;
 * returns the page's `performance.now()` when the last of them drew (`data-drawn-at`). Polling
 * at every frame makes the page produce frames it would not otherwise; a bench polls by the
 * clock instead. Published pages carry no `data-boards-settled`: they have nothing left to load.
 */
export async function widgetsDrawn(
  page: Page,
  count: number,
  options: { timeout?: number; polling?: "raf" | number } = {},
): Promise<number> {
  const handle = await page.waitForFunction(
    (n) => {
      const root = document.querySelector("[data-filter-key]");
      const widgets = document.querySelectorAll("[data-widget-id]");
      if (!root || widgets.length !== n || root.getAttribute("data-boards-settled") === "false") return false;
      const key = root.getAttribute("data-filter-key");
      const bodies = [...widgets].map((w) => w.querySelector<HTMLElement>(".dash-widget-body"));
      if (!bodies.every((body) => body?.dataset.drawn === key)) return false;
      // When the last widget drew, by the page's clock: exact however seldom this is polled.
      return Math.max(...bodies.map((body) => Number(body?.dataset.drawnAt)));
    },
    count,
    { timeout: options.timeout ?? 30_000, polling: options.polling ?? "raf" },
  );
  return (await handle.jsonValue()) as number;
}
