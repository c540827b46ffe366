/**
 * Running apps against a real server and real dev servers. With none, the page says how an app
 * appears and names the proxy. An app started for a session (Python's `http.server`, through
 * `POST /apps`) is listed without a reload, by its session, with its command and port; its Open
 * link opens it in a new tab at its `.localhost` name through the proxy, and its content arrives;
 * its last lines show the request; the session's page lists it too, and starts what the folder's
 * `apps.toml` declares and is not listed, and stops it. Both pages pass axe-core at
 * 1440 and 390 px in both themes. Stop ends it: the page says it exited and no longer offers it,
 * and the proxy no longer serves it. A hot reload arrives over the proxy's WebSocket: the
 * repository's own Vite, serving a folder through the proxy, swaps a changed module into the open
 * page without a navigation.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { beforeAll, expect, test } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import type { AppsProxy, RunningApp } from "../src/shared/apps/api";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, waitForStatus } from "./harness";

const e2e = serverAndBrowser();

/** The repository's own Vite, as `npm run dev` in web/ runs it. */
const VITE = resolve(import.meta.dirname, "../node_modules/.bin/vite");

beforeAll(() => {
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
});

/** A folder for a session to work in, with `files` written into it. */
function folder(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(e2e.server.scratchDir, `${name}-`)), name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

/** A session of the echo engine in `cwd`, started from `page` as the browser does, once its turn is done; its id. */
async function startSession(page: Page, cwd: string, title: string): Promise<string> {
  const reply = await page.evaluate(
    async (body) => {
      const r = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as { id: string } };
    },
    { engine: "echo", prompt: "Serve the folder", cwd, title },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  await waitForStatus(e2e.server, reply.body.id, "waiting_for_input");
  return reply.body.id;
}

/** `POST /apps` from `page`, as the session page's Start does: the app as started. */
async function startApp(page: Page, body: { sessionId: string; name: string; command: string }): Promise<RunningApp> {
  const reply = await page.evaluate(async (request) => {
    const r = await fetch("/api/apps", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    return { status: r.status, body: (await r.json()) as unknown };
  }, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as RunningApp;
}

/**
 * Clicks the app's Open link and waits in the tab it opens until `text` arrives: a dev server
 * takes a moment to listen, and until then the proxy answers that it is not serving yet.
 */
async function openInNewTab(context: BrowserContext, row: ReturnType<Page["locator"]>, app: RunningApp, text: string) {
  const link = row.getByRole("link", { name: `Open ${app.name}` });
  expect(await link.getAttribute("href")).toBe(app.url);
  expect(await link.getAttribute("target")).toBe("_blank");
  expect(await link.getAttribute("rel")).toBe("noopener");
  const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
  const deadline = Date.now() + 30_000;
  await tab.waitForLoadState();
  while (!((await tab.textContent("body").catch(() => null)) ?? "").includes(text)) {
    if (Date.now() > deadline) throw new Error(`${app.url} never showed "${text}"`);
    await new Promise((r) => setTimeout(r, 250));
    await tab.reload().catch(() => undefined);
  }
  return tab;
}

test("an app started for a session is listed, opens through the proxy in a new tab, and stops", async () => {
  const { server } = e2e;
  const proxy = await server.api<AppsProxy>("GET", "/apps/proxy");
  expect(proxy.status).toBe(200);
  const { context, page } = await loggedInPage(e2e, "/apps");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Running apps", level: 1 }).waitFor();
  expect(await page.title()).toBe("Running apps · Switchboard");
  const sidebar = page.getByRole("navigation", { name: "Sections" });
  expect(await sidebar.getByRole("link", { name: "Running apps", exact: true }).getAttribute("aria-current")).toBe(
    "page",
  );
  const empty = page.locator(".apps-empty");
  await empty.getByText("No running apps yet.").waitFor();
  await empty.locator("code", { hasText: proxy.body.url }).waitFor();
  expect(await empty.textContent()).toContain("switchboard apps start NAME");

  const site = folder("site", {
    "index.html": "<!doctype html><title>Site</title><h1>Served through the proxy</h1>\n",
    ".switchboard/apps.toml": `[apps.site]\ncommand = "python3 -m http.server $PORT --bind 127.0.0.1"\n\n[apps.docs]\ncommand = "python3 -m http.server $PORT --bind 127.0.0.1"\n`,
  });
  const sessionId = await startSession(page, site, "Serve the site");
  const app = await startApp(page, {
    sessionId,
    name: "site",
    command: "python3 -m http.server $PORT --bind 127.0.0.1",
  });
  expect(app).toMatchObject({ sessionId, state: "running", origin: "started" });
  expect(new URL(app.url).host).toBe(`${app.name}.localhost:${proxy.body.port}`);

  // The stream's `apps` event brings it: no reload.
  const row = page.locator(`tr[data-app="${app.name}"]`);
  await row.waitFor();
  expect(await row.locator(".pill").textContent()).toBe("Running");
  expect(await row.textContent()).toContain("python3 -m http.server $PORT --bind 127.0.0.1");
  expect(await row.textContent()).toContain(String(app.port));
  const group = page.locator(`tbody[data-session="${sessionId}"]`);
  expect(await group.getByRole("link", { name: "Serve the site" }).getAttribute("href")).toBe(`/sessions/${sessionId}`);
  expect(await page.locator(".apps-page .page-head").textContent()).toContain("1 running");

  const tab = await openInNewTab(context, row, app, "Served through the proxy");
  expect(new URL(tab.url()).host).toBe(`${app.name}.localhost:${proxy.body.port}`);

  // The request the tab made is in the app's last lines, read again while they are open.
  await row.getByRole("button", { name: `Last lines of ${app.name}` }).click();
  await page.locator(".app-output-lines").filter({ hasText: '"GET / HTTP/1.1" 200' }).waitFor({ timeout: 15_000 });

  // The session's page lists it, with Open and Stop.
  await page.goto(`${server.uiUrl}/sessions/${sessionId}`);
  const listed = page.locator(`.session-apps [data-app="${app.name}"]`);
  await listed.waitFor();
  expect(await listed.locator(".pill").textContent()).toBe("Running");
  expect(await listed.getByRole("link", { name: `Open ${app.name}` }).getAttribute("href")).toBe(app.url);
  expect(await listed.getByRole("button", { name: `Stop ${app.name}` }).count()).toBe(1);
  // Of what apps.toml declares, only what is not listed is offered: docs, not site.
  const section = page.locator(".session-apps");
  expect(await section.getByRole("button", { name: /^Start / }).allTextContents()).toEqual(["Start docs"]);
  await section.getByRole("button", { name: "Start docs" }).click();
  const docs = section.locator('[data-app="docs"][data-state="running"]');
  await docs.waitFor();
  expect(await section.getByRole("button", { name: /^Start / }).count()).toBe(0);
  await docs.getByRole("button", { name: "Stop docs" }).click();
  await section.locator('[data-app="docs"][data-state="exited"]').waitFor();
  expect(await section.getByRole("button", { name: "Restart docs" }).count()).toBe(1);
  const shots = process.env.APPS_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "apps-shots-"));
  expect(await everyLook(server, page, "session-apps", shots)).toEqual({});

  await page.goto(`${server.uiUrl}/apps`);
  await row.waitFor();
  expect(await everyLook(server, page, "apps", shots)).toEqual({});

  await row.getByRole("button", { name: `Stop ${app.name}` }).click();
  const exited = page.locator(`tr[data-app="${app.name}"][data-state="exited"]`);
  await exited.waitFor();
  expect(await exited.locator(".pill").textContent()).toMatch(/^Exited/);
  expect(await exited.getByRole("link", { name: `Open ${app.name}` }).count()).toBe(0);
  expect(await exited.getByRole("button", { name: `Restart ${app.name}` }).count()).toBe(1);
  expect(await page.locator(".apps-page .page-head").textContent()).toContain("none running");

  // The proxy serves it no more.
  const after = await tab.reload();
  expect(after?.status()).not.toBe(200);
  expect(await tab.textContent("body")).not.toContain("Served through the proxy");
  expect(errors).toEqual([]);
  await context.close();
});

test("a hot reload arrives through the proxy's WebSocket: the changed module swaps in, no navigation", async () => {
  const hot = folder("hot", {
    "index.html":
      '<!doctype html><title>Hot</title><p id="out">loading</p><script type="module" src="/main.js"></script>\n',
    "main.js": 'document.querySelector("#out").textContent = "first version";\nimport.meta.hot?.accept();\n',
  });
  const { context, page } = await loggedInPage(e2e, "/apps");
  await page.getByRole("heading", { name: "Running apps", level: 1 }).waitFor();
  const sessionId = await startSession(page, hot, "Hot reload");
  // Vite ignores PORT: Switchboard adds `--port` and `--host` for it.
  const app = await startApp(page, { sessionId, name: "hot", command: VITE });
  const row = page.locator(`tr[data-app="${app.name}"]`);
  await row.waitFor();

  const tab = await openInNewTab(context, row, app, "first version");
  await tab.evaluate(() => {
    (window as unknown as { stayed: boolean }).stayed = true;
  });
  writeFileSync(
    join(hot, "main.js"),
    'document.querySelector("#out").textContent = "second version";\nimport.meta.hot?.accept();\n',
  );
  await tab.waitForFunction(() => document.querySelector("#out")?.textContent === "second version", undefined, {
    timeout: 20_000,
  });
  // The same document: the module was swapped in, not the page loaded again.
  expect(await tab.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  const stopped = await e2e.server.api<RunningApp>("POST", `/apps/${encodeURIComponent(app.name)}/stop`);
  expect(stopped.status).toBe(200);
  await context.close();
});
