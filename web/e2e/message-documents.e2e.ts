/**
 * Publishing an agent's message from the session page (issue 70) against a real WebDAV server
 * (WsgiDAV): with `docsExportEnabled` on, the agent's message carries "Publish as document"; a
 * click writes the document to the drive and the link shows under the message, and still does
 * after a reload. From the same page a drive file is attached to the session and a file of its
 * folder saved to the drive. The session page passes axe at 1440 and 390 px in both themes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { everyLook } from "./axe";
import { addDrive, startDav, type DavRig } from "./davRig";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until, waitForStatus } from "./harness";

const e2e = serverAndBrowser();
const USER = "ada";
const PASSWORD = "dav-e2e-publish-9";
let dav: DavRig;

/** Claude Code's stream-json for one turn: its result, the agent's final message, in Markdown. */
const AGENT = `
const plan = "## Release plan\\n\\n1. Freeze on Monday\\n2. Ship on Thursday";
const lines = [
  { type: "system", subtype: "init", session_id: "c-1", cwd: "/w", model: "m", tools: [], permissionMode: "default" },
  { type: "result", subtype: "success", is_error: false, num_turns: 1, result: plan, session_id: "c-1",
    total_cost_usd: 0.01, usage: { input_tokens: 1, output_tokens: 1 } },
];
for (const line of lines) console.log(JSON.stringify(line));
`;

beforeAll(async () => {
  dav = await startDav(USER, PASSWORD, (share) => {
    mkdirSync(join(share, "Plans"));
    writeFileSync(join(share, "Plans", "budget.csv"), "item,cost\ndesk,120\n");
  });
});

afterAll(() => {
  dav?.stop();
});

test("an agent's message is published from the page, its link stays under it, and files go to and from a drive", async () => {
  const { server } = e2e;
  writeFileSync(join(server.scratchDir, "agent.js"), AGENT);
  writeFileSync(
    join(server.dataDir, "engines.toml"),
    `[engines.agent]\nkind = "claude"\ncommand = ["node", ${JSON.stringify(join(server.scratchDir, "agent.js"))}]\n`,
  );
  await setSetting(server, "docsExportEnabled", true);
  await addDrive(server, dav.url, USER, PASSWORD);

  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  const folder = mkdtempSync(join(server.scratchDir, "work-"));
  const id = await page.evaluate(
    async (body) => {
      const r = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return ((await r.json()) as { id: string }).id;
    },
    { engine: "agent", prompt: "plan the release", title: "Release", cwd: folder },
  );
  await waitForStatus(server, id, "waiting_for_input");
  await page.goto(`${server.uiUrl}/sessions/${id}`);
  const message = page.locator(".entry-final").filter({ hasText: "Freeze on Monday" });
  await message.waitFor();
  await message.getByRole("button", { name: "Publish as document" }).click();
  const link = message.getByRole("link", { name: "Release plan.docx" });
  await link.waitFor();
  expect(await link.getAttribute("href")).toBe(`${dav.url}Release%20plan.docx`);
  await until(
    async () => existsSync(join(dav.share, "Release plan.md")),
    (there) => there,
  );
  expect(readFileSync(join(dav.share, "Release plan.md"), "utf8")).toContain("1. Freeze on Monday");

  await page.reload();
  await page
    .locator(".entry-final")
    .filter({ hasText: "Freeze on Monday" })
    .getByRole("link", { name: "Release plan.docx" })
    .waitFor();

  // A drive file attached to the session, and a file of its folder saved to the drive.
  await page.getByText("Files and drives").click();
  await page.getByLabel("Drive file to attach").fill("/Plans/budget.csv");
  await page.getByRole("button", { name: "Attach to this session" }).click();
  await page.getByText("Attached as budget.csv in the session's folder (19 bytes).").waitFor();
  expect(readFileSync(join(folder, "budget.csv"), "utf8")).toBe("item,cost\ndesk,120\n");
  writeFileSync(join(folder, "report.md"), "# Report\n");
  await page.getByLabel("File of the session’s folder").fill("report.md");
  await page.getByLabel("Save as (on the drive)").fill("/Plans/report.md");
  await page.getByRole("button", { name: "Save to drive" }).click();
  await page.getByText("Saved to /Plans/report.md.").waitFor();
  expect(readFileSync(join(dav.share, "Plans", "report.md"), "utf8")).toBe("# Report\n");

  const shots = mkdtempSync(join(tmpdir(), "message-documents-e2e-"));
  expect(await everyLook(server, page, "message-documents", shots)).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});
