/**
 * The Settings page's Restart button, end to end: the server restarts in place (on the same
 * ports, which is why this server's ports are picked up front) and the page says when it is back;
 * the connection indicator leaves "Live" while the stream is down and says "Live" again after.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser({ fixedPorts: true });

test("Restart Switchboard asks first, then restarts the server, whatever allowAgentAppRestart says, and says when it is back", async () => {
  const setting = await e2e.server.api<{ value: unknown }>("GET", "/settings/allowAgentAppRestart");
  expect(setting.body.value).toBe(false);
  const { context, page } = await loggedInPage(e2e, "/settings");
  await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
  // The new process writes server.json again once it listens.
  const serverFile = join(e2e.server.dataDir, "server.json");
  const written = statSync(serverFile).mtimeMs;
  // It asks first; Cancel (or Escape) leaves the server as it was.
  await page.getByRole("button", { name: "Restart Switchboard" }).click();
  const confirm = page.getByRole("dialog", { name: "Restart Switchboard?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await confirm.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Restart Switchboard" }).click();
  await page.keyboard.press("Escape");
  await confirm.waitFor({ state: "detached" });
  expect(statSync(serverFile).mtimeMs).toBe(written);
  // Every state the indicator passes through, recorded in the page as it changes.
  const indicator = page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("status");
  await indicator.filter({ hasText: "Live" }).waitFor();
  await indicator.evaluate((element) => {
    const seen: string[] = [];
    (window as unknown as { connectionStates: string[] }).connectionStates = seen;
    new MutationObserver(() => seen.push(element.getAttribute("data-connection") ?? "")).observe(element, {
      attributes: true,
    });
  });
  await page.getByRole("button", { name: "Restart Switchboard" }).click();
  await confirm.getByRole("button", { name: "Restart now" }).click();
  await page.getByRole("status").filter({ hasText: "Switchboard is restarting…" }).waitFor();
  await page.getByRole("status").filter({ hasText: "Switchboard is back." }).waitFor({ timeout: 30_000 });
  expect(await page.getByRole("button", { name: "Restart Switchboard" }).isEnabled()).toBe(true);
  expect(statSync(serverFile).mtimeMs).toBeGreaterThan(written);
  await indicator.filter({ hasText: "Live" }).waitFor({ timeout: 30_000 });
  const states = await page.evaluate(() => (window as unknown as { connectionStates: string[] }).connectionStates);
  expect(
    states.some((state) => state === "reconnecting" || state === "closed"),
    states.join(", "),
  ).toBe(true);
  expect(states.at(-1)).toBe("live");
  // The same session works against the new process.
  expect(await page.evaluate(async () => (await fetch("/api/me")).status)).toBe(200);
  await context.close();
});
