/**
 * Sessions at scale, two figures of issue 11, printed and never asserted:
 * (a) the agent board with 200 sessions (some of them children of others): the time from
 *     navigation start until its 200 rows are in the DOM, over several loads;
 * (b) from a `command` engine writing a line to that line in Chromium's DOM: the engine prints
 *     its wall clock (`date +%s%N`) every 200 ms; the page notes the wall clock at the next
 *     animation frame (the frame that paints it) after the line's row appears on the session
 *     page (`/sessions/<id>`); then the same with a bare `/api/stream` listener writing into the
 *     DOM, which leaves the page's rendering out. Both clocks are this machine's. The server
 *     flushes a line that follows a quiet spell at once and batches only output closer than 50 ms
 *     to the last flush (the sessions crate's adaptive flush), so a ticker's lines go at once.
 *     Beside each, the server's CPU time per line over the ticker's run (user + system, from
 *     /proc, in 10 ms ticks), so a faster line is not bought with more CPU.
 * The server is the debug binary unless SWITCHBOARD_BIN names another (`make bench` passes the
 * release one). A measurement, not a test: `npm run bench:sessions` runs it, `npm run e2e` does not.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { figure, SERVER } from "./figures";
import { loggedInPage, serverAndBrowser, setSetting, startSessionInPage, waitForStatus } from "./harness";

const SESSIONS = 200;
const CHILDREN = 20;
const LOADS = 9;
const LINES = 60;

const e2e = serverAndBrowser();

test("the board with 200 sessions: drawn in under 300 ms; an engine's line on screen: p95 under 150 ms", async () => {
  const dir = e2e.server.dataDir;
  const ticker = `cat >/dev/null; sleep 3; i=0; while [ $i -lt ${LINES} ]; do date +%s%N; sleep 0.2; i=$((i+1)); done`;
  writeFileSync(
    join(dir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n\n` +
      `[engines.ticker]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(ticker)}]\n`,
  );
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();

  // The user's own sessions, through the UI server as the browser starts them: no agent-driven
  // concurrency limit applies to them.
  const roots = await page.evaluate(async (count) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 20) {
      const batch = Array.from({ length: Math.min(20, count - i) }, (_, k) =>
        fetch("/api/sessions", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ engine: "echo", prompt: `job ${i + k}`, title: `Job ${i + k}` }),
        }).then((r) => r.json() as Promise<{ id: string }>),
      );
      ids.push(...(await Promise.all(batch)).map((s) => s.id));
    }
    return ids;
  }, SESSIONS - CHILDREN);
  // Children through the control API naming a parent; each is stopped once it answered, so the
  // agent-driven concurrency limit never refuses the next.
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 10);
  for (let i = 0; i < CHILDREN; i++) {
    const parent = roots[i % 5] as string;
    await waitForStatus(e2e.server, parent, "waiting_for_input");
    const response = await fetch(`${e2e.server.controlUrl}/sessions`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${e2e.server.token}`,
        "Content-Type": "application/json",
        "X-App-Source-Session-Id": parent,
      },
      body: JSON.stringify({ engine: "echo", prompt: `helper ${i}`, title: `Helper ${i}` }),
    });
    const child = (await response.json()) as { id: string };
    expect(response.status).toBe(201);
    await waitForStatus(e2e.server, child.id, "waiting_for_input");
    expect((await e2e.server.api("POST", `/sessions/${child.id}/stop`)).status).toBe(202);
  }
  const listed = await e2e.server.api<{ status: string; parentId: string | null }[]>("GET", "/sessions");
  expect(listed.body).toHaveLength(SESSIONS);
  expect(listed.body.filter((s) => s.parentId !== null)).toHaveLength(CHILDREN);

  const drawn: number[] = [];
  // The share after `GET /sessions` answered: the page's own work, apart from loading and the read.
  const afterRead: number[] = [];
  for (let run = 0; run < LOADS; run++) {
    await page.goto(`${e2e.server.uiUrl}/sessions`);
    const at = await page.waitForFunction(
      // The board draws only the lines in view; `data-sessions` counts all of them.
      (n) => {
        const board = document.querySelector("table[data-sessions]");
        const all = Number(board?.getAttribute("data-sessions") ?? 0) >= n;
        return all && board?.querySelector("tr[data-session-id]") ? performance.now() : false;
      },
      SESSIONS,
      { timeout: 30_000, polling: "raf" },
    );
    const rowsAt = (await at.jsonValue()) as number;
    const readAt = await page.evaluate(
      () =>
        performance
          .getEntriesByType("resource")
          .find((e) => new URL(e.name).pathname === "/api/sessions")
          ?.toJSON() as { responseEnd: number } | undefined,
    );
    drawn.push(rowsAt);
    if (readAt) afterRead.push(rowsAt - readAt.responseEnd);
  }
  console.log(`board with ${SESSIONS} sessions (${CHILDREN} children), ${SERVER}: rows in the DOM ${figure(drawn)}`);
  console.log(`  of which after GET /sessions answered: ${figure(afterRead)}`);

  // On the session page: the ticker waits before its first line, so the page is open and
  // watching by then; each stamp counts once, when its row is first drawn.
  const pageCpu = serverCpuMs(dir);
  const onPage = await startSessionInPage(page, { engine: "ticker", prompt: "tick", title: "Ticker on the page" });
  await page.goto(`${e2e.server.uiUrl}/sessions/${onPage}`);
  await page.locator('[role="log"][aria-busy="false"]').waitFor();
  await page.evaluate(watchLines, "page" as const);
  await page.waitForFunction((n) => (window as unknown as Watched).lineLatencies.length >= n, LINES - 5, {
    timeout: 60_000,
  });
  const pageLatencies = await page.evaluate(() => (window as unknown as Watched).lineLatencies);
  console.log(`engine line on the session page, ${SERVER}: ${figure(pageLatencies)}`);
  console.log(`  server CPU: ${perLine(serverCpuMs(dir) - pageCpu, pageLatencies.length)}`);

  // The same without the page's rendering: a bare listener on /api/stream writing into the DOM,
  // once the first ticker is done, so only the second one's lines reach it.
  await waitForStatus(e2e.server, onPage, "waiting_for_input");
  const bareCpu = serverCpuMs(dir);
  const bare = await startSessionInPage(page, { engine: "ticker", prompt: "tick", title: "Ticker, bare" });
  await page.evaluate(watchLines, "stream" as const);
  await waitForStatus(e2e.server, bare, "waiting_for_input");
  const streamLatencies = await page.evaluate(() => (window as unknown as Watched).lineLatencies);
  console.log(`  the stream alone (a bare listener writing into the DOM): ${figure(streamLatencies)}`);
  console.log(`  server CPU: ${perLine(serverCpuMs(dir) - bareCpu, streamLatencies.length)}`);
  await context.close();
});

/** The server's CPU time so far (user + system over all its threads), in ms, from /proc. */
function serverCpuMs(dataDir: string): number {
  const { pid } = JSON.parse(readFileSync(join(dataDir, "server.json"), "utf8")) as { pid: number };
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the command's name: utime and stime are the 12th and 13th fields, in 10 ms ticks.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const perLine = (cpuMs: number, lines: number) =>
  `${(cpuMs / Math.max(1, lines)).toFixed(2)} ms a line (${cpuMs} ms over ${lines} lines)`;

interface Watched {
  lineLatencies: number[];
}

/**
 * Runs in the page: notes, for each engine stamp (`date +%s%N`) newly in the DOM, the wall
 * clock at the next animation frame (the frame that paints it) minus the stamp. `page` watches
 * the session page's rows; `stream` listens on /api/stream itself and writes each line into the
 * DOM, which leaves the page's own rendering out.
 */
function watchLines(mode: "page" | "stream"): void {
  const latencies: number[] = [];
  const seen = new Set<string>();
  Object.assign(window, { lineLatencies: latencies });
  const note = (text: string) => {
    const stamps = text.split("\n").filter((line) => /^\d{19}$/.test(line) && !seen.has(line));
    if (stamps.length === 0) return;
    stamps.forEach((stamp) => seen.add(stamp));
    requestAnimationFrame(() => {
      const now = performance.timeOrigin + performance.now();
      for (const stamp of stamps) latencies.push(now - Number(BigInt(stamp) / 1000n) / 1000);
    });
  };
  if (mode === "page") {
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof Element) node.querySelectorAll(".entry-stdout").forEach((e) => note(e.textContent ?? ""));
          if (node instanceof Element && node.matches(".entry-stdout")) note(node.textContent ?? "");
        }
        if (record.type === "characterData") note(record.target.textContent ?? "");
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
    return;
  }
  const log = document.createElement("pre");
  document.body.append(log);
  new EventSource("/api/stream", { withCredentials: true }).addEventListener(
    "output",
    (event: MessageEvent<string>) => {
      const data = JSON.parse(event.data) as { entry: { kind: string; text?: string } };
      if (data.entry.kind !== "stdout" || !data.entry.text) return;
      log.append(document.createTextNode(data.entry.text));
      note(data.entry.text);
    },
  );
}
