/**
 * The shell in a real Chromium: the logged-out page, navigation, workspaces, inbox, settings and
 * dark mode; the sidebar's sections under their headings at 1440 and 390 px in both themes (axe
 * finds nothing serious); and the palette's everyday actions: "focus" starts focus mode, "theme"
 * switches the theme, "new recipe" opens the form, "run schedule" runs a schedule now.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";
import { seriousFindings } from "./axe";

const e2e = serverAndBrowser();

test("a visitor without the cookie is told how to log in", async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${e2e.server.uiUrl}/boards/anything`);
  await page.getByText("You are not logged in.").waitFor();
  expect(await page.locator("main").innerText()).toContain("switchboard serve");
  expect(await page.locator("nav").count()).toBe(0);
  await context.close();
});

test("a public dashboard link renders without a login", async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${e2e.server.uiUrl}/p/not-a-real-token`);
  // The public page itself answers (here: the link is unknown), not the login page.
  await page.getByRole("heading", { name: "Dashboard unavailable" }).waitFor();
  expect(await page.getByText("You are not logged in.").count()).toBe(0);
  await context.close();
});

test("the first workspace is made in the app, and every section is reachable", async () => {
  await e2e.server.api("POST", "/alert", { title: "Build finished", body: "All green." });
  // Until there is a workspace, the sidebar's form never takes the focus from what the user
  // types in on the page (here the board's search, typed into as the page opens).
  // The workspaces' read is held until then, so the form surely comes after the typing.
  const boardContext = await e2e.browser.newContext();
  const boardPage = await boardContext.newPage();
  let typed = () => {};
  const typing = new Promise<void>((resolve) => (typed = resolve));
  await boardPage.route(/\/api\/workspaces$/, async (route) => {
    await typing;
    await route.continue();
  });
  await boardPage.goto(`${e2e.server.uiUrl}/login?token=${encodeURIComponent(e2e.server.token)}&next=/sessions`);
  const search = boardPage.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("needle");
  typed();
  await boardPage
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("textbox", { name: "New workspace name" })
    .waitFor();
  expect(await search.inputValue()).toBe("needle");
  expect(await search.evaluate((e) => e === document.activeElement)).toBe(true);
  await boardContext.close();

  const { context, page } = await loggedInPage(e2e, "/boards");
  await page.getByRole("heading", { name: "Welcome" }).waitFor();
  // The page's own form is what the page is for: it has the focus.
  const welcome = page.locator("main").getByRole("textbox", { name: "New workspace name" });
  await expect.poll(() => welcome.evaluate((e) => e === document.activeElement)).toBe(true);
  await welcome.fill("Home");
  await page.locator("main").getByRole("button", { name: "Create" }).click();
  await page.getByRole("heading", { name: "Boards" }).waitFor();
  expect(await page.getByRole("combobox", { name: "Workspace" }).inputValue()).not.toBe("");

  await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "+ New workspace…" });
  const sidebar = page.getByRole("navigation", { name: "Sections", exact: true });
  // Asked for, the sidebar's form takes the focus.
  const sideField = sidebar.getByRole("textbox", { name: "New workspace name" });
  expect(await sideField.evaluate((e) => e === document.activeElement)).toBe(true);
  await sideField.fill("Side project");
  await sidebar.getByRole("button", { name: "Create", exact: true }).click();
  await page.locator(".page-head").getByText("Side project").waitFor();
  const workspaces = await e2e.server.api<{ name: string }[]>("GET", "/workspaces");
  expect(workspaces.body.map((w) => w.name).sort()).toEqual(["Home", "Side project"]);

  await page.getByRole("textbox", { name: "New board name" }).fill("Roadmap");
  await page.getByRole("button", { name: "Create board" }).click();
  await page.getByRole("heading", { name: "Roadmap" }).waitFor();
  expect(new URL(page.url()).pathname).toMatch(/^\/boards\/.+/);

  const nav = sidebar;
  await nav.getByRole("link", { name: "Inbox", exact: true }).click();
  await page.getByText("Build finished").waitFor();
  await nav.getByRole("link", { name: "Agents", exact: true }).click();
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  await nav.getByRole("link", { name: "Dashboards", exact: true }).click();
  await page.getByRole("heading", { name: "Dashboards" }).waitFor();
  await nav.getByRole("link", { name: "Boards", exact: true }).click();
  await page.getByRole("link", { name: /Roadmap/ }).waitFor();
  await page.goBack();
  await page.getByRole("heading", { name: "Dashboards" }).waitFor();
  await context.close();
});

test("dark mode set on the settings page is applied and kept; a refused value is shown", async () => {
  const { context, page } = await loggedInPage(e2e, "/settings");
  await page.getByRole("searchbox", { name: "Filter settings" }).fill("pmColorMode");
  await page.getByRole("combobox", { name: "Board theme" }).selectOption("dark");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe("rgb(24, 27, 35)");
  expect((await e2e.server.api<{ value: string }>("GET", "/settings/pmColorMode")).body.value).toBe("dark");

  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");

  await page.getByRole("searchbox", { name: "Filter settings" }).fill("pmColorMode");
  await page.getByRole("combobox", { name: "Board theme" }).selectOption("light");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(246, 247, 251)");

  await page.getByRole("searchbox", { name: "Filter settings" }).fill("agentDrivenMaxConcurrent");
  const field = page.getByRole("spinbutton", { name: "Most agent-driven sessions at once" });
  await field.fill("99");
  await field.press("Enter");
  const refusal = page.locator('[data-setting="agentDrivenMaxConcurrent"]').getByRole("alert");
  await refusal.waitFor();
  expect(await refusal.innerText()).toMatch(/0 to 10/);
  expect((await e2e.server.api<{ value: number }>("GET", "/settings/agentDrivenMaxConcurrent")).body.value).toBe(3);
  await context.close();
});

test("the settings navigation offers the listed sections and scrolls to the one chosen", async () => {
  const { context, page } = await loggedInPage(e2e, "/settings");
  const nav = page.getByRole("navigation", { name: "Settings sections" });
  const alarms = nav.getByRole("link", { name: "Alarms", exact: true });
  await alarms.click();
  expect(new URL(page.url()).hash).toBe("#inbox-notifications-alarms");
  const section = page.locator('[data-pane="inbox-notifications-alarms"]');
  await expect.poll(() => section.evaluate((el) => Math.abs(el.getBoundingClientRect().top))).toBeLessThan(100);
  expect(await alarms.getAttribute("aria-current")).toBe("true");
  expect(await nav.getByRole("link", { name: "Agent control", exact: true }).getAttribute("aria-current")).toBeNull();

  // Only sections with a key the filter keeps are offered.
  await page.getByRole("searchbox", { name: "Filter settings" }).fill("control server");
  await alarms.waitFor({ state: "detached" });
  await nav.getByRole("link", { name: "Agent control", exact: true }).waitFor();

  // A narrow window has a menu in place of the links, and it does the same.
  await page.getByRole("searchbox", { name: "Filter settings" }).fill("");
  await page.setViewportSize({ width: 390, height: 800 });
  const menu = nav.getByRole("combobox", { name: "Go to section" });
  await menu.selectOption("sessions-agents-agent-control");
  expect(new URL(page.url()).hash).toBe("#sessions-agents-agent-control");
  const agentControl = page.locator('[data-pane="sessions-agents-agent-control"]');
  await expect.poll(() => agentControl.evaluate((el) => Math.abs(el.getBoundingClientRect().top))).toBeLessThan(120);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

test("turning the control server off asks first: Cancel keeps it on, and the confirmed change is saved", async () => {
  const stored = async () => (await e2e.server.api<{ value: boolean }>("GET", "/settings/cliServerEnabled")).body.value;
  const { context, page } = await loggedInPage(e2e, "/settings");
  await page.getByRole("searchbox", { name: "Filter settings" }).fill("cliServerEnabled");
  const toggle = page.getByRole("checkbox", { name: "Control server", exact: true });
  expect(await toggle.isChecked()).toBe(true);
  const confirm = page.getByRole("dialog", { name: "Turn the control server off?" });

  await toggle.click();
  await confirm.waitFor();
  expect(await confirm.innerText()).toContain("scripts and agent sessions can no longer reach");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await confirm.waitFor({ state: "detached" });
  expect(await toggle.isChecked()).toBe(true);
  expect(await stored()).toBe(true);

  await toggle.click();
  await confirm.getByRole("button", { name: "Turn it off" }).click();
  await confirm.waitFor({ state: "detached" });
  await expect.poll(stored).toBe(false);
  await expect.poll(() => toggle.isChecked()).toBe(false);

  // Turning it back on asks nothing.
  await toggle.click();
  await expect.poll(stored).toBe(true);
  await expect.poll(() => toggle.isChecked()).toBe(true);
  expect(await confirm.count()).toBe(0);
  await context.close();
});

test("settings with no effect yet are hidden until asked for", async () => {
  const { context, page } = await loggedInPage(e2e, "/settings");
  const rows = page.locator("[data-setting]");
  const storedOnly = page.locator(".setting-stored-only");
  await rows.first().waitFor();
  const shown = await rows.count();
  expect(await storedOnly.count()).toBe(0);
  const reveal = page.getByRole("checkbox", { name: /Show settings that have no effect yet/ });
  await reveal.check();
  await storedOnly.first().waitFor();
  const hidden = await storedOnly.count();
  expect(hidden).toBeGreaterThan(0);
  expect(await rows.count()).toBe(shown + hidden);
  await page.getByText(`Show settings that have no effect yet (${hidden})`).waitFor();
  await reveal.uncheck();
  await storedOnly.first().waitFor({ state: "detached" });
  expect(await rows.count()).toBe(shown);
  await context.close();
});

test("an unknown session's page says so and leads back, with no retry", async () => {
  const { context, page } = await loggedInPage(e2e, "/sessions/0000000000000000000000000000dead");
  const note = page.getByRole("alert");
  const back = note.getByRole("link", { name: "Back to the start page" });
  await back.waitFor();
  expect(await note.getByRole("button", { name: "Try again" }).count()).toBe(0);
  await back.click();
  await page.waitForURL(`${e2e.server.uiUrl}/`);
  await context.close();
});

test("density from the settings sets the board's row height", async () => {
  const workspace = await e2e.server.api<{ id: string }>("POST", "/workspaces", { name: "Density" });
  const board = await e2e.server.api<{ id: string; groups: { id: string }[] }>("POST", "/boards", {
    workspaceId: workspace.body.id,
    name: "Rows",
    columns: [{ id: "t", title: "T", type: "text" }],
  });
  await e2e.server.api("POST", `/boards/${board.body.id}/items`, { name: "One" });
  const heights: Record<string, number> = {};
  for (const density of ["dense", "spacious"]) {
    await e2e.server.api("PATCH", "/settings/pmBoardDensity", { value: density });
    const { context, page } = await loggedInPage(e2e, `/boards/${board.body.id}`);
    await page.waitForFunction((d) => document.documentElement.dataset.density === d, density);
    heights[density] = await page
      .locator("[data-item-id]")
      .first()
      .evaluate((el) => el.getBoundingClientRect().height);
    await context.close();
  }
  expect(heights).toEqual({ dense: 28, spacious: 48 });
});

test("the dashboard page takes the app's theme, not the system's", async () => {
  const workspace = await e2e.server.api<{ id: string }>("POST", "/workspaces", { name: "Themed" });
  const dashboard = await e2e.server.api<{ id: string }>("POST", "/dashboards", {
    workspaceId: workspace.body.id,
    name: "Themed",
    config: { boardIds: [], widgets: [], filters: {} },
  });
  expect(dashboard.status).toBe(201);
  expect((await e2e.server.api("PATCH", "/settings/pmColorMode", { value: "light" })).status).toBe(200);
  const { context, page } = await loggedInPage(e2e, "/");
  await page.emulateMedia({ colorScheme: "dark" });
  const reads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "GET" && r.url().endsWith(`/api/dashboards/${dashboard.body.id}`)) reads.push(r.url());
  });
  await page.goto(`${e2e.server.uiUrl}/dashboards/${dashboard.body.id}`);
  await page.locator(".dash-page[data-dashboard-id]").waitFor();
  // The page and its worker share one read of the dashboard.
  expect(reads).toHaveLength(1);
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  const background = await page.evaluate(
    () => getComputedStyle(document.querySelector(".dash-page") as Element).backgroundColor,
  );
  expect(background).toBe("rgb(246, 247, 251)");

  // A dashboard that does not exist (read once, by its worker) says so.
  await page.goto(`${e2e.server.uiUrl}/dashboards/no-such-dashboard`);
  await page.getByRole("heading", { name: "Dashboard not found" }).waitFor();
  await context.close();
});

const GROUPS = {
  "Agents and work": ["Agents", "Inbox", "Work", "Running apps", "Runners"],
  "Mail and reading": ["Feeds"],
  Planning: ["Boards", "Dashboards", "Calendar", "Team time", "Meeting rooms", "Tasks"],
  Automation: ["Automations", "Scheduled messages", "Drips"],
  System: ["Ask", "Settings"],
};

test("the sidebar lists the sections under headings, at 1440 and 390 px in both themes", async () => {
  const shots = process.env.SHELL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "shell-shots-"));
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  const nav = page.getByRole("navigation", { name: "Sections", exact: true });
  const findings: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    await setSetting(e2e.server, "pmColorMode", theme);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(`${e2e.server.uiUrl}/scheduled-messages`);
      await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
      if (width === 390) {
        // The top bar, with agentStatusBoardEnabled's "Agents" link (on by default).
        await page.locator(".topbar").getByRole("link", { name: "Agents", exact: true }).waitFor();
        await page.screenshot({ path: join(shots, `topbar-390-${theme}.png`) });
        await page.getByRole("button", { name: "Menu" }).click();
      }
      await nav.waitFor({ state: "visible" });
      // Each heading names its list, so a screen reader says "Planning, list, 4 items".
      const headings = await nav.getByRole("heading", { level: 2 }).allTextContents();
      expect(headings.filter((h) => h in GROUPS)).toEqual(Object.keys(GROUPS));
      for (const [heading, labels] of Object.entries(GROUPS)) {
        const links = await nav.getByRole("list", { name: heading, exact: true }).getByRole("link").allTextContents();
        // Inbox's link carries its unread count.
        expect(
          links.map((text) => text.replace(/\d+$/, "")),
          heading,
        ).toEqual(labels);
      }
      expect(await nav.getByRole("link", { name: "Scheduled messages" }).getAttribute("aria-current")).toBe("page");
      // The everyday actions come before the sections: focus and the pomodoro are not at the foot.
      const top = async (name: string) => {
        const button = nav.getByRole("button", { name, exact: true });
        await button.waitFor();
        return (await button.boundingBox())?.y ?? Infinity;
      };
      const firstSection = (await nav.getByRole("link", { name: "Agents", exact: true }).boundingBox())?.y ?? 0;
      expect(await top("Start pomodoro")).toBeLessThan(firstSection);
      expect(await top("Focus")).toBeLessThan(firstSection);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const found = await seriousFindings(page);
      if (found.length > 0) findings[`${theme} ${width}`] = found;
      await page.screenshot({ path: join(shots, `sidebar-${width}-${theme}.png`) });
      if (width === 390) {
        await nav.getByRole("link", { name: "Drips", exact: true }).click();
        await page.getByRole("heading", { name: "Drips", level: 1 }).waitFor();
        await nav.waitFor({ state: "hidden" });
      }
    }
  }
  await setSetting(e2e.server, "pmColorMode", "system");
  expect(findings).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});

test("the palette starts focus, switches the theme, opens a new recipe and runs a schedule now", async () => {
  const shots = process.env.SHELL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "shell-shots-"));
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
  await setSetting(e2e.server, "pmColorMode", "light");
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
  const box = page.getByRole("combobox", { name: "Page, session, board, dashboard or action" });
  const firstMatch = page.getByRole("listbox", { name: "Matches" }).getByRole("option").first();
  const choose = async (typed: string, first: string | RegExp) => {
    await page.keyboard.press("Control+k");
    await box.fill(typed);
    await firstMatch.filter({ hasText: first }).waitFor();
    await box.press("Enter");
    await box.waitFor({ state: "detached" });
  };

  await choose("focus", "Start focus");
  const pill = page.getByRole("group", { name: "Focus" }).getByRole("button", { name: /^Focus/ });
  await expect.poll(() => pill.getAttribute("aria-pressed")).toBe("true");
  expect((await e2e.server.api<{ on: boolean }>("GET", "/focus")).body.on).toBe(true);
  await choose("focus", "Stop focus");
  await expect.poll(() => pill.getAttribute("aria-pressed")).toBe("false");

  await choose("pomodoro", "Start a pomodoro");
  await page.getByRole("timer").filter({ hasText: "Focus 1/4" }).waitFor();
  await choose("stop pomodoro", "Stop the pomodoro");
  await page.getByRole("button", { name: "Start pomodoro" }).waitFor();

  await choose("theme", "Switch to dark theme");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
  await choose("theme", "Switch to light theme");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");

  await choose("new recipe", "New recipe");
  await page.getByRole("dialog", { name: "New recipe" }).getByLabel("Name").waitFor();
  expect(new URL(page.url()).pathname).toBe("/automations");
  await page.keyboard.press("Escape");
  await page.getByRole("dialog", { name: "New recipe" }).waitFor({ state: "detached" });

  const recipe = await e2e.server.api<{ id: string }>("POST", "/recipes", {
    name: "Nightly notes",
    engine: "echo",
    prompt: "Summarise {{topic}}",
    cwd: e2e.server.scratchDir,
  });
  expect(recipe.status, JSON.stringify(recipe.body)).toBe(201);
  const schedule = await e2e.server.api("POST", "/schedules", {
    recipeId: recipe.body.id,
    cron: "0 3 * * *",
    timeZone: "UTC",
    values: { topic: "the release" },
  });
  expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
  await page.keyboard.press("Control+k");
  await box.fill("run schedule");
  await firstMatch.filter({ hasText: "Nightly notes" }).waitFor();
  await page.screenshot({ path: join(shots, "palette-run-schedule-1440.png") });
  await page.keyboard.press("Escape");
  await choose("run schedule nightly", /Run schedule now: Nightly notes, every day at 03:00/);
  await page.waitForURL((url) => url.pathname.startsWith("/sessions/"));
  await page.getByRole("log", { name: "Transcript" }).getByText("Summarise the release").first().waitFor();

  // Every page of the sidebar is in the palette, found by its title.
  for (const label of Object.values(GROUPS).flat()) {
    await page.keyboard.press("Control+k");
    await box.fill(label.toLowerCase());
    await firstMatch.filter({ hasText: label }).waitFor();
    await page.keyboard.press("Escape");
    await box.waitFor({ state: "detached" });
  }
  await setSetting(e2e.server, "pmColorMode", "system");
  expect(errors).toEqual([]);
  await context.close();
});
