/**
 * The Calendar page against a real server: a board whose items have due dates and a sprint
 * column shows its items on their days in the board's color and its sprint as one span over its
 * days; dragging an item to another day changes its due date on the server (a failed write puts
 * it back and says so); clicking an item opens it on its board; the week starts on
 * `calendarWeekStartDay` in the month and the week views; an ICS subscription's event shows in
 * the week view at its time, in the sidebar's Upcoming list, and in its details when clicked.
 * A day with 36 items keeps the month the window's height with "+N more", whose list opens from
 * the keyboard and closes on Escape; today is on screen when the page opens; sprints name their
 * board and a legend names the colors; the agenda lists a sprint once; on a phone the page opens
 * in Agenda and the month and the week show days as dots with a count, a tapped day's list under
 * them. The page passes axe-core (no serious or critical violation) and does not scroll sideways
 * at 1440 and 390 px in both themes, where it is photographed.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Item, Occurrence } from "../src/shared/api/types.generated";
import { seriousFindings } from "./axe";
import { consoleErrors, createBoard, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();

const pad = (n: number) => String(n).padStart(2, "0");
const now = new Date();
/** A day of this month (the browser and the server share this machine's zone). */
const day = (d: number) => `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(d)}`;
const SHIP = day(10);
const DOCS = day(12);
const SPRINT_END = day(14);
const MOVED_TO = day(20);
/** A day of this month with 36 items due: more than any day's lines hold. */
const BUSY = day(24);
const BUSY_COUNT = 36;

/** Today and a few days on, in the browser's zone: the span of the Platform board's sprint. */
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const TODAY = localDay(now);
const SPRINT6_END = localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 3));

let boardId = "";
const itemIds = new Map<string, string>();
let ics: Server | undefined;

/** An ICS file with one event two hours from now, served on loopback as a subscription reads it. */
function icsFile(): string {
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const start = new Date(Math.ceil((Date.now() + 2 * 3_600_000) / 3_600_000) * 3_600_000);
  const end = new Date(start.getTime() + 1_800_000);
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//e2e//EN",
    "BEGIN:VEVENT",
    "UID:review@e2e",
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    "SUMMARY:Design review",
    "LOCATION:Room 4",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

beforeAll(async () => {
  const workspace = await e2e.server.api<{ id: string }>("POST", "/workspaces", { name: "E2E" });
  expect(workspace.status).toBe(201);
  boardId = await createBoard(
    e2e.server,
    {
      workspaceId: workspace.body.id,
      name: "Launch",
      columns: [
        { id: "due", title: "Due", type: "date" },
        { id: "sprint", title: "Sprint", type: "text" },
      ],
      groups: [{ id: "g", title: "Work" }],
    },
    [
      { groupId: "g", name: "Ship login", values: { due: SHIP, sprint: "Sprint 7" } },
      { groupId: "g", name: "Write docs", values: { due: DOCS } },
      { groupId: "g", name: "Close sprint", values: { due: SPRINT_END, sprint: "Sprint 7" } },
    ],
  );
  const full = await e2e.server.api<{ items: Item[] }>("GET", `/boards/${boardId}/full`);
  for (const item of full.body.items) itemIds.set(item.name, item.id);
  // A second board, its color another, with a sprint from today and a day holding 36 items.
  await createBoard(
    e2e.server,
    {
      workspaceId: workspace.body.id,
      name: "Platform",
      columns: [
        { id: "due", title: "Due", type: "date" },
        { id: "sprint", title: "Sprint", type: "text" },
      ],
      groups: [{ id: "g", title: "Work" }],
    },
    [
      { groupId: "g", name: "Kick off", values: { due: TODAY, sprint: "Sprint 6" } },
      { groupId: "g", name: "Wrap up", values: { due: SPRINT6_END, sprint: "Sprint 6" } },
      ...Array.from({ length: BUSY_COUNT }, (_, i) => ({
        groupId: "g",
        name: `Busy ${pad(i + 1)}`,
        values: { due: BUSY },
      })),
    ],
  );
  await setSetting(e2e.server, "calendarWeekStartDay", "monday");
});

afterAll(async () => {
  await new Promise((resolve) => (ics ? ics.close(resolve) : resolve(undefined)));
});

const entry = (page: Page, name: string) => page.locator(`.cal-entry[aria-label="${name}"]`);
const cell = (page: Page, d: string) => page.locator(`.cal-day[data-day="${d}"]`).first();

/** Whether the middle of `inner` lies inside `outer`. */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  if (!a || !b) return false;
  const [x, y] = [a.x + a.width / 2, a.y + a.height / 2];
  return x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
}

/** Whether some box of `bars` covers part of the cell of `d` (horizontally within it, in its week). */
async function covered(page: Page, bars: Locator, d: string): Promise<boolean> {
  const box = await cell(page, d).boundingBox();
  if (!box) return false;
  for (const bar of await bars.all()) {
    const b = await bar.boundingBox();
    if (!b) continue;
    const overlapX = Math.min(b.x + b.width, box.x + box.width) - Math.max(b.x, box.x);
    const withinY = b.y >= box.y && b.y + b.height <= box.y + box.height;
    if (overlapX > box.width / 2 && withinY) return true;
  }
  return false;
}

async function openCalendar(page: Page, view: "month" | "week" | "agenda" = "month"): Promise<void> {
  await page.goto(`${e2e.server.uiUrl}/calendar`);
  await page.getByRole("heading", { name: "Calendar", level: 1 }).waitFor();
  await page.getByRole("tab", { name: view === "month" ? "Month" : view === "week" ? "Week" : "Agenda" }).click();
}

async function overlayReady(): Promise<boolean> {
  const reply = await e2e.server.api<Occurrence[]>("GET", `/calendar/events?from=${day(1)}&to=${day(28)}`);
  return reply.status === 200 && reply.body.some((o) => o.source.kind === "item");
}

test("the month view shows items on their days in the board's color and a sprint across its days", async () => {
  expect(await overlayReady(), "GET /calendar/events lists no board items yet").toBe(true);
  const events = (await e2e.server.api<Occurrence[]>("GET", `/calendar/events?from=${day(1)}&to=${day(28)}`)).body;
  const colors = new Set(
    events
      .filter((o) => (o.source.kind === "item" || o.source.kind === "sprint") && o.source.board === "Launch")
      .map((o) => o.source.color),
  );
  expect(colors.size).toBe(1);
  const [color] = [...colors];

  const { context, page } = await loggedInPage(e2e, "/calendar");
  const errors = consoleErrors(page);
  await openCalendar(page);
  const ship = entry(page, "Ship login (Launch)");
  await ship.waitFor();
  expect(await inside(ship, cell(page, SHIP))).toBe(true);
  expect(await inside(entry(page, "Write docs (Launch)"), cell(page, DOCS))).toBe(true);
  expect(await ship.getAttribute("data-color")).toBe(color);
  const rgb = await ship.evaluate((el) => getComputedStyle(el).backgroundColor);
  const hex = `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, "0"))
    .join("")}`;
  expect(hex).toBe(color);

  // Named with its board: another board's sprint may share its name and differ only in color.
  const sprint = page.locator('.cal-entry[data-kind="sprint"][aria-label="Sprint 7 · Launch (sprint)"]');
  await sprint.first().waitFor();
  expect(await sprint.first().textContent()).toBe("Sprint 7 · Launch");
  for (let d = 10; d <= 14; d++) expect(await covered(page, sprint, day(d)), `sprint covers ${day(d)}`).toBe(true);
  expect(await covered(page, sprint, day(9))).toBe(false);
  expect(await covered(page, sprint, day(15))).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});

test("dragging an item to another day changes its due date; a failed write puts it back", async () => {
  expect(await overlayReady(), "GET /calendar/events lists no board items yet").toBe(true);
  const id = itemIds.get("Write docs") ?? "";
  const { context, page } = await loggedInPage(e2e, "/calendar");
  await openCalendar(page);
  const docs = entry(page, "Write docs (Launch)");
  await docs.waitFor();

  // The server refuses once: the entry goes back to its day and the page says why.
  await page.route(`**/api/items/${id}`, (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 409,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "conflict", message: "Someone else changed it." } }),
        })
      : route.continue(),
  );
  await docs.dragTo(cell(page, MOVED_TO));
  await page.getByRole("alert").filter({ hasText: "Someone else changed it." }).waitFor();
  await expect.poll(() => inside(docs, cell(page, DOCS))).toBe(true);
  await page.unroute(`**/api/items/${id}`);

  await docs.dragTo(cell(page, MOVED_TO));
  await expect.poll(() => inside(docs, cell(page, MOVED_TO))).toBe(true);
  const item = await until(
    () => e2e.server.api<Item>("GET", `/items/${id}`),
    (reply) => reply.body.values.due === MOVED_TO,
  );
  expect(item.body.values.due).toBe(MOVED_TO);

  // The keyboard's way: Move to date.
  await page.getByText("Move to date").click();
  // The option names its due day in words ("due Fri"), so it is found by the item's name.
  const items = page.getByLabel("Item");
  const option = await items.locator("option", { hasText: "Write docs (Launch), due" }).getAttribute("value");
  await items.selectOption(option ?? "");
  await page.getByLabel("New date").fill(DOCS);
  await page.getByRole("button", { name: "Move", exact: true }).click();
  await until(
    () => e2e.server.api<Item>("GET", `/items/${id}`),
    (reply) => reply.body.values.due === DOCS,
  );
  expect((await e2e.server.api<Item>("GET", `/items/${id}`)).body.values.due).toBe(DOCS);
  await expect.poll(() => inside(docs, cell(page, DOCS))).toBe(true);
  await context.close();
});

test("clicking an item opens it on its board, marked and focused", async () => {
  expect(await overlayReady(), "GET /calendar/events lists no board items yet").toBe(true);
  const { context, page } = await loggedInPage(e2e, "/calendar");
  await openCalendar(page);
  await entry(page, "Ship login (Launch)").click();
  await page.getByRole("heading", { name: "Launch", level: 1 }).waitFor();
  const url = new URL(page.url());
  expect(url.pathname).toBe(`/boards/${boardId}`);
  expect(url.searchParams.get("item")).toBe(itemIds.get("Ship login"));
  // The board shows the item it was opened on: marked and holding the focus.
  const row = page.locator(`[data-item-id="${itemIds.get("Ship login")}"]`);
  await expect.poll(() => row.getAttribute("aria-current")).toBe("true");
  await expect.poll(() => row.evaluate((el) => el === document.activeElement)).toBe(true);
  await context.close();
});

/** The weekday (0 Sunday) of a `YYYY-MM-DD`. */
const weekday = (d: string | null) => new Date(`${d}T00:00:00Z`).getUTCDay();

test("the week starts on calendarWeekStartDay in the month and the week", async () => {
  const { context, page } = await loggedInPage(e2e, "/calendar");
  try {
    for (const [setting, first] of [
      ["monday", 1],
      ["sunday", 0],
    ] as const) {
      await setSetting(e2e.server, "calendarWeekStartDay", setting);
      await openCalendar(page, "month");
      await page.locator(".cal-day").first().waitFor();
      expect(weekday(await page.locator(".cal-month .cal-day").first().getAttribute("data-day"))).toBe(first);
      await openCalendar(page, "week");
      await page.locator(".cal-week-day").first().waitFor();
      expect(weekday(await page.locator(".cal-week-day").first().getAttribute("data-day"))).toBe(first);
    }
  } finally {
    await setSetting(e2e.server, "calendarWeekStartDay", "monday");
  }
  await context.close();
});

test("a subscription's event: in the week at its time, in Upcoming, and its details on a click", async () => {
  ics = createServer((_, reply) => {
    reply.writeHead(200, { "Content-Type": "text/calendar" });
    reply.end(icsFile());
  });
  await new Promise<void>((resolve) => ics?.listen(0, "127.0.0.1", resolve));
  const address = ics.address();
  if (typeof address !== "object" || address === null) throw new Error("no ICS address");
  await setSetting(e2e.server, "calendarEnabled", true);
  const account = await e2e.server.api<{ id: string }>("POST", "/calendars", {
    kind: "ics",
    url: `http://127.0.0.1:${address.port}/team.ics`,
    name: "Team",
  });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  const synced = await e2e.server.api("POST", `/calendars/${account.body.id}/sync`);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);

  const { context, page } = await loggedInPage(e2e, "/calendar");
  const upcoming = page.getByRole("region", { name: "Upcoming" });
  await upcoming.getByRole("link", { name: /Design review/ }).waitFor();
  await openCalendar(page, "week");
  const review = page.locator('.cal-timed[data-kind="ics"]');
  await review.waitFor();
  // At its local time: an hour is 40 px of the day's column.
  // The event is two hours from now, which late in the evening is tomorrow, perhaps in the next month.
  const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const [today, inTwoDays] = [new Date(), new Date(Date.now() + 2 * 86_400_000)];
  const events = await e2e.server.api<Occurrence[]>(
    "GET",
    `/calendar/events?from=${isoDay(today)}&to=${isoDay(inTwoDays)}`,
  );
  const start = new Date(events.body.find((o) => o.source.kind === "ics")?.start ?? "");
  const top = await review.evaluate((el) => (el as HTMLElement).offsetTop);
  expect(top).toBe(((start.getHours() * 60 + start.getMinutes()) / 60) * 40);
  await review.click();
  const details = page.getByRole("dialog", { name: "Design review" });
  await details.getByText("Room 4").waitFor();
  await details.getByRole("button", { name: "Close" }).click();
  await upcoming.getByRole("link", { name: /Design review/ }).click();
  expect(new URL(page.url()).pathname).toBe("/calendar");
  await context.close();
});

/** Whether some of `locator`'s box is inside the window. */
async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  return box.y < size.height && box.y + box.height > 0 && box.x < size.width && box.x + box.width > 0;
}

/** Whether the middle of `locator` is drawn on top there: not clipped by a box around it nor covered. */
const uncovered = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });

/** A day's list heading, as the page writes it ("Tuesday 24 November" in the browser's words). */
const dayTitleOf = (page: Page, d: string) =>
  page.evaluate(
    (iso) =>
      new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(
        new Date(`${iso}T00:00:00Z`),
      ),
    d,
  );

test("a busy day ends in '+N more', whose list opens from the keyboard; the month fits the window with today in it", async () => {
  expect(await overlayReady(), "GET /calendar/events lists no board items yet").toBe(true);
  const { context, page } = await loggedInPage(e2e, "/calendar");
  const errors = consoleErrors(page);
  await openCalendar(page, "month");
  const month = page.locator(".cal-month");
  await month.waitFor();
  // The month is the window's height: 36 items on a day do not stretch its week.
  const box = await month.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(900);
  expect(await onScreen(page, page.locator(".cal-month .cal-day[data-today]"))).toBe(true);

  const title = await dayTitleOf(page, BUSY);
  const button = page.getByRole("button", { name: `more on ${title}` });
  await button.waitFor();
  const text = (await button.textContent()) ?? "";
  const hidden = Number(/^\+(\d+) more$/.exec(text)?.[1]);
  expect(await inside(button, cell(page, BUSY))).toBe(true);
  const shown = await page
    .locator(".cal-entry")
    .filter({ hasText: /^Busy \d+$/ })
    .count();
  expect(shown + hidden).toBe(BUSY_COUNT);
  expect(shown).toBeGreaterThan(0);

  // From the keyboard: Enter opens the day's list with the focus in it, Escape gives it back.
  await button.focus();
  await page.keyboard.press("Enter");
  const list = page.getByRole("dialog", { name: title });
  await list.waitFor();
  for (let i = 1; i <= BUSY_COUNT; i++) {
    expect(await list.locator(`.cal-entry[aria-label="Busy ${pad(i)} (Platform)"]`).count(), `Busy ${pad(i)}`).toBe(1);
  }
  expect(await list.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  // Drawn whole over the month, from its heading to its last entry, not cut by the month's box.
  expect(await uncovered(list.getByRole("heading", { name: title }))).toBe(true);
  const last = list.locator(".cal-entry").last();
  await last.scrollIntoViewIfNeeded();
  expect(await uncovered(last)).toBe(true);
  await page.keyboard.press("Escape");
  await list.waitFor({ state: "detached" });
  expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await button.getAttribute("aria-expanded")).toBe("false");
  expect(errors).toEqual([]);
  await context.close();
});

test("sprints name their board, a legend names the colors, and the agenda lists a sprint once", async () => {
  expect(await overlayReady(), "GET /calendar/events lists no board items yet").toBe(true);
  const { context, page } = await loggedInPage(e2e, "/calendar");
  await openCalendar(page, "month");
  const legend = page.getByRole("list", { name: "Colors" });
  await legend.getByText("Platform").waitFor();
  await legend.getByText("Launch").waitFor();
  const swatches = await legend
    .locator(".cal-legend-swatch")
    .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
  expect(new Set(swatches).size).toBe(swatches.length);
  await page.locator('.cal-entry[data-kind="sprint"]').filter({ hasText: "Sprint 6 · Platform" }).first().waitFor();

  await openCalendar(page, "week");
  await page.locator(".cal-week-day[data-today]").waitFor();
  expect(await onScreen(page, page.locator(".cal-week-day[data-today]"))).toBe(true);
  // The all-day row holds five lines; the busy day's list opens whole over the hours, not cut by them.
  const step = page.getByRole("button", { name: BUSY < TODAY ? "Previous" : "Next" });
  for (let i = 0; i < 6 && (await page.locator(`.cal-week-day[data-day="${BUSY}"]`).count()) === 0; i++) {
    await step.click();
  }
  const title = await dayTitleOf(page, BUSY);
  await page.getByRole("button", { name: `more on ${title}` }).click();
  const list = page.getByRole("dialog", { name: title });
  await list.waitFor();
  expect(await uncovered(list.getByRole("heading", { name: title }))).toBe(true);
  const last = list.locator(".cal-list-time").last();
  await last.scrollIntoViewIfNeeded();
  expect(await uncovered(last)).toBe(true);
  await page.keyboard.press("Escape");

  await openCalendar(page, "agenda");
  const agenda = page.locator(".cal-agenda");
  await agenda.waitFor();
  const sprint6 = agenda.locator('.cal-entry[aria-label="Sprint 6 · Platform (sprint)"]');
  // Once, on its first day (today), though it covers four days of the agenda.
  expect(await sprint6.count()).toBe(1);
  const first = agenda.locator(`.cal-agenda-day[data-day="${TODAY}"]`);
  expect(await first.locator('.cal-entry[data-kind="sprint"]').count()).toBe(1);
  expect(await first.locator(".cal-list-time").first().textContent()).toMatch(/^Until /);
  expect(await onScreen(page, first)).toBe(true);
  await context.close();
});

test("on a phone the page opens in Agenda with whole titles; the month and the week show days as dots", async () => {
  expect(await overlayReady(), "GET /calendar/events lists no board items yet").toBe(true);
  const { context, page } = await loggedInPage(e2e, "/calendar");
  const found: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    await setSetting(e2e.server, "pmColorMode", theme);
    await page.setViewportSize({ width: 390, height: 844 });
    // No view chosen in this browser yet: a phone opens in Agenda.
    await page.evaluate(() => localStorage.removeItem("switchboard.calendar.view"));
    await page.goto(`${e2e.server.uiUrl}/calendar`);
    await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
    const agendaTab = page.getByRole("tab", { name: "Agenda" });
    await expect.poll(() => agendaTab.getAttribute("aria-selected")).toBe("true");
    const today = page.locator(`.cal-agenda-day[data-day="${TODAY}"]`);
    await today.waitFor();
    expect(await onScreen(page, today)).toBe(true);
    // Titles are read whole, not cut to a few letters.
    const sprint6 = today.locator('.cal-entry[data-kind="sprint"] .cal-entry-title');
    expect(await sprint6.textContent()).toBe("Sprint 6 · Platform");
    expect(await sprint6.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    found[`${theme} agenda`] = await seriousFindings(page);

    // The month: a day is a button with a count; tapping the busy day lists its 36 items.
    await page.getByRole("tab", { name: "Month" }).click();
    const days = page.locator(".cal-compact-day");
    await days.first().waitFor();
    expect(await page.locator(`.cal-compact-day[data-day="${TODAY}"]`).getAttribute("aria-pressed")).toBe("true");
    const busy = page.locator(`.cal-compact-day[data-day="${BUSY}"]`);
    // The month's entries are read when the tab changes: the agenda's fortnight may show first.
    await expect.poll(() => busy.locator(".cal-compact-count").textContent()).toBe(String(BUSY_COUNT));
    expect(await busy.locator(".cal-dot").count()).toBe(1);
    await busy.click();
    const list = page.locator(".cal-compact-list");
    await expect.poll(() => list.locator(".cal-entry").count()).toBe(BUSY_COUNT);
    const title = list.locator(".cal-entry-title").first();
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    found[`${theme} month`] = await seriousFindings(page);

    await page.getByRole("tab", { name: "Week" }).click();
    await expect.poll(() => days.count()).toBe(7);
    found[`${theme} week`] = await seriousFindings(page);
    if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
      found[`${theme} week`]?.push("the page scrolls sideways");
    }
  }
  await setSetting(e2e.server, "pmColorMode", "system");
  expect(Object.fromEntries(Object.entries(found).filter(([, faults]) => faults.length > 0))).toEqual({});
  await context.close();
});

test("the page passes axe and fits 1440 and 390 px in each view and theme; screenshots", async () => {
  const dir = process.env.CALENDAR_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "calendar-shots-"));
  const { context, page } = await loggedInPage(e2e, "/calendar");
  const found: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    await setSetting(e2e.server, "pmColorMode", theme);
    for (const view of ["month", "week", "agenda"] as const) {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await openCalendar(page, view);
        await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
        await page.locator(".cal-month, .cal-weekview, .cal-agenda, .cal-compact").first().waitFor();
        await page.waitForLoadState("networkidle");
        const faults = await seriousFindings(page);
        const suffix = theme === "dark" ? "-dark" : "";
        if (view === "month" && width === 1440) {
          // The busy day's list, open over the month.
          await page.locator(".cal-more-button").first().click();
          await page.locator(".cal-day-popover").waitFor();
          faults.push(...(await seriousFindings(page)));
          await page.screenshot({ path: join(dir, `calendar-month-more-${width}${suffix}.png`) });
          await page.keyboard.press("Escape");
        }
        if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
          faults.push("the page scrolls sideways");
        }
        if (faults.length > 0) found[`${theme} ${view} ${width}`] = faults;
        await page.screenshot({ path: join(dir, `calendar-${view}-${width}${suffix}.png`), fullPage: true });
      }
    }
  }
  await setSetting(e2e.server, "pmColorMode", "system");
  console.log(`calendar screenshots in ${dir}`);
  expect(found).toEqual({});
  await context.close();
});
