/**
 * The boards view in a real Chromium against a real server: every column type
 * edited in place and kept across a reload, items added, renamed and deleted,
 * a refusal shown, and the time a 2,000-item board takes to show (printed).
 */
import { beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { FullBoardBody } from "../src/shared/api/types.generated";
import { loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();
let workspaceId: string;
let ada: string;

const COLUMNS = [
  { id: "notes", title: "Notes", type: "text" },
  { id: "budget", title: "Budget", type: "number", settings: { unit: "$", unitPosition: "left" } },
  {
    id: "status",
    title: "Status",
    type: "status",
    settings: {
      labels: [
        { name: "Working on it", color: "#fdab3d" },
        { name: "Done", done: true, color: "#00c875" },
      ],
    },
  },
  { id: "owner", title: "Owner", type: "people" },
  { id: "due", title: "Due", type: "date" },
  { id: "sprint", title: "Sprint", type: "timeline" },
  { id: "shipped", title: "Shipped", type: "checkbox" },
  { id: "tags", title: "Tags", type: "dropdown", settings: { options: ["backend", "frontend"] } },
];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await e2e.server.api<T>(method, path, body);
  if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function makeBoard(name: string): Promise<string> {
  const board = await api<{ id: string }>("POST", "/boards", {
    workspaceId,
    name,
    columns: COLUMNS,
    groups: [
      { id: "g1", title: "First group" },
      { id: "g2", title: "Second group" },
    ],
  });
  return board.id;
}

const full = (boardId: string) => api<FullBoardBody>("GET", `/boards/${boardId}/full`);

/** Waits until the server holds what the page sent. */
async function serverItem(boardId: string, name: string, ready: (values: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const item = (await full(boardId)).items.find((i) => i.name === name);
    if (item && ready(item.values)) return item;
    if (Date.now() > deadline) throw new Error(`the server never held the edit: ${JSON.stringify(item)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cell = (page: Page, itemName: string, columnId: string) =>
  page
    .locator(`[data-item-id]`, {
      has: page.getByRole("button", { name: `Name of ${itemName}: ${itemName}`, exact: true }),
    })
    .locator(`[data-column-id="${columnId}"]`);

beforeAll(async () => {
  workspaceId = (await api<{ id: string }>("POST", "/workspaces", { name: "E2E" })).id;
  ada = (await api<{ id: string }>("POST", "/members", { name: "Ada Lovelace", email: "ada@example.com" })).id;
  await api("POST", "/members", { name: "Grace Hopper" });
});

test("every column type is edited in place and kept across a reload", async () => {
  const boardId = await makeBoard("Every type");
  await api("POST", `/boards/${boardId}/items`, { groupId: "g1", name: "Alpha", values: {} });
  const { context, page } = await loggedInPage(e2e, `/boards/${boardId}`);
  await page.getByRole("heading", { name: "Every type" }).waitFor();

  await page.getByRole("button", { name: "Notes of Alpha" }).click();
  await page.getByRole("textbox", { name: "Notes of Alpha" }).fill("Call the vendor");
  await page.keyboard.press("Enter");

  await page.getByRole("button", { name: "Budget of Alpha ($)" }).click();
  await page.getByRole("spinbutton", { name: "Budget of Alpha ($)" }).fill("1234.5");
  await page.keyboard.press("Enter");

  await page.getByRole("button", { name: "Status of Alpha" }).click();
  await page.getByRole("dialog", { name: "Choose Status" }).getByRole("button", { name: "Done" }).click();

  await page.getByRole("button", { name: "Owner of Alpha" }).click();
  await page.getByRole("dialog", { name: "Choose Owner" }).getByRole("checkbox", { name: "Ada Lovelace" }).check();
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Due of Alpha" }).click();
  await page.getByLabel("Due of Alpha").fill("2025-03-14");
  await page.keyboard.press("Enter");

  await page.getByRole("button", { name: "Sprint of Alpha" }).click();
  const sprint = page.getByRole("dialog", { name: "Edit Sprint" });
  await sprint.getByLabel("From").fill("2025-03-03");
  await sprint.getByLabel("To").fill("2025-03-16");
  await sprint.getByRole("button", { name: "Save" }).click();

  await page.getByRole("checkbox", { name: "Shipped of Alpha" }).check();

  await page.getByRole("button", { name: "Tags of Alpha" }).click();
  const tags = page.getByRole("dialog", { name: "Edit Tags" });
  await tags.getByLabel("Add to Tags").fill("backend");
  await page.keyboard.press("Enter");
  await serverItem(boardId, "Alpha", (v) => Array.isArray(v.tags) && v.tags.length === 1);
  await tags.getByLabel("Add to Tags").fill("urgent");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");

  const saved = await serverItem(boardId, "Alpha", (v) => Array.isArray(v.tags) && v.tags.length === 2);
  expect(saved.values).toEqual({
    notes: "Call the vendor",
    budget: 1234.5,
    status: "Done",
    owner: [ada],
    due: "2025-03-14",
    sprint: { from: "2025-03-03", to: "2025-03-16" },
    shipped: true,
    tags: ["backend", "urgent"],
  });

  await page.reload();
  await page.getByRole("heading", { name: "Every type" }).waitFor();
  expect(await cell(page, "Alpha", "notes").innerText()).toBe("Call the vendor");
  expect(await cell(page, "Alpha", "budget").innerText()).toBe("$1,234.5");
  const status = page.getByRole("button", { name: "Status of Alpha" });
  expect(await status.innerText()).toBe("Done");
  expect(await status.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(0, 200, 117)");
  expect(await cell(page, "Alpha", "owner").locator(".avatar [aria-hidden]").innerText()).toBe("AL");
  expect(await cell(page, "Alpha", "due").innerText()).toBe("Mar 14, 2025");
  expect(await cell(page, "Alpha", "sprint").innerText()).toBe("Mar 3, 2025 – Mar 16, 2025");
  expect(await page.getByRole("checkbox", { name: "Shipped of Alpha" }).isChecked()).toBe(true);
  expect(await cell(page, "Alpha", "tags").locator(".pill").allInnerTexts()).toEqual(["backend", "urgent"]);
  await context.close();
});

test("items are added per group, renamed and deleted through the API", async () => {
  const boardId = await makeBoard("Lifecycle");
  const { context, page } = await loggedInPage(e2e, `/boards/${boardId}`);
  await page.getByRole("textbox", { name: "Add item to Second group" }).fill("Beta");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Name of Beta" }).click();
  await page.getByRole("textbox", { name: "Name of Beta" }).fill("Beta two");
  await page.keyboard.press("Enter");
  const renamed = await serverItem(boardId, "Beta two", () => true);
  expect(renamed.groupId).toBe("g2");

  await page.getByRole("button", { name: "Delete Beta two" }).click();
  await page.getByRole("button", { name: "Delete?" }).click();
  await page.getByRole("button", { name: "Name of Beta two" }).waitFor({ state: "detached" });
  const deadline = Date.now() + 10_000;
  while ((await full(boardId)).items.length > 0) {
    if (Date.now() > deadline) throw new Error("the item was not deleted on the server");
    await new Promise((r) => setTimeout(r, 50));
  }

  await page.getByRole("button", { name: "First group" }).click();
  expect(await page.getByRole("textbox", { name: "Add item to First group" }).count()).toBe(0);
  await context.close();
});

test("a refused edit is shown and rolled back, not swallowed", async () => {
  const boardId = await makeBoard("Refusals");
  await api("POST", `/boards/${boardId}/items`, { groupId: "g1", name: "Gamma", values: { notes: "kept" } });
  const { context, page } = await loggedInPage(e2e, `/boards/${boardId}`);
  await page.getByRole("button", { name: "Notes of Gamma" }).waitFor();
  await api("DELETE", `/boards/${boardId}/columns/notes`);

  await page.getByRole("button", { name: "Notes of Gamma" }).click();
  await page.getByRole("textbox", { name: "Notes of Gamma" }).fill("lost");
  await page.keyboard.press("Enter");
  const alert = page.getByRole("alert").filter({ hasText: "Notes was not saved" });
  await alert.waitFor();
  expect(await page.getByRole("button", { name: "Notes of Gamma" }).innerText()).toBe("kept");
  await context.close();
});

test("the board revalidates with its ETag: 304 while unchanged, the new value once changed elsewhere", async () => {
  const boardId = await makeBoard("Revalidation");
  const item = await api<{ id: string }>("POST", `/boards/${boardId}/items`, {
    groupId: "g1",
    name: "Delta",
    values: { notes: "one" },
  });
  const { context, page } = await loggedInPage(e2e, `/boards/${boardId}`);
  await page.getByRole("button", { name: "Notes of Delta" }).waitFor();
  const reads: { status: number; validator: string | undefined }[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === `/api/boards/${boardId}/full`) {
      reads.push({ status: response.status(), validator: response.request().headers()["if-none-match"] });
    }
  });
  const revalidate = () => page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));

  await revalidate();
  await page.waitForResponse((r) => r.url().endsWith(`/api/boards/${boardId}/full`));
  expect(reads).toEqual([{ status: 304, validator: expect.stringMatching(/^".+"$/) }]);

  await api("PATCH", `/items/${item.id}`, { values: { notes: "two" } });
  await revalidate();
  await page.getByRole("button", { name: "Notes of Delta" }).filter({ hasText: "two" }).waitFor();
  expect(reads[1]?.status).toBe(200);
  await context.close();
});

test("a 2,000-item board: time from navigation to rows on screen (printed)", async () => {
  const boardId = await makeBoard("Two thousand");
  const statuses = ["Working on it", "Done", null];
  const items = Array.from({ length: 2000 }, (_, i) => ({
    groupId: i % 2 ? "g2" : "g1",
    name: `Item ${i}`,
    values: {
      notes: `Note ${i}`,
      budget: i * 10,
      status: statuses[i % 3],
      owner: i % 4 ? [ada] : [],
      due: `2025-0${(i % 9) + 1}-1${i % 10}`,
      sprint: { from: "2025-01-01", to: "2025-01-14" },
      shipped: i % 2 === 0,
      tags: ["backend"],
    },
  }));
  await api("POST", `/boards/${boardId}/items/batch`, { items });

  const { context, page } = await loggedInPage(e2e, "/boards");
  await page.getByRole("link", { name: /Two thousand/ }).waitFor();

  // Full page load: the navigation's own clock, from its start to the board mark.
  await page.goto(`${e2e.server.uiUrl}/boards/${boardId}`);
  await page.locator('[data-board-ready="2000"] [data-item-id]').first().waitFor();
  await page.waitForFunction(() => performance.getEntriesByName("board-rendered").length > 0);
  const fullLoad = await page.evaluate(() => performance.getEntriesByName("board-rendered")[0]!.startTime);

  // In-app navigation from the boards list, the board not yet read by this page.
  await page.goto(`${e2e.server.uiUrl}/boards`);
  await page.getByRole("link", { name: /Two thousand/ }).waitFor();
  const started = await page.evaluate(() => {
    performance.clearMarks("board-rendered");
    return performance.now();
  });
  await page.getByRole("link", { name: /Two thousand/ }).click();
  await page.waitForFunction(() => performance.getEntriesByName("board-rendered").length > 0);
  const inApp = (await page.evaluate(() => performance.getEntriesByName("board-rendered")[0]!.startTime)) - started;

  const rows = await page.locator("[data-item-id]").count();
  console.log(
    `2,000-item board: ${Math.round(fullLoad)} ms from navigation start (page load), ` +
      `${Math.round(inApp)} ms from the click (in-app), ${rows} item rows drawn`,
  );
  expect(await page.locator('[data-board-ready="2000"]').count()).toBe(1);
  // Only the rows on screen are drawn, with a margin of 8 below them: at the top of the board
  // that is the table's height in rows plus 8, less the first group's header.
  const onScreen = await page.evaluate(() => {
    const table = document.querySelector<HTMLElement>(".board-scroll");
    if (!table) throw new Error("no board table");
    return Math.ceil(table.clientHeight / parseFloat(table.style.getPropertyValue("--row-height")));
  });
  expect(rows).toBe(onScreen + 8 - 1);
  await context.close();
});
