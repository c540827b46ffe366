/**
 * The inbox leads with who needs you, end to end against the real server, on a phone: a
 * session waiting with a question is the first card of the inbox, it is answered from that card
 * (the card leaves at once, and the reply arrives as the session's next turn, after which the
 * session waits again and its card comes back), and every card's text takes most of the
 * card's width with no control under 44 px.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();

interface Spawned {
  id: string;
  status: string;
  turns: number;
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
  // The echo engine's second turn ends waiting again, so the session needs the user again.
  const answered = await until(session, (s) => s.turns === 2 && s.status === "waiting_for_input");
  expect([answered.turns, answered.status]).toEqual([2, "waiting_for_input"]);
  await card.waitFor();
  expect(errors).toEqual([]);
  await context.close();
});
