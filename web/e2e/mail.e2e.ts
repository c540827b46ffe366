/**
 * The mail client (issue 67) against a real server, a real dovecot and a real SMTP server (the
 * rig of e2e/mailRig.ts). An account is added in the page and turns connected; the sidebar shows
 * Mail with the inbox's unread count; folders come SPECIAL-USE first; a thread of three opens with
 * its messages; S stars and E archives it, applied on the server; an HTML mail's remote image is
 * not requested (watched in the browser and at the image's own server) until Show; R replies and
 * the reply arrives threaded through SMTP; H snoozes a thread that comes back unread when the
 * manual clock passes its time; Email Cleanup walks the loudest sender first; a mail card in the
 * Inbox answers by email; the page passes axe at 1440 and 390 px in both themes.
 */
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { MailAccount, ThreadPage } from "../src/features/mail/api";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";
import { ADDRESS, PASSWORD, startMailRig, type MailRig } from "./mailRig";

const e2e = serverAndBrowser({ args: ["--manual-clock"] });
let rig: MailRig;
let images: Server;
/** Paths the remote-image server was asked for. */
const imageRequests: string[] = [];
let imageBase = "";

beforeAll(async () => {
  rig = await startMailRig();
  images = createServer((request, response) => {
    imageRequests.push(request.url ?? "");
    response.writeHead(200, { "Content-Type": "image/gif" });
    response.end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
  });
  await new Promise<void>((done) => images.listen(0, "127.0.0.1", done));
  const address = images.address();
  if (typeof address !== "object" || address === null) throw new Error("no image server port");
  imageBase = `http://127.0.0.1:${address.port}`;

  const mail = (headers: Record<string, string>, body: string) =>
    `${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n")}\nDate: ${new Date().toUTCString()}\nTo: ${ADDRESS}\n\n${body}\n`;
  // A thread of three.
  await rig.deliver(
    "ada@example.com",
    mail(
      { From: "Ada <ada@example.com>", Subject: "Launch plan", "Message-ID": "<t1@example.com>" },
      "Shall we launch Monday?",
    ),
  );
  await rig.deliver(
    "bob@example.com",
    mail(
      {
        From: "Bob <bob@example.com>",
        Subject: "Re: Launch plan",
        "Message-ID": "<t2@example.com>",
        "In-Reply-To": "<t1@example.com>",
        References: "<t1@example.com>",
      },
      "Monday works.",
    ),
  );
  await rig.deliver(
    "ada@example.com",
    mail(
      {
        From: "Ada <ada@example.com>",
        Subject: "Re: Launch plan",
        "Message-ID": "<t3@example.com>",
        "In-Reply-To": "<t2@example.com>",
        References: "<t1@example.com> <t2@example.com>",
      },
      "Monday it is.",
    ),
  );
  // HTML with a remote image.
  await rig.deliver(
    "promo@shop.test",
    mail(
      {
        From: "Shop <promo@shop.test>",
        Subject: "Your weekly picks",
        "Message-ID": "<html1@shop.test>",
        "MIME-Version": "1.0",
        "Content-Type": "text/html; charset=utf-8",
        "List-Unsubscribe": "<mailto:leave@shop.test>",
      },
      `<p>Hello!</p><img src="${imageBase}/pixel.gif" alt="pixel">`,
    ),
  );
  // The loudest sender, for Email Cleanup.
  for (let n = 1; n <= 5; n++) {
    await rig.deliver(
      "news@letters.test",
      mail(
        { From: "Letters <news@letters.test>", Subject: `Issue ${n}`, "Message-ID": `<n${n}@letters.test>` },
        `Issue ${n} of the letter.`,
      ),
    );
  }
  // To be snoozed.
  await rig.deliver(
    "carol@example.com",
    mail({ From: "Carol <carol@example.com>", Subject: "Later, please", "Message-ID": "<s1@example.com>" }, "No rush."),
  );
});

afterAll(async () => {
  rig?.stop();
  await new Promise((done) => images?.close(done));
});

async function turnOn() {
  const { server } = e2e;
  await setSetting(server, "mailclientEnabled", true);
  await setSetting(server, "emailBlockRemoteImages", true);
  await setSetting(server, "mailclientEmailsInInbox", true);
  await setSetting(server, "webmailAutoFocusReply", false);
}

/** The account's threads in `folder`, as the API lists them. */
async function threadsIn(accountId: string, folder: string): Promise<ThreadPage> {
  const reply = await e2e.server.api<ThreadPage>(
    "GET",
    `/mail/threads?accountId=${encodeURIComponent(accountId)}&folder=${encodeURIComponent(folder)}&q=`,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

async function addAccountInPage(page: Page): Promise<MailAccount> {
  const form = page.getByRole("form", { name: "Add an account" });
  await form.getByLabel("Name", { exact: true }).fill("Rig");
  await form.getByLabel("Address").fill(ADDRESS);
  await form.getByLabel("User name").fill(ADDRESS);
  await form.getByLabel("Password").fill(PASSWORD);
  const imap = form.getByRole("group", { name: "IMAP (reading)" });
  await imap.getByLabel("Host").fill("127.0.0.1");
  await imap.getByLabel("Port").fill(String(rig.imapPort));
  await imap.getByLabel("Security").selectOption("none");
  const smtp = form.getByRole("group", { name: "SMTP (sending)" });
  await smtp.getByLabel("Host").fill("127.0.0.1");
  await smtp.getByLabel("Port").fill(String(rig.smtpPort));
  await smtp.getByLabel("Security").selectOption("none");
  await form.getByRole("button", { name: "Add account" }).click();
  // The password is never filled back, whether the form stays or the mailbox replaces it.
  await expect
    .poll(() => page.locator("input").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)))
    .not.toContain(PASSWORD);
  const accounts = await until(
    async () => (await e2e.server.api<MailAccount[]>("GET", "/mail/accounts")).body,
    (list) => list.some((a) => a.address === ADDRESS && a.status === "ok"),
    30_000,
  );
  const account = accounts.find((a) => a.address === ADDRESS);
  if (!account) throw new Error("the account was not added");
  expect(JSON.stringify(account)).not.toContain(PASSWORD);
  return account;
}

test("reads, triages, replies, snoozes, cleans up and answers from the inbox", async () => {
  const { server } = e2e;
  await turnOn();
  const { context, page } = await loggedInPage(e2e, "/mail");
  const errors = consoleErrors(page);
  // Every request the page makes: none may go to the image server before Show.
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));

  await page.getByRole("heading", { name: "Mail" }).first().waitFor();
  const account = await addAccountInPage(page);

  // Synced: the inbox lists the thread of three as one thread.
  await until(
    () => threadsIn(account.id, "INBOX"),
    (p) => p.threads.some((t) => t.subject.includes("Launch plan") && t.count === 3),
    30_000,
  );
  await page.reload();
  const sidebarMail = page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Mail" });
  await sidebarMail.waitFor();
  // The count comes once the badge's first read answers.
  await expect
    .poll(async () => (await sidebarMail.getAttribute("title")) ?? "", { timeout: 15_000 })
    .toMatch(/^\d+ unread in the inbox$/);

  const folders = page.getByRole("navigation", { name: "Folders" }).getByRole("button");
  await folders.first().waitFor();
  const names = (await folders.allTextContents()).map((t) => t.replace(/\d+\s*unread$/, "").trim());
  expect(names.slice(0, 6)).toEqual(["Inbox", "Sent", "Drafts", "Archive", "Spam", "Trash"]);

  // Open the thread of three; the body holds the focus, so keys act.
  const list = page.getByRole("list", { name: /^Threads in Inbox/ });
  await list.getByRole("button", { name: /Launch plan/ }).click();
  const thread = page.getByRole("region", { name: /Launch plan/ });
  await expect.poll(() => thread.locator("article").count()).toBe(3);
  await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("mail-thread"))).toBe(true);

  // S stars, on the server too.
  await page.keyboard.press("s");
  await list.locator(".mail-row.open").getByLabel("Starred").waitFor();
  await until(
    () => threadsIn(account.id, "INBOX"),
    (p) => p.threads.some((t) => t.subject.includes("Launch plan") && t.starred),
  );

  // E archives: gone from the list at once, in Archive on the server.
  await page.keyboard.press("e");
  await expect.poll(() => list.getByRole("button", { name: /Launch plan/ }).count()).toBe(0);
  await until(
    () => threadsIn(account.id, "Archive"),
    (p) => p.threads.some((t) => t.subject.includes("Launch plan")),
  );

  // Remote images: blocked, and nothing asked of the image server until Show.
  await list.getByRole("button", { name: /Your weekly picks/ }).click();
  const bar = page.getByRole("status").filter({ hasText: "1 remote image blocked" });
  await bar.waitFor();
  await page.waitForTimeout(500);
  expect(imageRequests).toEqual([]);
  expect(requested.filter((url) => url.startsWith(imageBase))).toEqual([]);
  await bar.getByRole("button", { name: /Show/ }).click();
  await expect.poll(() => imageRequests.length, { timeout: 10_000 }).toBeGreaterThan(0);

  // R replies in Markdown; the reply arrives through SMTP, threaded on the message.
  await list.getByRole("button", { name: /Issue 5/ }).click();
  await page
    .getByRole("region", { name: /Issue 5/ })
    .locator("article")
    .first()
    .waitFor();
  await page.keyboard.press("r");
  const reply = page.getByRole("form", { name: "Reply" });
  await reply.getByLabel(/Message/).waitFor();
  await expect.poll(() => reply.getByLabel("To").inputValue()).toContain("news@letters.test");
  await reply.getByLabel(/Message/).press("Home");
  await reply.getByLabel(/Message/).pressSequentially("Thanks, **unsubscribing** soon.");
  await reply.getByRole("button", { name: "Send" }).click();
  await expect.poll(() => reply.count(), { timeout: 20_000 }).toBe(0);
  await until(
    async () => rig.messages(),
    (all) => all.some((m) => /In-Reply-To: <n5@letters\.test>/i.test(m) && m.includes("unsubscribing")),
    20_000,
  );

  // H snoozes until tomorrow morning; it leaves the list and comes back unread once the clock passes.
  await list.getByRole("button", { name: /Later, please/ }).click();
  await page
    .getByRole("region", { name: /Later, please/ })
    .locator("article")
    .first()
    .waitFor();
  await page.keyboard.press("h");
  await page
    .getByRole("group", { name: "Snooze until" })
    .getByRole("button", { name: /Tomorrow morning/ })
    .click();
  await expect.poll(() => list.getByRole("button", { name: /Later, please/ }).count()).toBe(0);
  await until(
    () => threadsIn(account.id, "INBOX"),
    (p) => !p.threads.some((t) => t.subject === "Later, please"),
  );
  const moved = await server.api("POST", "/test/clock", { advanceMs: 2 * 24 * 3600 * 1000 });
  expect(moved.status).toBe(204);
  const back = await until(
    () => threadsIn(account.id, "INBOX"),
    (p) => p.threads.some((t) => t.subject === "Later, please"),
    30_000,
  );
  expect(back.threads.find((t) => t.subject === "Later, please")?.unread).toBeGreaterThan(0);
  await page.getByRole("toolbar", { name: "Mail" }).getByRole("button", { name: "Refresh" }).click();
  await list.getByRole("button", { name: /Later, please/ }).waitFor();

  // Email Cleanup: the guided walkthrough starts with the loudest sender.
  await page.getByRole("toolbar", { name: "Mail" }).getByRole("button", { name: "Email Cleanup" }).click();
  const cleanup = page.getByRole("region", { name: "Email Cleanup" });
  const card = cleanup.locator(".mail-cleanup-card");
  await card.waitFor();
  expect(await card.getAttribute("data-sender")).toBe("news@letters.test");
  await card.getByRole("button", { name: /Archive all/ }).click();
  await cleanup.getByText(/^1 of \d+ senders handled$/).waitFor();
  await until(
    () => threadsIn(account.id, "INBOX"),
    (p) => !p.threads.some((t) => t.subject.startsWith("Issue ")),
  );

  // Layout and axe on the mail page.
  await page.getByRole("toolbar", { name: "Mail" }).getByRole("button", { name: "Email Cleanup" }).click();
  const shots = process.env.MAIL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "mail-shots-"));
  expect(await everyLook(server, page, "mail", shots)).toEqual({});

  // A new mail is an inbox card with a reply box that answers by email.
  await rig.deliver(
    "dana@example.com",
    `From: Dana <dana@example.com>\nTo: ${ADDRESS}\nSubject: Quick question\nMessage-ID: <q1@example.com>\nDate: ${new Date().toUTCString()}\n\nAre you free?\n`,
  );
  await page.goto(`${server.uiUrl}/inbox`);
  const mailCard = page.locator(".inbox-row").filter({ hasText: "Quick question" });
  await mailCard.waitFor({ timeout: 30_000 });
  await mailCard.getByLabel(/^Reply to /).fill("Yes, at three.");
  await mailCard.getByRole("button", { name: "Send" }).click();
  await until(
    async () => rig.messages(),
    (all) => all.some((m) => /In-Reply-To: <q1@example\.com>/i.test(m) && m.includes("Yes, at three.")),
    20_000,
  );

  expect(errors).toEqual([]);
  await context.close();
}, 180_000);

test("a phone reads one pane at a time, and reduced motion gets a still inbox zero", async () => {
  const { context, page } = await loggedInPage(e2e, "/mail");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  const list = page.getByRole("list", { name: /^Threads in Inbox/ });
  await list.waitFor();
  await page.getByLabel("Folder", { exact: true }).waitFor();
  const first = list.getByRole("button").first();
  await first.click();
  await page.getByRole("button", { name: "Back to the list" }).waitFor();
  expect(await list.count()).toBe(0);
  await page.getByRole("button", { name: "Back to the list" }).click();
  await list.waitFor();

  // Archive every thread left from the keyboard (each E opens the next): the inbox empties, and the
  // celebration holds still.
  await setSetting(e2e.server, "webmailInboxZeroCelebration", true);
  const back = page.getByRole("button", { name: "Back to the list" });
  await list.getByRole("button").first().click();
  await back.waitFor();
  for (let n = 0; n < 50 && (await back.count()) > 0; n++) {
    await page.keyboard.press("e");
    await page.waitForTimeout(200);
  }
  const zero = page.locator(".mail-zero");
  await zero.waitFor();
  expect(await zero.getAttribute("data-motion")).toBe("none");
  await context.close();
});
