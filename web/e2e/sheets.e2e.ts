/**
 * The Sheets page (issue 70) against a real server and a real WebDAV server (WsgiDAV from
 * `target/pyenv`, with a password): a 100,000-row spreadsheet opens with only the rows in view
 * drawn, scrolls to its last row, a trusted cell edited in the page lands in the file on the
 * WebDAV server's disk, a column that is not trusted opens no editor, and an edit refused by the
 * server (the column no longer trusted) shows why. At 1440 and 390 px. The Drive page opens the
 * same file in the Sheets page ("Open in Sheets").
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { addDrive, startDav, type DavRig } from "./davRig";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();
const USER = "grace";
const PASSWORD = "e2e-sheets-secret";
const ROWS = 100_000;
let dav: DavRig | undefined;
let share = "";
let davUrl = "";

beforeAll(async () => {
  dav = await startDav(USER, PASSWORD, (share) => {
    const lines = ["task,owner,status"];
    for (let i = 1; i <= ROWS; i++) lines.push(`task ${i},ana,todo`);
    writeFileSync(join(share, "big.csv"), lines.join("\n") + "\n");
  });
  share = dav.share;
  davUrl = dav.url;
});

afterAll(() => {
  dav?.stop();
});

test("a 100,000-row sheet scrolls, a trusted cell is edited and a refused edit says why", async () => {
  const { server } = e2e;
  await setSetting(server, "sheetsEnabled", true);
  await setSetting(server, "trustedSheets", [{ spreadsheetId: "main:/big.csv", label: "Big", editableColumns: [2] }]);
  await addDrive(server, davUrl, USER, PASSWORD);

  const { context, page } = await loggedInPage(e2e, "/sheets?driveId=main&path=%2Fbig.csv");
  const errors = consoleErrors(page);
  const grid = page.getByRole("grid");
  await grid.getByText("task 1", { exact: true }).waitFor();
  expect(await grid.getAttribute("aria-rowcount")).toBe(String(ROWS + 1));
  expect(await grid.getByRole("row").count()).toBeLessThan(100);

  // To the last row: its page is fetched and drawn, still only a screenful of rows.
  await grid.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await grid.getByText(`task ${ROWS}`, { exact: true }).waitFor();
  expect(await grid.getByRole("row").count()).toBeLessThan(100);

  // Back at the top: the untrusted column opens no editor; the trusted one writes the file.
  await grid.evaluate((el) => (el.scrollTop = 0));
  const row = grid.locator('[aria-rowindex="2"]');
  await row.getByText("ana").dblclick();
  expect(await grid.getByRole("textbox").count()).toBe(0);
  await row.getByText("todo").dblclick();
  const editor = grid.getByRole("textbox", { name: "C2" });
  await editor.fill("done");
  await editor.press("Enter");
  await row.getByText("done").waitFor();
  await expect.poll(() => readFileSync(join(share, "big.csv"), "utf8").split("\n")[1]).toBe("task 1,ana,done");

  // The column is no longer trusted on the server: the page's edit is refused, naming it.
  await setSetting(server, "trustedSheets", []);
  const third = grid.locator('[aria-rowindex="3"]');
  await third.getByText("todo").dblclick();
  await grid.getByRole("textbox", { name: "C3" }).fill("late");
  await grid.getByRole("textbox", { name: "C3" }).press("Enter");
  await page
    .getByRole("alert")
    .getByText(/not trusted/)
    .waitFor();
  expect(readFileSync(join(share, "big.csv"), "utf8").split("\n")[2]).toBe("task 2,ana,todo");

  // A phone's width: the grid is still there and scrolls sideways rather than squeezing.
  await page.setViewportSize({ width: 390, height: 844 });
  await grid.getByText("task 1", { exact: true }).waitFor();
  expect(errors.filter((e) => !e.includes("403"))).toEqual([]);
  await context.close();
});

test("a spreadsheet on the Drive page opens in the Sheets page", async () => {
  // The drive and sheetsEnabled are the first test's.
  const { context, page } = await loggedInPage(e2e, "/drive");
  await page.getByRole("link", { name: "Open in Sheets" }).first().click();
  await page.waitForURL(/\/sheets\?driveId=main&path=%2Fbig\.csv$/);
  await page.getByRole("grid").getByText("task 1", { exact: true }).waitFor();
  await context.close();
});
