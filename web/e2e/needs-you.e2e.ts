/**
 * The inbox leads with who needs you, end to end against the real server, on a phone: a
 * session waiting with a question is the first card of the inbox, it is answered from that card
 * (the card leaves at once, and the reply arrives as the session's next turn, which asks
 * nothing: that turn is done, and its card does not come back), and every card's text takes most
 * of the card's width with no control under 44 px.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();

interface Spawned {
  id: string;
  status: string;
  turns: number;
  turnEnd: "asked" | "done" | null;
}

test("on a phone the inbox opens with the waiting session, answered from its card", async () => {
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 10);
  const spawned = await e2e.server.api<Spawned>("POST", "/sessions", {
    engine: "echo",
    prompt: "Should I use Postgres or SQLite?",
    title: "Pick a database",
  });
  expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
  const id = spawned.body.id;
  const session = () => e2e.server.api<Spawned>("GET", `/sessions/${id}`).then((r) => r.body);
  await until(session, (s) => s.status === "waiting_for_input");

  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.locator(`[data-needs-you="${id}"]`);
  await card.waitFor();
  // It comes before every inbox row.
  const first = await page.evaluate(() => {
    const items = [...document.querySelectorAll("[data-needs-you], li[data-row-id]")];
    return items[0]?.hasAttribute("data-needs-you") ?? false;
  });
  expect(first).toBe(true);
  expect(await card.textContent()).toContain("Pick a database");

  // Cards' text takes most of the card; nothing to tap is under 44 px.
  const cards = page.locator("li[data-row-id], [data-needs-you]");
  for (let i = 0; i < (await cards.count()); i++) {
    const box = await cards.nth(i).boundingBox();
    const text = await cards.nth(i).locator(".inbox-main, .needs-you-head").first().boundingBox();
    expect(box && text && text.width >= 0.8 * box.width, `card ${i}`).toBe(true);
  }
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("main button, main a, main input, main textarea")]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      // A checkbox is tapped through its label, which is the target.
      .map((el) => (el.matches("input[type=checkbox]") ? (el.closest("label") ?? el) : el))
      .map((el) => ({
        label: el.textContent?.trim() || el.getAttribute("aria-label"),
        h: el.getBoundingClientRect().height,
      }))
      .filter((el) => el.h < 44),
  );
  expect(small, JSON.stringify(small)).toEqual([]);

  await card.getByRole("textbox").fill("SQLite, bundled.");
  await card.getByRole("button", { name: "Send" }).click();
  // The question's card goes as soon as the reply is accepted, however soon the next poll reads
  // the session. The echo engine may answer and wait again within one look of the test's: the
  // card then back is the reply's, not the question's.
  await page.locator(`[data-needs-you="${id}"].needs-you-question`).waitFor({ state: "detached" });
  // The echo engine's second turn says the reply back and asks nothing: its turn is done, so the
  // session waits on nobody and its card does not come back.
  const answered = await until(session, (s) => s.turns === 2 && s.turnEnd !== null);
  expect([answered.turns, answered.status, answered.turnEnd]).toEqual([2, "waiting_for_input", "done"]);
  await page.locator(`[data-needs-you="${id}"]`).waitFor({ state: "detached" });
  expect(errors).toEqual([]);
  await context.close();
});

test("the board holds under Needs you what asked or failed, a turn that did its work under Done, and n skips it", async () => {
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n\n` +
      `[engines.broken]\nkind = "command"\ncommand = ["/bin/sh", "-c", "echo out of disk >&2; exit 2"]\n`,
  );
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 10);
  const spawn = async (engine: string, prompt: string, title: string) => {
    const spawned = await e2e.server.api<Spawned>("POST", "/sessions", { engine, prompt, title });
    expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
    return spawned.body.id;
  };
  const read = (id: string) => () => e2e.server.api<Spawned>("GET", `/sessions/${id}`).then((r) => r.body);
  const asks = await spawn("echo", "Which branch should I rebase onto?", "Rebase question");
  const done = await spawn("echo", "Done with the fix: the tests pass.", "Finished fix");
  const failed = await spawn("broken", "Build it", "Broken build");
  await until(read(asks), (s) => s.turnEnd === "asked");
  await until(read(done), (s) => s.turnEnd === "done");
  await until(read(failed), (s) => s.status === "failed");

  const { context, page } = await loggedInPage(e2e, "/");
  const errors = consoleErrors(page);
  await page.locator(`tr[data-group="needs_you"][data-session-id="${asks}"]`).waitFor();
  await page.locator(`tr[data-group="needs_you"][data-session-id="${failed}"]`).waitFor();
  const finished = page.locator(`tr[data-group="done"][data-session-id="${done}"]`);
  await finished.waitFor();
  // Answerable, and said as done: nobody is waited on.
  expect(await finished.locator(".pill").first().textContent()).toBe("Done");
  const heading = page.locator("tr.board-group").first();
  expect(await heading.getAttribute("data-group")).toBe("needs_you");
  expect(await heading.textContent()).toContain("(2)");

  // n goes through what needs you, never to the finished turn.
  const visited = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const before = page.url();
    if (i > 0) {
      // A session page puts the caret in its composer as it opens, where n is typing.
      await page.getByTestId("session-status").waitFor();
      await page.getByLabel("Follow-up message").waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    }
    await page.keyboard.press("n");
    await page.waitForURL((url) => url.toString() !== before && /\/sessions\/[^/]+$/.test(url.pathname));
    visited.add(page.url().split("/").pop() ?? "");
  }
  expect([...visited].sort()).toEqual([asks, failed].sort());

  await page.goto(`${e2e.server.uiUrl}/`);
  await finished.waitFor();
  const shots = process.env.NEEDS_YOU_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "needs-you-shots-"));
  expect(await everyLook(e2e.server, page, "board", shots)).toEqual({});
  await page.goto(`${e2e.server.uiUrl}/inbox`);
  await page.locator(`[data-needs-you="${asks}"]`).waitFor();
  expect(await page.locator(`[data-needs-you="${done}"]`).count()).toBe(0);
  expect(await everyLook(e2e.server, page, "inbox", shots)).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});
