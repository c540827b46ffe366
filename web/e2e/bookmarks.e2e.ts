/**
 * Bookmarks in the toolbar, end to end: `showBookmarksInToolbar` shows the button, bookmarks made
 * through the control API list in their order, a drag reorders them on the server, and launching
 * a session recipe opens the new session's page.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

interface Made {
  id: string;
  title: string;
}

async function bookmark(body: Record<string, string>): Promise<Made> {
  const reply = await e2e.server.api<Made>("POST", "/bookmarks", body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

test("toolbar bookmarks list in order, reorder by drag, and launch a session", async () => {
  // An engine that answers at once, so the launched session is real but quick.
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  const button = page.getByRole("button", { name: "Bookmarks", exact: true });
  expect(await button.count()).toBe(0);

  const docs = await bookmark({ title: "Docs", kind: "url", url: "https://example.com/docs" });
  const tracker = await bookmark({ title: "Tracker", kind: "url", url: "https://example.com/issues" });
  const review = await bookmark({ title: "Review", kind: "session", engine: "echo", prompt: "review the code" });
  await setSetting(e2e.server, "showBookmarksInToolbar", true);
  await button.click();

  const panel = page.getByRole("dialog", { name: "Bookmarks" });
  const rows = panel.locator("li[data-bookmark-id]");
  const shown = () => rows.evaluateAll((items) => items.map((li) => li.getAttribute("data-bookmark-id")));
  await rows.first().waitFor();
  expect(await shown()).toEqual([docs.id, tracker.id, review.id]);

  // Drag the recipe to the top: the server's order follows.
  await panel.locator(`li[data-bookmark-id="${review.id}"]`).dragTo(panel.locator(`li[data-bookmark-id="${docs.id}"]`));
  const wanted = [review.id, docs.id, tracker.id];
  await expect.poll(shown).toEqual(wanted);
  await expect
    .poll(async () =>
      (await e2e.server.api<{ bookmarks: Made[] }>("GET", "/bookmarks")).body.bookmarks.map((b) => b.id),
    )
    .toEqual(wanted);

  await panel.getByRole("button", { name: "Review", exact: true }).click();
  await page.waitForURL(/\/sessions\/[^/]+$/);
  const sessionId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const session = await e2e.server.api<{ title: string | null; prompt: string }>("GET", `/sessions/${sessionId}`);
  expect(session.status).toBe(200);
  expect(session.body.title).toBe("Review");
  expect(session.body.prompt).toBe("review the code");

  // Turning the setting off hides the button and keeps the bookmarks.
  await setSetting(e2e.server, "showBookmarksInToolbar", false);
  await button.waitFor({ state: "detached" });
  expect((await e2e.server.api<{ bookmarks: Made[] }>("GET", "/bookmarks")).body.bookmarks).toHaveLength(3);

  expect(errors).toEqual([]);
  await context.close();
});
