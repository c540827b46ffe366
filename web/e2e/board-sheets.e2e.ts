/**
 * A board and a sheet both ways (issue 70) against a real server and a real WebDAV server
 * (WsgiDAV from `target/pyenv`, with a password): a `.csv` on the drive is imported from the
 * Boards page ("Import a sheet") into a new board, the board page's "Export .xlsx" link downloads
 * a workbook in the browser's session, and that workbook, put back on the drive, imports again into
 * a board holding the same items: the export is a real `.xlsx` the import reads. At 1440 and 390 px.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { addDrive, startDav, type DavRig } from "./davRig";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";
import type { Page } from "playwright-core";

const e2e = serverAndBrowser();
const USER = "ada";
const PASSWORD = "e2e-board-sheets-secret";
let dav: DavRig | undefined;

beforeAll(async () => {
  dav = await startDav(USER, PASSWORD, (share) => {
    writeFileSync(join(share, "plan.csv"), "task,points\nalpha launch,3\nbeta launch,5\n");
  });
});

afterAll(() => {
  dav?.stop();
});

async function importSheet(page: Page, file: string, sheet: string, board: string, columns: string) {
  await page.getByText("Import a sheet").click();
  await page.getByLabel("File", { exact: true }).fill(file);
  await page.getByLabel("Sheet", { exact: true }).fill(sheet);
  await page.getByLabel("Board name", { exact: true }).fill(board);
  await page.getByLabel("Name column", { exact: true }).fill("A");
  await page.getByLabel("Columns", { exact: true }).fill(columns);
  await page.getByRole("button", { name: "Import" }).click();
  await page.waitForURL(/\/boards\/[^/?]+$/);
  await page.getByText("alpha launch").first().waitFor();
  await page.getByText("beta launch").first().waitFor();
}

test("a sheet imported into a board, the board exported to .xlsx and that imported again", async () => {
  const { server } = e2e;
  if (!dav) throw new Error("no WebDAV server");
  const share = dav.share;
  await setSetting(server, "sheetsEnabled", true);
  await addDrive(server, dav.url, USER, PASSWORD);
  const workspace = await server.api<{ id: string }>("POST", "/workspaces", { name: "Sheets E2E" });
  expect(workspace.status).toBeLessThan(300);

  const { context, page } = await loggedInPage(e2e, "/boards");
  const errors = consoleErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await importSheet(page, "/plan.csv", "Sheet1", "Launch plan", "B:number");
  const first = page.url();

  const exported = await page.getByRole("link", { name: "Export .xlsx" }).evaluate(async (link) => {
    const reply = await fetch((link as HTMLAnchorElement).href);
    const bytes = new Uint8Array(await reply.arrayBuffer());
    return { status: reply.status, type: reply.headers.get("content-type") ?? "", bytes: Array.from(bytes) };
  });
  expect(exported.status).toBe(200);
  expect(exported.type).toContain("spreadsheetml");
  expect(String.fromCharCode(exported.bytes[0] ?? 0, exported.bytes[1] ?? 0)).toBe("PK");
  writeFileSync(join(share, "exported.xlsx"), Buffer.from(exported.bytes));

  // The export's columns are Name, Group, then the board's: points is C.
  await page.goto(`${server.uiUrl}/boards`);
  await page.setViewportSize({ width: 390, height: 844 });
  await importSheet(page, "/exported.xlsx", "Launch plan", "Launch plan again", "C:number");
  expect(page.url()).not.toBe(first);
  await page.getByText("Launch plan again").first().waitFor();
  expect(errors).toEqual([]);
  await context.close();
});
