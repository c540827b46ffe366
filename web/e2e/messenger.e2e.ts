/**
 * The messenger page (issue 69) against a real Synapse: the app signs in as alice with the password
 * key `matrix.toml` names, bob writes in a room they share, the page lists the room and shows his
 * message (and the inbox has its row, which opens the room), alice answers from the reply box and
 * bob reads the answer through the homeserver. The page passes axe at 1440 and 390 px in both
 * themes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";
import { startSynapse, type Synapse } from "./matrixRig";

const e2e = serverAndBrowser();
let synapse: Synapse;
let bob = "";
let room = "";

beforeAll(async () => {
  synapse = await startSynapse();
  synapse.register("alice", "alice-password");
  synapse.register("bob", "bob-password");
  bob = await synapse.login("bob", "bob-password");
  const made = await synapse.call("POST", "/createRoom", bob, { name: "Family", invite: ["@alice:localhost"] });
  room = String(made.room_id);
  const alice = await synapse.login("alice", "alice-password");
  await synapse.call("POST", `/join/${encodeURIComponent(room)}`, alice, {});
}, 90_000);

afterAll(() => {
  synapse?.stop();
});

interface Message {
  sender: string;
  body: string;
  own: boolean;
}

test("bob's message shows in the room, and alice's answer from the reply box reaches him", async () => {
  const { server } = e2e;
  writeFileSync(
    join(server.dataDir, "matrix.toml"),
    `homeserver = "${synapse.url}"\nuser = "alice"\npassword_key = "MATRIX_PASSWORD"\n`,
  );
  const saved = await server.api("PUT", "/keys/MATRIX_PASSWORD", { value: "alice-password" });
  expect(saved.status).toBeLessThan(300);
  await setSetting(server, "messengerEnabled", true);
  const path = `/messenger/rooms/${encodeURIComponent(room)}/messages`;
  await until(
    () => server.api<{ id: string }[]>("GET", "/messenger/rooms"),
    (reply) => reply.status === 200 && reply.body.some((r) => r.id === room),
    30_000,
  );

  await synapse.call("PUT", `/rooms/${encodeURIComponent(room)}/send/m.room.message/dinner`, bob, {
    msgtype: "m.text",
    body: "Dinner at 7?",
  });
  await until(
    () => server.api<Message[]>("GET", path),
    (reply) => reply.body.some((m) => m.body === "Dinner at 7?"),
    30_000,
  );
  const rows = await server.api<{ id: string; title: string; body: string | null }[]>(
    "GET",
    "/inbox?category=messenger",
  );
  expect(rows.body.map((r) => [r.title, r.body])).toEqual([["@bob:localhost in Family", "Dinner at 7?"]]);

  const { context, page } = await loggedInPage(e2e, "/messenger");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Messenger", level: 1 }).waitFor();
  await page
    .getByRole("list", { name: "Rooms" })
    .getByRole("button", { name: /Family/ })
    .click();
  await page.getByRole("heading", { name: "Family" }).waitFor();
  await page.locator(".phone-messages").getByText("Dinner at 7?").waitFor();
  await page.locator(".phone-messages").getByText("@bob:localhost").waitFor();

  const reply = page.getByRole("textbox", { name: "Reply in Family" });
  await reply.fill("Yes! 🍝");
  await reply.press("Control+Enter");
  await page.locator(".phone-messages .phone-own").getByText("Yes! 🍝").waitFor();
  const seen = await until(
    () => synapse.call("GET", `/rooms/${encodeURIComponent(room)}/messages?dir=b&limit=10`, bob),
    (answer) =>
      (answer.chunk as { type: string; content: { body?: string } }[]).some((e) => e.content.body === "Yes! 🍝"),
  );
  const answered = (seen.chunk as { type: string; sender: string; content: { body?: string } }[]).find(
    (e) => e.type === "m.room.message" && e.content.body === "Yes! 🍝",
  );
  expect(answered?.sender).toBe("@alice:localhost");
  // The answer came back through sync too, and is kept once.
  await new Promise((done) => setTimeout(done, 1_500));
  const kept = await server.api<Message[]>("GET", path);
  expect(kept.body.filter((m) => m.body === "Yes! 🍝")).toHaveLength(1);

  // The inbox row's link opens the room.
  await page.goto(`${server.uiUrl}/messenger?room=${encodeURIComponent(room)}`);
  await page.getByRole("heading", { name: "Family" }).waitFor();
  await page.locator(".phone-messages").getByText("Dinner at 7?").waitFor();

  const shots = mkdtempSync(join(tmpdir(), "messenger-e2e-"));
  expect(await everyLook(server, page, "messenger", shots)).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});
