/**
 * The texts page (issue 69) against a real server and a stand-in of the SMS Gateway for Android
 * app's local server (`POST /message` with basic auth, as the app documents it): a new text sent
 * from the page reaches the phone; a signed incoming text shows in its thread; the reply box
 * answers it; the page passes axe at 1440 and 390 px in both themes.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();
const PASSWORD = "phone-pass-e2e";
const SIGNING_KEY = "sms-e2e-signing-key";
let gateway: Server;
let gatewayUrl = "";
/** What the phone was asked to send. */
const sent: { id: string; to: string[]; text: string }[] = [];

beforeAll(async () => {
  const expected = `Basic ${Buffer.from(`sms:${PASSWORD}`).toString("base64")}`;
  gateway = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { "Content-Type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (request.url === "/health") return reply(200, { status: "pass" });
      if (request.headers.authorization !== expected) return reply(401, { message: "Unauthorized" });
      if (request.method === "POST" && request.url === "/message") {
        const message = JSON.parse(body) as { id: string; phoneNumbers: string[]; textMessage: { text: string } };
        sent.push({ id: message.id, to: message.phoneNumbers, text: message.textMessage.text });
        return reply(202, { id: message.id, state: "Pending", recipients: [] });
      }
      return reply(404, { message: "not found" });
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  const address = gateway.address();
  if (typeof address !== "object" || address === null) throw new Error("no gateway address");
  gatewayUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((resolve) => gateway.close(resolve));
});

/** An `sms:received` delivery as the app posts it, signed with the webhook's key. */
async function incoming(id: string, from: string, text: string) {
  const body = JSON.stringify({ event: "sms:received", payload: { messageId: id, message: text, phoneNumber: from } });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", SIGNING_KEY)
    .update(body + timestamp)
    .digest("hex");
  return fetch(`${e2e.server.controlUrl}/sms/incoming`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Timestamp": timestamp, "X-Signature": signature },
    body,
  });
}

test("a text goes out from the page, a reply comes in, and the reply box answers it", async () => {
  const { server } = e2e;
  writeFileSync(
    join(server.dataDir, "sms.toml"),
    `webhook_secret_key = "SMS_WEBHOOK_SECRET"\n[native]\nurl = "${gatewayUrl}"\nusername = "sms"\npassword_key = "SMS_GATEWAY_PASSWORD"\n`,
  );
  for (const [name, value] of [
    ["SMS_GATEWAY_PASSWORD", PASSWORD],
    ["SMS_WEBHOOK_SECRET", SIGNING_KEY],
  ] as const) {
    const saved = await server.api("PUT", `/keys/${name}`, { value });
    expect(saved.status).toBeLessThan(300);
  }
  await setSetting(server, "smsEnabled", true);
  await setSetting(server, "smsProvider", "native");

  const { context, page } = await loggedInPage(e2e, "/texts");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "New text" }).waitFor();
  await page.getByRole("textbox", { name: "To", exact: true }).fill("+49 30 222 333");
  await page.getByRole("textbox", { name: "Text", exact: true }).fill("Running late 🚲");
  await page.getByRole("button", { name: "Send" }).click();
  await until(
    async () => sent.length,
    (n) => n === 1,
  );
  expect(sent[0]).toMatchObject({ to: ["+4930222333"], text: "Running late 🚲" });
  await page.getByRole("heading", { name: "+4930222333" }).waitFor();
  await page.locator(".phone-messages").getByText("Running late 🚲").waitFor();

  const delivered = await incoming("in-1", "+4930222333", "No problem 👍");
  expect(delivered.status).toBe(200);
  await page.goto(`${server.uiUrl}/texts?number=%2B4930222333`);
  await page.locator(".phone-messages").getByText("No problem 👍").waitFor();
  await page.getByRole("textbox", { name: "Reply to +4930222333" }).fill("See you soon");
  await page.getByRole("textbox", { name: "Reply to +4930222333" }).press("Control+Enter");
  await until(
    async () => sent.length,
    (n) => n === 2,
  );
  expect(sent[1]?.text).toBe("See you soon");
  await page.locator(".phone-messages").getByText("See you soon").waitFor();

  const shots = mkdtempSync(join(tmpdir(), "phone-e2e-"));
  expect(await everyLook(server, page, "texts", shots)).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});

test("a stranger's text held in Spam is let out with Not spam, and its number saved as a contact", async () => {
  const { server } = e2e;
  const delivered = await incoming("in-stranger", "+4930999888", "Your parcel is waiting");
  expect(delivered.status).toBe(200);
  const { context, page } = await loggedInPage(e2e, "/texts");
  const errors = consoleErrors(page);
  await page.getByRole("tab", { name: "Spam" }).click();
  const held = page.getByRole("list", { name: "Held in Spam" });
  await held.getByRole("button", { name: /\+4930999888/ }).click();
  await page.getByRole("button", { name: "Not spam" }).click();
  await page
    .getByRole("list", { name: "Conversations" })
    .getByRole("button", { name: /\+4930999888/ })
    .waitFor();
  const threads = await server.api<{ number: string; spam: boolean }[]>("GET", "/sms/threads");
  expect(threads.body.find((t) => t.number === "+4930999888")?.spam).toBe(false);

  await page.getByRole("button", { name: "Save as contact" }).click();
  await page.getByRole("textbox", { name: "Contact name" }).fill("Parcel desk");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("heading", { name: "Parcel desk" }).waitFor();
  expect(await page.getByRole("button", { name: "Save as contact" }).count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});
