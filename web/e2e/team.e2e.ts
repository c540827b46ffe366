/**
 * Team time, Meeting rooms and the board module's switch (issue 71) against a real server: the
 * planner finds a week's shared hours for New York, London and São Paulo across New York's spring
 * change (the browser in UTC and en-GB, so the hours read the same anywhere), Meeting rooms saves a
 * link and makes a Jitsi room, Ctrl+Shift+Z opens it, and each switch off hides its pages (the
 * data kept) and on brings them back. Every page passes axe at 1440 and 390 px in both themes.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import type { MeetingRoom, TeamPerson } from "../src/shared/api/types.generated";
import { everyLook } from "./axe";
import { consoleErrors, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();
const shots = process.env.TEAM_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "team-shots-"));

async function openAt(next: string) {
  const context = await e2e.browser.newContext({
    viewport: { width: 1440, height: 900 },
    timezoneId: "UTC",
    locale: "en-GB",
  });
  const page = await context.newPage();
  const { uiUrl, token } = e2e.server;
  await page.goto(`${uiUrl}/login?token=${encodeURIComponent(token)}&next=${encodeURIComponent(next)}`);
  return { context, page };
}

const sidebar = (page: Page) => page.getByRole("navigation", { name: "Sections" });

async function addPerson(name: string, zone: string) {
  const reply = await e2e.server.api<TeamPerson>("POST", "/team/people", { name, zone });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
}

test("the planner finds a week's shared hours across three zones over a daylight-saving change", async () => {
  await addPerson("Nia", "America/New_York");
  await addPerson("Leo", "Europe/London");
  await addPerson("Sol", "America/Sao_Paulo");
  const { context, page } = await openAt("/team");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Team time", level: 1 }).waitFor();
  await page.getByRole("heading", { name: "World clock" }).waitFor();
  // The owner's own account is among the people, as a workspace member.
  await expect.poll(() => page.locator(".team-person").count()).toBe(4);

  const planner = page.getByRole("region", { name: "Meeting planner" });
  await planner.getByLabel("Week from").fill("2026-03-05");
  // Only the three: the owner (UTC, 9 to 5) leaves the meeting.
  const owner = (await e2e.server.api<{ people: TeamPerson[] }>("GET", "/team/people")).body.people.find(
    (p) => p.memberAccountId,
  );
  await planner.getByRole("checkbox", { name: owner?.name ?? "", exact: true }).uncheck();
  const windows = planner.getByRole("list", { name: "Hours that suit everyone" }).locator("strong");
  await expect
    .poll(() => windows.allTextContents())
    .toEqual([
      "Thu 5 Mar 14:00–17:00",
      "Fri 6 Mar 14:00–17:00",
      // New York moved to summer time on Sunday the 8th: one more shared hour.
      "Mon 9 Mar 13:00–17:00",
      "Tue 10 Mar 13:00–17:00",
      "Wed 11 Mar 13:00–17:00",
    ]);
  const monday = planner.locator(".team-window").nth(2);
  expect(await monday.textContent()).toContain("Nia Mon 09:00–13:00");
  expect(await monday.textContent()).toContain("Sol Mon 10:00–14:00");

  expect(await everyLook(e2e.server, page, "team", shots)).toEqual({});

  // Off: the entry leaves the sidebar and the page says why; the people are kept.
  await setSetting(e2e.server, "teamTimeEnabled", false);
  await sidebar(page).getByRole("link", { name: "Team time" }).waitFor({ state: "detached" });
  await page.getByText("is off: this page is hidden").waitFor();
  await setSetting(e2e.server, "teamTimeEnabled", true);
  await sidebar(page).getByRole("link", { name: "Team time" }).waitFor();
  await expect.poll(() => page.locator(".team-person").count()).toBe(4);
  expect(errors).toEqual([]);
  await context.close();
});

test("meeting rooms save links and Jitsi rooms, open with Ctrl+Shift+Z, and stay while hidden", async () => {
  const { context, page } = await openAt("/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  // The shortcut waits for the settings to be read, which the heading does not.
  await expect
    .poll(async () => {
      await page.keyboard.press("Control+Shift+Z");
      return new URL(page.url()).pathname;
    })
    .toBe("/meeting-rooms");
  await page.getByRole("heading", { name: "Meeting rooms", level: 1 }).waitFor();

  const form = page.getByRole("form", { name: "Save a room" });
  await form.getByLabel("Name").fill("Stand-up");
  await form.getByLabel("Link").fill("https://zoom.us/j/123");
  await form.getByRole("button", { name: "Save room" }).click();
  await page.getByRole("link", { name: "Stand-up" }).waitFor();
  await page.getByRole("button", { name: "Make a Jitsi room" }).click();
  const jitsi = page.getByRole("link", { name: "Jitsi room" });
  await jitsi.waitFor();
  expect(await jitsi.getAttribute("href")).toMatch(/^https:\/\/meet\.jit\.si\/Switchboard[A-Za-z0-9]{20}$/);
  expect(await page.getByRole("link", { name: "Stand-up" }).getAttribute("target")).toBe("_blank");

  expect(await everyLook(e2e.server, page, "meeting-rooms", shots)).toEqual({});

  // Off: no sidebar entry, no shortcut; the rooms are kept.
  await setSetting(e2e.server, "meetingRoomsEnabled", false);
  await sidebar(page).getByRole("link", { name: "Meeting rooms" }).waitFor({ state: "detached" });
  await page.goto(`${e2e.server.uiUrl}/inbox`);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+Shift+Z");
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe("/inbox");
  const kept = await e2e.server.api<{ rooms: MeetingRoom[] }>("GET", "/meeting-rooms");
  expect(kept.body.rooms.map((r) => r.name)).toEqual(["Jitsi room", "Stand-up"]);

  await setSetting(e2e.server, "meetingRoomsEnabled", true);
  await sidebar(page).getByRole("link", { name: "Meeting rooms" }).click();
  await page.getByRole("link", { name: "Stand-up" }).waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

test("the board module hides everywhere with projectBoardsEnabled off and comes back on", async () => {
  const { context, page } = await openAt("/boards");
  const errors = consoleErrors(page);
  const nav = sidebar(page);
  for (const name of ["Boards", "Dashboards", "Calendar"]) {
    await nav.getByRole("link", { name, exact: true }).waitFor();
  }

  await setSetting(e2e.server, "projectBoardsEnabled", false);
  for (const name of ["Boards", "Dashboards", "Calendar"]) {
    await nav.getByRole("link", { name, exact: true }).waitFor({ state: "detached" });
  }
  await page.getByText("Project boards").first().waitFor();
  await page.getByText("is off: this page is hidden").waitFor();
  // The palette offers none of them either.
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog");
  await palette.getByRole("combobox").fill("Dashboards");
  await page.waitForTimeout(200);
  expect(await palette.getByRole("option", { name: /Dashboards/ }).count()).toBe(0);
  await page.keyboard.press("Escape");
  // The API keeps serving the data.
  expect((await e2e.server.api("GET", "/boards")).status).toBe(200);

  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole("button", { name: "Menu" }).click();
  expect(await nav.getByRole("link", { name: "Boards", exact: true }).count()).toBe(0);
  await nav.getByRole("link", { name: "Team time" }).waitFor();
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1440, height: 900 });

  await setSetting(e2e.server, "projectBoardsEnabled", true);
  for (const name of ["Boards", "Dashboards", "Calendar"]) {
    await nav.getByRole("link", { name, exact: true }).waitFor();
  }
  await page.getByText("is off: this page is hidden").waitFor({ state: "detached" });
  expect(errors).toEqual([]);
  await context.close();
});
