/** The shell in a real Chromium: the logged-out page, navigation, workspaces, inbox, settings and dark mode. */
import { expect, test } from "vitest";
import { loggedInPage, serverAndBrowser } from "./harness";

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
  await page.getByRole("heading", { name: "Agents" }).waitFor();
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
