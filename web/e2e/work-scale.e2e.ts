/**
 * "Where's my work" at scale, printed and never asserted: 500 pieces of work across 20
 * repositories, each a worktree session of a `command` engine that committed once and was then
 * stopped, so every piece is stranded (1 commit on no remote).
 * (a) the server: `GET /work` the first time after the sessions stopped (git asked for every
 *     piece's facts again; past 30 s the server answers 408 while the read goes on), then more
 *     reads of the cached facts (the scanner's fingerprint of refs and indexes unchanged, so no git);
 * (b) the page: from navigation start to `/work` until its 500 cards are in the DOM, over
 *     several loads, and the share after `GET /api/work` answered (the page's own drawing);
 * (c) the server's CPU while idle for 30 s with no page open, then with the page open on `/work`:
 *     the background pollers are the stranded-work look (every 10 min) and the code-host poll
 *     (every 2 min, asking nothing here: no code host is configured);
 * (d) the server again: `GET /work` once the cached facts are older than the index's recheck age
 *     (5 min), with nothing changed in any repository.
 * The server is the debug binary unless SWITCHBOARD_BIN names another (`make bench` passes the
 * release one). A measurement, not a test: `npm run bench:work` runs it, `npm run e2e` does not.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { figure, SERVER } from "./figures";
import { binary, loggedInPage, serverAndBrowser } from "./harness";

const REPOSITORIES = 20;
const PER_REPOSITORY = 25;
const PIECES = REPOSITORIES * PER_REPOSITORY;
const BATCH = 20;
const READS = 20;
const LOADS = 7;
const IDLE_MS = 30_000;
/** The work index's `RECHECK_AFTER` (crates/work/src/index.rs). */
const RECHECK_AFTER_MS = 300_000;
/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`, 100 on Linux). */
const TICKS_PER_SECOND = 100;

const COMMIT =
  `[ "$0" = --version ] && exit 0; cat >/dev/null; echo "$$" > "agent-$$.txt"; git add . && ` +
  `git -c user.name=Agent -c user.email=agent@example.com commit -qm 'agent work' && echo committed`;

const e2e = serverAndBrowser();
const reposDir = mkdtempSync(join(tmpdir(), "switchboard-e2e-work-scale-"));
afterAll(() => rmSync(reposDir, { recursive: true, force: true }));

/** Twenty repositories on `main` with one commit each, with no global git configuration. */
function repositories(): string[] {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  return Array.from({ length: REPOSITORIES }, (_, i) => {
    const repo = join(reposDir, `repo-${String(i).padStart(2, "0")}`);
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...args], {
        cwd: repo,
        env,
      });
    git("init", "--quiet", "--initial-branch=main");
    writeFileSync(join(repo, "README.md"), `# Repository ${i}\n`);
    git("add", ".");
    git("commit", "--quiet", "-m", "first");
    return repo;
  });
}

interface Listed {
  id: string;
  status: string;
}

/** Polls `GET /sessions` until every one of `ids` is `status`; a failed one throws at once. */
async function allReach(ids: readonly string[], status: string, timeoutMs: number): Promise<void> {
  const wanted = new Set(ids);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const listed = (await e2e.server.api<Listed[]>("GET", "/sessions")).body.filter((s) => wanted.has(s.id));
    const failed = listed.find((s) => s.status === "failed");
    if (failed) throw new Error(`session ${failed.id} failed`);
    const done = listed.filter((s) => s.status === status).length;
    if (done === wanted.size) return;
    if (Date.now() > deadline) throw new Error(`${done} of ${wanted.size} sessions reached ${status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The server's pid, from the `server.json` it writes in its data directory. */
function serverPid(): number {
  return (JSON.parse(readFileSync(join(e2e.server.dataDir, "server.json"), "utf8")) as { pid: number }).pid;
}

/** Whether `pid` has a child process now (git, while the server reads the facts). */
function hasChildren(pid: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) return true;
    } catch {
      // Gone between the listing and the read.
    }
  }
  return false;
}

/**
 * One `GET /work` that may have to ask git about every piece. The server answers 408 after 30 s
 * while its read goes on and fills the cache: then the read's length is until the server's last
 * git child, seen every 50 ms (done when none is seen for 3 s).
 */
async function coldRead(pid: number): Promise<{ at: number; text: string }> {
  const at = Date.now();
  const start = performance.now();
  const reply = await e2e.server.api("GET", "/work");
  const answered = performance.now() - start;
  if (reply.status === 200) return { at, text: `${answered.toFixed(1)} ms` };
  let lastChild = performance.now();
  while (performance.now() - lastChild < 3_000) {
    if (hasChildren(pid)) lastChild = performance.now();
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    at,
    text: `answered ${reply.status} after ${answered.toFixed(0)} ms; its git went on until ${(lastChild - start).toFixed(0)} ms`,
  };
}

/** The server process's CPU time in ms so far: its own threads, and its waited-for children (git). */
function cpuMs(pid: number): { own: number; children: number } {
  // The fields after the command's closing parenthesis: utime, stime, cutime, cstime are 14-17.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const tick = (n: number) => (Number(fields[n - 3]) * 1000) / TICKS_PER_SECOND;
  return { own: tick(14) + tick(15), children: tick(16) + tick(17) };
}

async function idleCpu(pid: number): Promise<string> {
  const before = cpuMs(pid);
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const after = cpuMs(pid);
  const own = after.own - before.own;
  const children = after.children - before.children;
  const share = ((own + children) / IDLE_MS) * 100;
  return `${own.toFixed(0)} ms own + ${children.toFixed(0)} ms of children in ${IDLE_MS / 1000} s (${share.toFixed(2)} % of one core)`;
}

test("the work page with 500 pieces across 20 repositories: drawn in under 1 s", async () => {
  const setupStart = Date.now();
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.commit]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(COMMIT)}]\n`,
  );
  const repos = repositories();
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();

  // The user's own sessions, through the UI server as the browser starts them, a batch at a time.
  // A batch takes one repository once: two `git worktree add` at once in one repository can fail
  // (one reads the other's half-made `.git/worktrees/<name>/commondir`), and the server answers 500.
  const ids = await page.evaluate(
    async ({ repos, perRepository, batch }) => {
      const requests = Array.from({ length: perRepository }, () => repos).flat();
      const ids: string[] = [];
      for (let i = 0; i < requests.length; i += batch) {
        const replies = await Promise.all(
          requests.slice(i, i + batch).map(async (cwd, k) => {
            const r = await fetch("/api/sessions", {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({
                engine: "commit",
                prompt: "work",
                title: `Work ${i + k}`,
                cwd,
                isolation: "worktree",
              }),
            });
            if (r.status !== 201) throw new Error(`POST /api/sessions: ${r.status} ${await r.text()}`);
            return ((await r.json()) as { id: string }).id;
          }),
        );
        ids.push(...replies);
      }
      return ids;
    },
    { repos, perRepository: PER_REPOSITORY, batch: BATCH },
  );
  expect(ids).toHaveLength(PIECES);
  const started = Date.now();
  await allReach(ids, "waiting_for_input", 600_000);
  const committed = Date.now();
  for (let i = 0; i < ids.length; i += BATCH) {
    const stops = await Promise.all(
      ids.slice(i, i + BATCH).map((id) => e2e.server.api("POST", `/sessions/${id}/stop`)),
    );
    for (const stop of stops) expect(stop.status, JSON.stringify(stop.body)).toBe(202);
  }
  await allReach(ids, "stopped", 300_000);
  const stopped = Date.now();
  console.log(
    `setup, ${SERVER} (built ${statSync(binary).mtime.toISOString()}): ${PIECES} worktree sessions started in ${((started - setupStart) / 1000).toFixed(1)} s, ` +
      `all committed ${((committed - started) / 1000).toFixed(1)} s later, ` +
      `stopped ${((stopped - committed) / 1000).toFixed(1)} s later (${((stopped - setupStart) / 1000).toFixed(1)} s in all)`,
  );

  // (a) The first read asks git about every piece (each session's end invalidated its facts).
  const pid = serverPid();
  const first = await coldRead(pid);
  console.log(`GET /work with ${PIECES} pieces in ${REPOSITORIES} repositories, ${SERVER}:`);
  console.log(`  first read after the sessions stopped (git per piece): ${first.text}`);
  const listed = await e2e.server.api<{ work: { state: string; repository: string }[] }>("GET", "/work");
  expect(listed.status).toBe(200);
  expect(listed.body.work).toHaveLength(PIECES);
  expect(listed.body.work.filter((w) => w.state === "stranded")).toHaveLength(PIECES);
  expect(new Set(listed.body.work.map((w) => w.repository)).size).toBe(REPOSITORIES);
  const cached: number[] = [];
  for (let i = 0; i < READS; i++) {
    const at = performance.now();
    const reply = await e2e.server.api<{ work: unknown[] }>("GET", "/work");
    cached.push(performance.now() - at);
    expect(reply.body.work).toHaveLength(PIECES);
  }
  console.log(`  cached facts: ${figure(cached)}`);

  // (b) The page, loaded afresh each time.
  const drawn: number[] = [];
  const afterRead: number[] = [];
  const reads: number[] = [];
  let bytes = NaN;
  for (let run = 0; run < LOADS; run++) {
    await page.goto(`${e2e.server.uiUrl}/work`);
    const handle = await page.waitForFunction(
      (n) => (document.querySelectorAll("li[data-work-id]").length >= n ? performance.now() : false),
      PIECES,
      { timeout: 60_000, polling: "raf" },
    );
    const cardsAt = (await handle.jsonValue()) as number;
    const readAt = await page.evaluate(
      () =>
        performance
          .getEntriesByType("resource")
          .find((e) => new URL(e.name).pathname === "/api/work")
          ?.toJSON() as { requestStart: number; responseEnd: number; decodedBodySize: number } | undefined,
    );
    drawn.push(cardsAt);
    if (readAt) {
      afterRead.push(cardsAt - readAt.responseEnd);
      reads.push(readAt.responseEnd - readAt.requestStart);
      bytes = readAt.decodedBodySize;
    }
  }
  console.log(`work page with ${PIECES} pieces, ${SERVER}: cards in the DOM ${figure(drawn)}`);
  console.log(`  of which after GET /work answered: ${figure(afterRead)}`);
  console.log(
    `  the page's GET /work (${(bytes / 1024).toFixed(0)} KiB of JSON), request to response end: ${figure(reads)}`,
  );

  // (c) The server idle.
  await page.goto(`${e2e.server.uiUrl}/inbox`);
  await context.close();
  console.log(`server CPU idle with no page open, ${SERVER}: ${await idleCpu(pid)}`);
  const open = await loggedInPage(e2e, "/work");
  await open.page.waitForFunction((n) => document.querySelectorAll("li[data-work-id]").length >= n, PIECES, {
    timeout: 60_000,
  });
  console.log(`  with the page open on /work: ${await idleCpu(pid)}`);
  await open.context.close();

  // (d) Facts older than the index's recheck age (5 min) are read from git again, whatever
  // their fingerprint says: the first read after that long.
  const wait = first.at + RECHECK_AFTER_MS + 5_000 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const stale = await coldRead(pid);
  console.log(`GET /work ${RECHECK_AFTER_MS / 60_000} min after the facts were read, nothing changed: ${stale.text}`);
}, 1_800_000);
