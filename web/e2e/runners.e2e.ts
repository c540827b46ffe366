/**
 * The Runners page against a real server: this machine listed as connected, with the note on
 * adding a host while `runners.toml` declares none, reached from the sidebar and the palette; "Check again" reads the file again and
 * reaches each host, so a host that refuses the connection shows as unreachable with ssh's own
 * message and a declaration the file cannot hold as invalid with its line and column. The New
 * session dialog offers the usable runners, and shows the server's refusal while runners are off.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

test("the Runners page lists this machine as connected and says how to add a host", async () => {
  const { context, page } = await loggedInPage(e2e, "/runners");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Runners", level: 1 }).waitFor();
  expect(await page.title()).toBe("Runners · Switchboard");
  const sidebar = page.getByRole("navigation", { name: "Sections" });
  expect(await sidebar.getByRole("link", { name: "Runners", exact: true }).getAttribute("aria-current")).toBe("page");

  const local = page.locator('[data-runner="local"]');
  await local.waitFor();
  expect(await local.getAttribute("data-state")).toBe("connected");
  expect(await local.getByTestId("runner-state").textContent()).toBe("Connected");
  expect(await local.getByRole("heading", { name: "local" }).count()).toBe(1);
  expect(await local.textContent()).toContain("This machine");
  await page.getByRole("heading", { name: "Run sessions on another machine" }).waitFor();
  expect(await page.getByRole("link", { name: "open it in Settings" }).getAttribute("href")).toBe(
    "/settings#sessions-agents-cloud",
  );

  const check = page.getByRole("button", { name: "Check again" });
  const refreshed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/runners" && new URL(r.url()).searchParams.get("refresh") === "true",
  );
  await check.click();
  expect((await refreshed).status()).toBe(200);
  await check.waitFor();
  expect(await check.isEnabled()).toBe(true);

  // The command palette opens it by name, as it opens every page of the sidebar.
  await page.goto(`${e2e.server.uiUrl}/inbox`);
  await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
  await page.keyboard.press("Control+k");
  const box = page.getByRole("combobox", { name: "Page, session, board, dashboard or action" });
  await box.fill("runners");
  expect(await page.getByRole("option").first().textContent()).toContain("Runners");
  await box.press("Enter");
  await page.getByRole("heading", { name: "Runners", level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/runners");
  expect(errors).toEqual([]);
  await context.close();
});

test("Check again shows an unreachable host with ssh's message and a bad declaration with its line", async () => {
  const { server } = e2e;
  writeFileSync(
    join(server.dataDir, "runners.toml"),
    // Port 1 on loopback refuses at once; `local` is a built-in name the file may not take.
    `[runners.devbox]\nssh = "nobody@127.0.0.1:1"\nmax_sessions = 2\nlabels = ["e2e"]\n\n[runners.local]\nssh = "x"\n`,
  );
  await setSetting(server, "cloudControlPlaneEnabled", true);
  const { context, page } = await loggedInPage(e2e, "/runners");
  const errors = consoleErrors(page);
  // Two cards are named local now: this machine, and the declaration that may not take its name.
  await page.locator('[data-runner="local"][data-state="connected"]').waitFor();
  await page.getByRole("button", { name: "Check again" }).click();

  const devbox = page.locator('[data-runner="devbox"]');
  await page.locator('[data-runner="devbox"][data-state="unreachable"]').waitFor({ timeout: 30_000 });
  expect(await devbox.locator(".runner-reason").textContent()).toContain("Connection refused");
  expect(await devbox.textContent()).toContain("0 of 2 running");
  expect(await devbox.textContent()).toContain("nobody@127.0.0.1:1");
  const invalid = page.locator('[data-state="invalid"]');
  expect(await invalid.getByTestId("runner-state").textContent()).toBe("Invalid");
  expect(await invalid.locator(".runner-reason").textContent()).toMatch(
    /runners\.toml line \d+, column \d+: .*built-in name/,
  );
  expect(await page.getByRole("heading", { name: "Run sessions on another machine" }).count()).toBe(0);
  expect(await page.getByText("2 of 3 connected").count()).toBe(0);
  expect(await page.getByText("1 of 3 connected").count()).toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});

test("the New session dialog offers the usable runners and shows the refusal while runners are off", async () => {
  const { server } = e2e;
  writeFileSync(join(server.dataDir, "engines.toml"), `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`);
  await setSetting(server, "cloudControlPlaneEnabled", false);
  const { context, page } = await loggedInPage(e2e, "/");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
  await page.getByRole("navigation", { name: "Sections" }).getByRole("button", { name: "New session" }).click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  const runsOn = dialog.getByRole("combobox", { name: "Runs on" });
  await runsOn.waitFor();
  await dialog.locator("option", { hasText: "devbox" }).waitFor({ state: "attached" });
  const options = await runsOn
    .locator("option")
    .evaluateAll((all) => all.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
  // The invalid declaration is not offered; devbox says its state, which is not connected.
  expect(options.map(([value]) => value)).toEqual(["local", "devbox", "auto"]);
  expect(options.map(([, label]) => label)).toEqual(["This machine", expect.stringMatching(/^devbox \(/), "Auto"]);
  expect(await runsOn.inputValue()).toBe("local");

  await runsOn.selectOption("devbox");
  await dialog.getByText("The folder is a path on devbox.").waitFor();
  await dialog.getByRole("textbox", { name: "Folder" }).fill(server.scratchDir);
  await dialog.getByRole("textbox", { name: "Prompt" }).fill("Say hello");
  const spawned = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/sessions" && r.request().method() === "POST",
  );
  await dialog.getByRole("button", { name: "Start session" }).click();
  const reply = await spawned;
  expect(reply.status()).toBe(403);
  expect(reply.request().postDataJSON()).toMatchObject({ engine: "echo", runner: "devbox" });
  const alert = dialog.getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toContain("cloudControlPlaneEnabled");
  expect(await alert.textContent()).toContain("Cloud sessions (developer preview)");
  // The refusal is the page's one failed request: the console reports it and nothing else.
  expect(errors.filter((e) => !e.includes("403"))).toEqual([]);
  await context.close();
});
