/**
 * The feeds reader and the briefing page (issue 68) against a real server and a local feed server.
 * A site is subscribed by its page's URL (its feed discovered); a page with no feed shows the
 * server's 400 as it came; entries list with unread counts; J/K move, M and S flag on the server,
 * the open entry's remote image is not requested until Show; "mark all read" zeroes the count;
 * OPML imports from a file and exports as a download; a phone shows one pane at a time; the
 * briefing page reads the daily briefing by its sections. Both pages pass axe at 1440 and 390 px
 * in both themes.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Feed, FeedEntryPage } from "../src/features/feeds/api";
import type { InboxRow } from "../src/shared/api/types.generated";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser({ args: ["--manual-clock"] });
let feeds: Server;
let base = "";
/** Paths the feed server was asked for. */
const asked: string[] = [];

const rss = (items: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback Blog</title><link>${base}/site/</link><description>Posts</description>${items}</channel></rss>`;

const item = (n: number, extra = "") =>
  `<item><title>Post ${n}</title><link>${base}/posts/${n}</link><guid>${base}/posts/${n}</guid><pubDate>${new Date(
    Date.UTC(2026, 10, 20 + n),
  ).toUTCString()}</pubDate><description><![CDATA[<p>Body of post ${n}.</p>${extra}]]></description></item>`;

beforeAll(async () => {
  feeds = createServer((request, response) => {
    const path = request.url ?? "";
    asked.push(path);
    if (path === "/site/") {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end(
        `<!doctype html><html><head><title>Loopback</title><link rel="alternate" type="application/rss+xml" href="/blog/rss"></head><body>Hi</body></html>`,
      );
    } else if (path === "/blog/rss") {
      response.writeHead(200, { "Content-Type": "application/rss+xml" });
      response.end(rss([item(1), item(2), item(3, `<img src="${base}/pixel.gif" alt="pixel">`)].join("")));
    } else if (path === "/notes/atom") {
      response.writeHead(200, { "Content-Type": "application/atom+xml" });
      response.end(
        `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Notes</title><id>urn:notes</id><updated>2026-11-20T00:00:00Z</updated><entry><title>Note one</title><id>urn:notes:1</id><link href="${base}/notes/1"/><updated>2026-11-20T00:00:00Z</updated><summary>First note.</summary></entry></feed>`,
      );
    } else if (path === "/plain/") {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end("<!doctype html><html><head><title>No feed here</title></head><body>Nothing</body></html>");
    } else if (path === "/pixel.gif") {
      response.writeHead(200, { "Content-Type": "image/gif" });
      response.end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
    } else {
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("not found");
    }
  });
  await new Promise<void>((done) => feeds.listen(0, "127.0.0.1", done));
  const address = feeds.address();
  if (typeof address !== "object" || address === null) throw new Error("no feed server port");
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((done) => feeds?.close(done));
});

async function entriesOf(feedId?: string): Promise<FeedEntryPage> {
  const reply = await e2e.server.api<FeedEntryPage>(
    "GET",
    `/feeds/entries${feedId ? `?feedId=${encodeURIComponent(feedId)}` : ""}`,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const feedList = async () => (await e2e.server.api<Feed[]>("GET", "/feeds")).body;

test("subscribes, reads from the keyboard, holds images back, imports and exports OPML", async () => {
  const { server } = e2e;
  await setSetting(server, "rssEnabled", true);
  const { context, page } = await loggedInPage(e2e, "/feeds");
  const errors = consoleErrors(page);
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));

  await page.getByRole("heading", { name: "Feeds" }).waitFor();
  const sidebar = page.getByRole("navigation", { name: "Sections" });
  await sidebar.getByRole("link", { name: "Feeds" }).waitFor();

  // A page with no feed: the server's 400, as it came.
  const form = page.getByRole("form", { name: "Add a feed" });
  await form.getByLabel("Feed or site URL").fill(`${base}/plain/`);
  await form.getByRole("button", { name: "Add feed" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: /feed/i });
  await refusal.waitFor();
  expect(await refusal.textContent()).not.toBe("");

  // The site's page: its feed discovered, its entries listed newest first.
  await form.getByLabel("Feed or site URL").fill(`${base}/site/`);
  await form.getByRole("button", { name: "Add feed" }).click();
  const feedsNav = page.getByRole("navigation", { name: "Feeds" });
  await feedsNav.getByRole("button", { name: /Loopback Blog/ }).waitFor();
  const [blog] = (await feedList()).filter((f) => f.url === `${base}/blog/rss`);
  if (!blog) throw new Error("the discovered feed was not subscribed");
  expect(blog.unread).toBe(3);
  const list = page.getByRole("list", { name: "Entries" });
  await expect.poll(() => list.getByRole("listitem").count()).toBe(3);
  expect((await list.getByRole("button").allTextContents())[0]).toContain("Post 3");

  // J opens the first; opening reads it, on the server and in the count.
  await page.keyboard.press("j");
  const article = page.getByRole("article", { name: "Post 3" });
  await article.waitFor();
  await until(
    () => entriesOf(blog.id),
    (p) => p.entries.find((e) => e.title === "Post 3")?.read === true,
  );
  await expect.poll(() => feedsNav.getByRole("button", { name: /Loopback Blog/ }).textContent()).toContain("2 unread");

  // Its remote image: nothing asked of the image until Show.
  const bar = page.getByRole("status").filter({ hasText: "1 remote image blocked" });
  await bar.waitFor();
  await page.waitForTimeout(500);
  expect(asked.filter((p) => p === "/pixel.gif")).toEqual([]);
  expect(requested.filter((url) => url.endsWith("/pixel.gif"))).toEqual([]);
  expect(await article.getByRole("link", { name: "Open original" }).getAttribute("href")).toBe(`${base}/posts/3`);
  await bar.getByRole("button", { name: /Show/ }).click();
  await expect.poll(() => asked.filter((p) => p === "/pixel.gif").length, { timeout: 10_000 }).toBeGreaterThan(0);

  // S stars and M makes it unread again, on the server.
  await page.locator(".feeds-article").focus();
  await page.keyboard.press("s");
  await page.keyboard.press("m");
  await until(
    () => entriesOf(blog.id),
    (p) => p.entries.some((e) => e.title === "Post 3" && e.starred && !e.read),
  );
  // K stays at the top; J moves down to Post 2.
  await page.keyboard.press("k");
  await page.keyboard.press("j");
  await page.getByRole("article", { name: "Post 2" }).waitFor();

  // The unread filter, then "mark all read".
  await page.getByLabel("Show").selectOption("unread");
  await expect.poll(() => list.getByRole("listitem").count()).toBe(2);
  await page.getByRole("button", { name: "Mark all read" }).click();
  await until(
    () => entriesOf(blog.id),
    (p) => p.entries.every((e) => e.read),
  );
  await expect.poll(async () => (await feedList()).find((f) => f.id === blog.id)?.unread).toBe(0);
  await page.getByLabel("Show").selectOption("all");

  // OPML in from a file, and out as a download naming both feeds.
  await page.getByText("Add or import feeds").click();
  const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body><outline text="Atom Notes" type="rss" xmlUrl="${base}/notes/atom"/></body></opml>`;
  await page.getByLabel("Import OPML").setInputFiles({
    name: "mine.opml",
    mimeType: "text/x-opml",
    buffer: Buffer.from(opml),
  });
  await page.getByRole("status").filter({ hasText: "Imported 1 feed; 0 skipped." }).waitFor();
  await until(feedList, (list) => list.some((f) => f.url === `${base}/notes/atom`));
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export OPML" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^switchboard-feeds-\d{4}-\d{2}-\d{2}\.opml$/);
  const saved = await download.path();
  const exported = readFileSync(saved, "utf8");
  expect(exported).toContain(`${base}/blog/rss`);
  expect(exported).toContain(`${base}/notes/atom`);

  const shots = process.env.FEEDS_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "feeds-shots-"));
  await page.goto(`${server.uiUrl}/feeds`);
  await page
    .getByRole("list", { name: "Entries" })
    .getByRole("button", { name: /Post 3/ })
    .click();
  await page.getByRole("article", { name: "Post 3" }).waitFor();
  expect(await everyLook(server, page, "feeds", shots)).toEqual({});

  // The refused subscription's 400 is the browser's only complaint.
  expect(errors.filter((e) => !/status of 400 .*\/api\/feeds\)$/.test(e))).toEqual([]);
  await context.close();
});

test("a phone reads one pane at a time", async () => {
  const { context, page } = await loggedInPage(e2e, "/feeds");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  const list = page.getByRole("list", { name: "Entries" });
  await list.waitFor();
  await page.getByLabel("Feed", { exact: true }).waitFor();
  await list.getByRole("button").first().click();
  await page.getByRole("button", { name: "Back to the list" }).waitFor();
  expect(await list.count()).toBe(0);
  await page.getByRole("button", { name: "Back to the list" }).click();
  await list.waitFor();
  await context.close();
});

test("the briefing page reads the daily briefing by its sections", async () => {
  const { server } = e2e;
  await setSetting(server, "dailyDigestEnabled", true);
  await setSetting(server, "dailyDigestSources", { sessions: true, calendar: true, "pm-events": true });
  // Let the notifier note today, then pass midnight: yesterday's briefing is written.
  await pause(1_000);
  const moved = await server.api("POST", "/test/clock", { advanceMs: 24 * 3600 * 1000 });
  expect(moved.status).toBe(204);
  await until(
    async () => (await server.api<InboxRow[]>("GET", "/inbox?category=digest&state=all")).body,
    (rows) => rows.some((r) => /daily (digest|briefing)/i.test(r.title)),
    30_000,
  );

  const { context, page } = await loggedInPage(e2e, "/briefing");
  const errors = consoleErrors(page);
  const daily = page.getByRole("region", { name: "Daily briefing" });
  await daily.waitFor();
  await daily.getByRole("heading", { name: "Sessions", level: 3 }).waitFor();
  // Run now writes another briefing (POST /digests/run) and the page shows it once it arrives.
  const digests = async () =>
    (await server.api<InboxRow[]>("GET", "/inbox?category=digest&state=all&limit=500")).body.filter((r) =>
      /daily (digest|briefing)/i.test(r.title),
    );
  const before = (await digests()).reduce((n, r) => n + r.count, 0);
  await daily.getByRole("button", { name: /Run now/ }).click();
  await until(digests, (rows) => rows.reduce((n, r) => n + r.count, 0) > before, 30_000);
  await daily.getByRole("button", { name: /Run now/ }).waitFor();
  await page.getByRole("region", { name: "Feeds digest" }).waitFor();
  const sidebar = page.getByRole("navigation", { name: "Sections" });
  await sidebar.getByRole("link", { name: "Briefing" }).waitFor();

  const shots = process.env.FEEDS_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "briefing-shots-"));
  expect(await everyLook(server, page, "briefing", shots)).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
