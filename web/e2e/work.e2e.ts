/**
 * "Where's my work" against a real server: a worktree session of a `command` engine that commits
 * is listed by its session's title, with its branch beside it, where it stands in words ("1 commit
 * ahead"), what no remote has said once, and its last commit. Pushed to a remote on a folder (no
 * code host), it is not offered a pull request. A pull request and reviews need a code host and a
 * model, which this file has neither of: they are added to the server's own answer to
 * `GET /work`. Then the card shows the pull request's number and state and a summary of the
 * findings that opens onto them, high first; a pull request opened through the host's API is
 * linked in place, without a new tab; and the session's page shows the same findings under
 * Review, which a session whose work nobody reviewed does not have. The page passes axe-core and
 * fits 1440 and 390 px in both themes.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { PullRequest, WorkEntry, WorkReview } from "../src/shared/api/types.generated";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, waitForStatus } from "./harness";
import { seriousFindings } from "./axe";

const e2e = serverAndBrowser();
let repo: string;

const COMMIT = `echo "$$" > "agent-$$.txt"; git add . && git -c user.name=Agent -c user.email=agent@example.com commit -qm 'agent work' && echo committed`;

beforeAll(async () => {
  repo = join(mkdtempSync(join(tmpdir(), "switchboard-e2e-work-")), "app");
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=E2E", "-c", "user.email=e2e@example.com", ...args], { cwd: repo });
  git("init", "--quiet");
  writeFileSync(join(repo, "README.md"), "# App\n");
  git("add", ".");
  git("commit", "--quiet", "-m", "first");
  // A remote on a folder: work can be pushed, and no code host takes a pull request there.
  const remote = join(repo, "..", "remote.git");
  execFileSync("git", ["init", "--quiet", "--bare", remote]);
  git("remote", "add", "origin", remote);
  git("push", "--quiet", "--set-upstream", "origin", "HEAD");
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.commit]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(COMMIT)}]\n`,
  );
});

afterAll(() => rmSync(join(repo, ".."), { recursive: true, force: true }));

/** A stopped worktree session of the `commit` engine, started from `page` as the browser does; its id. */
async function committedAndStopped(page: Page): Promise<string> {
  const id = await page.evaluate(async (cwd) => {
    const reply = await fetch("/api/sessions", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ engine: "commit", prompt: "work", cwd, title: "Commit", isolation: "worktree" }),
    });
    return ((await reply.json()) as { id: string }).id;
  }, repo);
  await waitForStatus(e2e.server, id, "waiting_for_input");
  expect((await e2e.server.api("POST", `/sessions/${id}/stop`)).status).toBeLessThan(300);
  await waitForStatus(e2e.server, id, "stopped");
  return id;
}

/** Of a head that is not the work's: a review from before its last commit. */
const HEAD = "0".repeat(40);

const REVIEWS: WorkReview[] = [
  {
    reviewer: "critic",
    head: HEAD,
    at: new Date().toISOString(),
    findings: [
      { file: "agent.txt", line: null, severity: "low", text: "No trailing context." },
      { file: "agent.txt", line: 1, severity: "high", text: "Writes the process id where a secret belongs." },
    ],
    error: null,
  },
  { reviewer: "linter", head: HEAD, at: new Date().toISOString(), findings: [], error: "the engine exited with 1" },
];

/**
 * Adds reviews to the server's answer to `GET /work` for session `id`'s work, offers it a pull
 * request, and answers the pull-request action as a code host with a token would: opened, after
 * which `GET /work` carries it.
 */
async function withCodeHostAndReviews(page: Page, id: string): Promise<void> {
  let opened: PullRequest | null = null;
  await page.route("**/api/work", async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { work: WorkEntry[] };
    for (const entry of body.work) {
      if (!entry.sessions.includes(id)) continue;
      entry.reviews = REVIEWS;
      entry.codeHost = "work";
      entry.pullRequestHost = "work";
      entry.pullRequest = opened;
      if (opened === null) entry.actions = [...entry.actions, "pull-request"];
    }
    await route.fulfill({ response, json: body });
  });
  await page.route("**/api/work/*/pull-request", async (route) => {
    opened = {
      number: 7,
      url: "https://git.example.com/app/pull/7",
      state: "open",
      title: "Agent work",
      updatedAt: null,
    };
    await route.fulfill({ json: { url: opened.url, opened: true } });
  });
}

test("work is listed with its pull request and reviews, and the session page shows the findings", async () => {
  const { context, page } = await loggedInPage(e2e, "/work");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Where's my work" }).waitFor();
  const id = await committedAndStopped(page);

  // The server's own entry: stranded (its commit is on no remote), named by its session's title.
  await page.reload();
  const card = page.locator(".work-card", { hasText: "agent work" });
  await card.waitFor();
  expect(await card.locator(".work-state").textContent()).toBe("Stranded");
  expect(await card.getByRole("heading").textContent()).toBe("Commit");
  expect(await card.locator(".work-branch").textContent()).toMatch(/^switchboard\//);
  expect(await card.locator(".work-summary").textContent()).toBe("1 commit ahead · 1 commit on no remote");
  // Said once: the summary counts what the state's reason would repeat.
  expect((await card.textContent())?.match(/on no remote/g)).toHaveLength(1);
  expect(await card.locator(".review").count()).toBe(0);

  // Diff opens the session's changed files, brought into view.
  await card.getByRole("link", { name: "Diff" }).click();
  const changed = page.locator("#changes");
  await changed.getByText("agent-", { exact: false }).first().waitFor();
  expect(page.url()).toBe(`${e2e.server.uiUrl}/sessions/${id}#changes`);
  await expect.poll(() => changed.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(200);
  await page.goto(`${e2e.server.uiUrl}/work`);
  await card.waitFor();

  // Pushed to a remote on no code host: waiting on review, and no pull request offered.
  await card.getByRole("button", { name: "Push" }).click();
  await card.locator(".work-state", { hasText: "Waiting on review" }).waitFor();
  expect(await card.locator(".work-summary").textContent()).toBe("1 commit ahead");
  expect(await card.getByRole("button", { name: "Pull request" }).count()).toBe(0);

  await withCodeHostAndReviews(page, id);
  await page.reload();
  const summary = card.locator("summary", { hasText: "Review: 2 findings · 1 high · 1 low · 1 review failed" });
  await summary.click();
  const findings = card.getByRole("list", { name: "Review findings" }).getByRole("listitem");
  expect(await findings.allTextContents()).toEqual([
    "Highagent.txt:1criticWrites the process id where a secret belongs.",
    "Lowagent.txtcriticNo trailing context.",
  ]);
  await card.getByText("linter could not review").waitFor();

  // Opened through the host's API: linked on the card, no tab opened, and the list read again.
  let tabs = 0;
  context.on("page", () => (tabs += 1));
  const open = card.getByRole("button", { name: "Pull request" });
  expect(await open.getAttribute("title")).toBe("Open a pull request on work");
  await open.click();
  const status = card.getByRole("status");
  await status.getByText("Pull request opened:").waitFor();
  expect(await status.getByRole("link").getAttribute("href")).toBe("https://git.example.com/app/pull/7");
  const link = card.getByRole("link", { name: "Pull request #7 on work: Agent work" });
  await link.waitFor();
  expect(await link.textContent()).toBe("#7");
  expect(await link.getAttribute("target")).toBe("_blank");
  expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
  expect(await card.locator(".work-pr-state").textContent()).toBe("Open");
  expect(tabs).toBe(0);

  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const review = page.getByRole("region", { name: "Review" });
  await review.getByRole("list", { name: "Review findings" }).getByText("Writes the process id").waitFor();

  // Without reviews, the section is not drawn once the read is done.
  await page.unrouteAll();
  const read = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/work");
  await page.reload();
  await read;
  await page.getByTestId("session-status").waitFor();
  expect(await review.count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});

test("the page passes axe and fits 1440 and 390 px in both themes; screenshots", async () => {
  const dir = process.env.WORK_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "work-shots-"));
  // The first test's work, as a recipe run names its session, with a change left uncommitted.
  const listed = await e2e.server.api<{ work: WorkEntry[] }>("GET", "/work");
  const work = listed.body.work[0];
  if (!work?.checkout) throw new Error("the first test leaves a piece of work with its checkout");
  const title = "Triage issues — repo=web, label=bug, milestone=Sprint 6, 27 Nov 10:00";
  expect((await e2e.server.api("PATCH", `/sessions/${work.sessionId}`, { title })).status).toBe(200);
  writeFileSync(join(work.checkout, "wip.txt"), "half done\n");
  const { context, page } = await loggedInPage(e2e, "/work");
  // Logged in (the login page's redirect done) before the page is opened again at each size.
  await page.getByRole("heading", { name: "Where's my work" }).waitFor();
  const found: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    await setSetting(e2e.server, "pmColorMode", theme);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${e2e.server.uiUrl}/work`);
      await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
      await page.getByRole("heading", { name: title }).waitFor();
      const faults = await seriousFindings(page);
      if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
        faults.push("the page scrolls sideways");
      }
      if (faults.length > 0) found[`${theme} ${width}`] = faults;
      await page.screenshot({ path: join(dir, `work-${width}-${theme}.png`), fullPage: true });
    }
  }
  await setSetting(e2e.server, "pmColorMode", "system");
  console.log(`work screenshots in ${dir}`);
  expect(found).toEqual({});
  await context.close();
});
