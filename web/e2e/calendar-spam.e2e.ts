/**
 * Spam invitations on the Calendar page against a real CalDAV server (Radicale from
 * `target/radicale`, `make calendar-deps`): the user's organization is the CalDAV user name's
 * domain; with the filter on an outside invitation is not drawn and with it off it is; a
 * colleague's invitation's details name its organizer and "Mark as spam" (with deletion on)
 * takes it off the page and off the server; "Spam invitations" lists it in the trash, and Restore
 * puts it back on the server and on the page. The panel passes axe-core (no serious or critical
 * violation) and does not scroll sideways at 1440 and 390 px in both themes, where it is
 * photographed (`CALENDAR_SCREENSHOTS=<dir>`, else a temporary folder).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { everyLook, WIDTHS } from "./axe";
import { consoleErrors, freePort, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();
const PYTHON = resolve(import.meta.dirname, "../../target/radicale/bin/python");
const USER = "ada@work.example";
const PASSWORD = "rig-secret-4711";
const auth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

let radicale: ChildProcess | undefined;
let base = "";

const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1");
  });

/** A request of the user's on the CalDAV server: its status. */
async function dav(method: string, path: string, body?: string, type = "text/calendar; charset=utf-8") {
  const reply = await fetch(`${base}${encodeURIComponent(USER)}/${path}`, {
    method,
    headers: { Authorization: auth, ...(body ? { "Content-Type": type } : {}) },
    body,
  });
  return reply.status;
}

/** An event tomorrow at `hour` UTC, organized by `organizer`. */
function invite(uid: string, title: string, hour: number, organizer: string): string {
  const start = new Date();
  start.setUTCDate(start.getUTCDate() + 1);
  start.setUTCHours(hour, 0, 0, 0);
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//e2e//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(new Date(start.getTime() + 3_600_000))}`,
    `SUMMARY:${title}`,
    `ORGANIZER:mailto:${organizer}`,
    `ATTENDEE:mailto:${USER}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

beforeAll(async () => {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`make calendar-deps\``);
  const dir = mkdtempSync(join(tmpdir(), "radicale-e2e-"));
  const port = await freePort();
  writeFileSync(join(dir, "users"), `${USER}:${PASSWORD}\n`);
  writeFileSync(
    join(dir, "config"),
    [
      "[server]",
      `hosts = 127.0.0.1:${port}`,
      "[auth]",
      "type = htpasswd",
      `htpasswd_filename = ${join(dir, "users")}`,
      "htpasswd_encryption = plain",
      "delay = 0",
      "[rights]",
      "type = owner_only",
      "[storage]",
      `filesystem_folder = ${join(dir, "collections")}`,
      "[logging]",
      "level = warning",
      "",
    ].join("\n"),
  );
  radicale = spawn(PYTHON, ["-m", "radicale", "--config", join(dir, "config")], { stdio: "ignore" });
  await until(
    () => listening(port),
    (up) => up,
  );
  base = `http://127.0.0.1:${port}/`;
  const calendar = `<?xml version="1.0" encoding="utf-8"?>
<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Work</d:displayname></d:prop></d:set></c:mkcalendar>`;
  expect(await dav("MKCALENDAR", "work/", calendar, "application/xml")).toBe(201);
  expect(await dav("PUT", "work/pest.ics", invite("pest", "Buy our tool", 9, "pest@work.example"))).toBe(201);
  expect(await dav("PUT", "work/prize.ics", invite("prize", "You won", 11, "win@prizes.example"))).toBe(201);
  expect(await dav("PUT", "work/team.ics", invite("team", "Team sync", 13, "bob@work.example"))).toBe(201);
  expect(await dav("PUT", "work/mine.ics", invite("mine", "Ada's review", 15, USER))).toBe(201);

  await setSetting(e2e.server, "calendarEnabled", true);
  await setSetting(e2e.server, "spamFilterCalendarDeleteEvent", true);
  const account = await e2e.server.api<{ id: string }>("POST", "/calendars", {
    kind: "caldav",
    url: base,
    username: USER,
    password: PASSWORD,
    name: "Radicale",
  });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  const synced = await e2e.server.api("POST", `/calendars/${account.body.id}/sync`);
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
});

afterAll(() => {
  radicale?.kill();
});

const chip = (page: Page, uid: string) => page.locator(`.cal-entry[data-uid="${uid}"]`);

async function openAgenda(page: Page): Promise<void> {
  await page.goto(`${e2e.server.uiUrl}/calendar`);
  await page.getByRole("heading", { name: "Calendar", level: 1 }).waitFor();
  await page.getByRole("tab", { name: "Agenda" }).click();
  await chip(page, "team").waitFor();
}

test("an outside invitation is hidden while the filter is on, shown while it is off", async () => {
  const { context, page } = await loggedInPage(e2e, "/calendar");
  const errors = consoleErrors(page);
  await openAgenda(page);
  expect(await chip(page, "pest").count()).toBe(1);
  expect(await chip(page, "prize").count()).toBe(0);
  await setSetting(e2e.server, "spamFilterCalendarEnabled", false);
  await openAgenda(page);
  await chip(page, "prize").waitFor();
  await setSetting(e2e.server, "spamFilterCalendarEnabled", true);
  await openAgenda(page);
  expect(await chip(page, "prize").count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});

test("marking an invitation spam deletes it on the server into the trash; Restore brings it back", async () => {
  const { context, page } = await loggedInPage(e2e, "/calendar");
  await openAgenda(page);
  await chip(page, "pest").click();
  const details = page.getByRole("dialog", { name: "Buy our tool" });
  await details.getByText("pest@work.example").waitFor();
  await details.getByRole("button", { name: "Mark as spam" }).click();
  await page.getByText(/pest@work.example is marked spam; 1 invitation deleted/).waitFor();
  await chip(page, "pest").waitFor({ state: "detached" });
  expect(await dav("GET", "work/pest.ics")).toBe(404);

  const panel = page.locator(".cal-spam");
  await panel.locator("summary").click();
  const trashed = panel.getByRole("listitem").filter({ hasText: "Buy our tool" });
  await trashed.waitFor();
  await panel.getByRole("listitem").filter({ hasText: "pest@work.example" }).first().waitFor();
  await panel.getByText("From your addresses: work.example.").waitFor();
  await trashed.getByRole("button", { name: "Restore" }).click();
  await chip(page, "pest").waitFor();
  await trashed.waitFor({ state: "detached" });
  expect(await dav("GET", "work/pest.ics")).toBe(200);

  // The team's invitation has the button; the details of the user's own events have none.
  await chip(page, "team").click();
  const team = page.getByRole("dialog", { name: "Team sync" });
  await team.getByRole("button", { name: "Mark as spam" }).waitFor();
  await team.getByRole("button", { name: "Close" }).click();
  await chip(page, "mine").click();
  const mine = page.getByRole("dialog", { name: "Ada's review" });
  await mine.getByText(USER).waitFor();
  expect(await mine.getByRole("button", { name: "Mark as spam" }).count()).toBe(0);
  await mine.getByRole("button", { name: "Close" }).click();
  await context.close();
});

test("the spam panel passes axe and fits 1440 and 390 px in both themes; screenshots", async () => {
  const dir = process.env.CALENDAR_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "calendar-spam-shots-"));
  const { context, page } = await loggedInPage(e2e, "/calendar");
  await openAgenda(page);
  const panel = page.locator(".cal-spam");
  await panel.locator("summary").click();
  await panel.getByRole("heading", { name: "Your organization" }).waitFor();
  await panel.scrollIntoViewIfNeeded();
  expect(await everyLook(e2e.server, page, "calendar-spam", dir)).toEqual({});
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(sideways, `sideways scrolling at ${width} px`).toBe(false);
  }
  await context.close();
  console.log(`calendar spam screenshots in ${dir}`);
});
