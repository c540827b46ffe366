/**
 * A 50 MB transcript, figures of issues 11 and 29, printed and never asserted: the time from
 * navigation start on `/sessions/<id>` until the transcript's last line is on screen, then each
 * frame's length while scrolling up 600 px a frame (earlier pages load as it goes). Two shapes:
 * a `command` engine that writes 50 MB of short lines at full speed (few, large entries), and a
 * Claude-shaped engine (a script speaking stream-json) whose 50 MB is tens of thousands of small
 * entries: text, tool calls and their results, as a long agent run leaves them.
 * The server is the debug binary unless SWITCHBOARD_BIN names another (`make bench` passes the
 * release one). A measurement, not a test: `npm run bench:sessions` runs it, `npm run e2e` does not.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "vitest";
import { figure, SERVER } from "./figures";
import { loggedInPage, serverAndBrowser, startSessionInPage, waitForStatus } from "./harness";

const MB = 1024 * 1024;
const SIZE = 50 * MB;
const LOADS = 5;
const LAST_LINE = "END-OF-TRANSCRIPT";

const e2e = serverAndBrowser();

/** Writes 50 MB of 100-byte lines in 1 MiB writes, then the last line. */
const LINES_SCRIPT = `
const line = "x".repeat(99) + "\\n";
const chunk = line.repeat(Math.floor(${MB} / line.length));
let left = ${SIZE};
function write() {
  while (left > 0) {
    left -= chunk.length;
    if (!process.stdout.write(chunk)) return process.stdout.once("drain", write);
  }
  process.stdout.write("${LAST_LINE}\\n");
}
process.stdin.resume();
process.stdin.on("end", write);
`;

/**
 * Speaks Claude Code's stream-json: rounds of text, a tool call and its result, then a result.
 * Each round searches for something else, as a working agent does: the same call over and over is
 * what the loop breaker stops.
 */
const CLAUDE_SCRIPT = `
const out = [];
let size = 0;
const emit = (value) => { const line = JSON.stringify(value) + "\\n"; size += line.length; out.push(line); };
emit({ type: "system", subtype: "init", session_id: "bench" });
const prose = "Reading the module and planning the change. ".repeat(8);
const listing = ("src/lib.rs:42: fn parse(input: &str) -> Result<Ast>\\n").repeat(20);
for (let i = 0; size < ${SIZE}; i++) {
  emit({ type: "assistant", message: { content: [{ type: "text", text: "Step " + i + ": " + prose }] } });
  emit({ type: "assistant", message: { content: [{ type: "tool_use", id: "t" + i, name: "Grep", input: { pattern: "parse_" + i } }] } });
  emit({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t" + i, content: "match " + i + "\\n" + listing }] } });
}
emit({ type: "assistant", message: { content: [{ type: "text", text: "${LAST_LINE}" }] } });
emit({ type: "result", subtype: "success", is_error: false, result: "${LAST_LINE}", session_id: "bench", total_cost_usd: 1 });
const all = out.join("");
let at = 0;
function write() {
  while (at < all.length) {
    const piece = all.slice(at, at + ${MB});
    at += piece.length;
    if (!process.stdout.write(piece)) return process.stdout.once("drain", write);
  }
}
write();
`;

/**
 * Runs in the page: scrolls the transcript up by `step` pixels a frame for `frames` frames (from
 * its end), loading earlier pages as a reader would, and gives each frame's length.
 */
function scrollFrames({ frames, step }: { frames: number; step: number }): Promise<number[]> {
  const log = document.querySelector('[role="log"]');
  if (!log) return Promise.resolve([]);
  return new Promise((resolve) => {
    const lengths: number[] = [];
    let last = performance.now();
    const frame = (now: number) => {
      lengths.push(now - last);
      last = now;
      log.scrollTop = Math.max(0, log.scrollTop - step);
      if (lengths.length < frames) requestAnimationFrame(frame);
      else resolve(lengths.slice(1));
    };
    requestAnimationFrame(frame);
  });
}

test("a 50 MB transcript: first screen in under 1 s, and its scroll frames", async () => {
  const scripts = e2e.server.scratchDir;
  writeFileSync(join(scripts, "lines.js"), LINES_SCRIPT);
  writeFileSync(join(scripts, "claude.js"), CLAUDE_SCRIPT);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.lines]\nkind = "command"\ncommand = ["node", ${JSON.stringify(join(scripts, "lines.js"))}]\n\n` +
      `[engines.agent]\nkind = "claude"\ncommand = ["node", ${JSON.stringify(join(scripts, "claude.js"))}]\n`,
  );
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();

  for (const engine of ["lines", "agent"]) {
    // The user's own session, started through the UI server as the browser does.
    const id = await startSessionInPage(page, { engine, prompt: "write a lot", title: `50 MB from ${engine}` });
    await waitForStatus(e2e.server, id, "waiting_for_input", { timeoutMs: 300_000, pollMs: 100 });
    const entries = await e2e.server.api<{ entries: { seq: number }[] }>(
      "GET",
      `/sessions/${id}/transcript?format=json&tail=true&limit=1`,
    );
    const shown: number[] = [];
    for (let run = 0; run < LOADS; run++) {
      await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
      const at = await page.waitForFunction(
        (last) => {
          const log = document.querySelector('[role="log"]');
          return log?.textContent?.includes(last) ? performance.now() : false;
        },
        LAST_LINE,
        { timeout: 60_000, polling: "raf" },
      );
      shown.push((await at.jsonValue()) as number);
    }
    console.log(
      `50 MB transcript from the ${engine} engine (last seq ${entries.body.entries[0]?.seq}), ${SERVER}: ` +
        `last line on screen ${figure(shown)}`,
    );
    // Scrolling up from the end, 600 px a frame: how long each frame took (16.7 ms is 60 fps).
    const frames = await page.evaluate(scrollFrames, { frames: 240, step: 600 });
    console.log(`  scrolling up, frame length: ${figure(frames)}`);
  }
  await context.close();
});
