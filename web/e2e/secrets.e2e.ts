/**
 * Input requests and key proposals in the inbox, end to end: a `command` session that does
 * nothing gives them a folder; the test opens them through the control API with the cli token,
 * as `switchboard request-input` and `propose-key` do, and answers them on the page. A typed and
 * remembered value lands in the session's dotenv file (never in the address bar), a saved key
 * answers the next request, a proposal is edited and saved, a deleted key's error shows on the
 * card, and a refusal shows as Declined.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

async function ask(sessionId: string, name: string, prompt: string): Promise<string> {
  const reply = await e2e.server.api<{ id: string }>("POST", "/input-requests", { name, prompt, sessionId });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
}

test("an input request and a key proposal are answered on their inbox rows", async () => {
  const project = join(e2e.server.scratchDir, "project");
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.idle]\nkind = "command"\ncommand = ["/bin/sh", "-c", "cat >/dev/null"]\n`,
  );
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  const spawned = await e2e.server.api<{ id: string }>("POST", "/sessions", {
    engine: "idle",
    prompt: "work",
    title: "Deploy",
    cwd: project,
  });
  expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
  const sessionId = spawned.body.id;

  const { page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();

  // A typed value, remembered: refused while empty, then written to the file and shown as saved.
  await ask(sessionId, "API_TOKEN", "The staging token");
  const row = page.locator("li[data-row-id]", { hasText: "Deploy asks for API_TOKEN" });
  const card = row.getByRole("group", { name: "Input request for API_TOKEN" });
  await card.getByText("The staging token").waitFor();
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await card.getByRole("alert").getByText("Type a value.").waitFor();
  const field = card.locator('input[type="password"]');
  expect(await field.getAttribute("autocomplete")).toBe("off");
  await field.fill("s3cret-e2e");
  await card.getByLabel("Remember as a saved key").check();
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await row.getByText(`Saved to ${join(project, ".env")}`).waitFor();
  await page.locator("li[data-row-id].read", { hasText: "Deploy asks for API_TOKEN" }).waitFor();
  expect(readFileSync(join(project, ".env"), "utf8")).toContain("API_TOKEN=");
  expect(readFileSync(join(project, ".env"), "utf8")).toContain("s3cret-e2e");
  expect(page.url()).not.toContain("s3cret");

  // The remembered key answers the next request by name.
  await ask(sessionId, "DEPLOY_TOKEN", "The token again");
  const second = page.locator("li[data-row-id]", { hasText: "Deploy asks for DEPLOY_TOKEN" });
  await second.getByLabel("or use a saved key").selectOption("API_TOKEN");
  await second.getByRole("button", { name: "Save", exact: true }).click();
  await second.getByText(`Saved to ${join(project, ".env")}`).waitFor();
  expect(readFileSync(join(project, ".env"), "utf8")).toMatch(/DEPLOY_TOKEN=.*s3cret-e2e/);

  // A proposal: its value hidden until Show, its name edited, then saved as a key.
  const proposed = await e2e.server.api("POST", "/key-proposals", { name: "GH_TOKEN", value: "ghp_e2e", sessionId });
  expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
  const offer = page.locator("li[data-row-id]", { hasText: "Deploy offers a key: GH_TOKEN" });
  const value = offer.getByLabel("Value");
  await value.waitFor();
  expect(await value.getAttribute("type")).toBe("password");
  await offer.getByRole("button", { name: "Show", exact: true }).click();
  expect(await value.getAttribute("type")).toBe("text");
  expect(await value.inputValue()).toBe("ghp_e2e");
  await offer.getByLabel("Name").fill("GH_TOKEN_E2E");
  await offer.getByRole("button", { name: "Save", exact: true }).click();
  await offer.getByText("Saved as GH_TOKEN_E2E").waitFor();
  const keys = await e2e.server.api<{ keys: { name: string }[] }>("GET", "/keys");
  expect(keys.body.keys.map((k) => k.name).sort()).toEqual(["API_TOKEN", "GH_TOKEN_E2E"]);
  expect(errors).toEqual([]);

  // A key deleted after the card listed it: the server's error shows on the card; then Decline.
  await ask(sessionId, "LAST_TOKEN", "One more");
  const last = page.locator("li[data-row-id]", { hasText: "Deploy asks for LAST_TOKEN" });
  const pick = last.getByLabel("or use a saved key");
  await pick.locator('option[value="GH_TOKEN_E2E"]').waitFor({ state: "attached" });
  expect((await e2e.server.api("DELETE", "/keys/GH_TOKEN_E2E")).status).toBe(204);
  await pick.selectOption("GH_TOKEN_E2E");
  await last.getByRole("button", { name: "Save", exact: true }).click();
  await last.getByRole("alert").getByText("no saved key is named GH_TOKEN_E2E").waitFor();
  await pick.selectOption("");
  await last.getByRole("button", { name: "Decline", exact: true }).click();
  await last.getByText("Declined", { exact: true }).waitFor();
});
