/**
 * Web Push in Chromium against a real server (issue 69): the app is installable (Chromium's own
 * installability check finds nothing wrong with the manifest, icons and service worker), and
 * "Notify me on this device" subscribes from the settings page. Headless Chromium has no push
 * service of its own, so the browser's `PushManager` is pointed at a push-service stand-in here:
 * its subscription carries a key pair this test holds, and the stand-in checks each push's VAPID
 * signature and decrypts it (RFC 8291) as the phone would. The test button's push arrives
 * content-free, the panel says so, the device chooses the daily briefing (kept over a reload), and
 * the device is removed; at 390 px nothing runs off the side.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { PushSubscription as Device } from "../src/shared/api/types.generated";
import { consoleErrors, loggedInPage, serverAndBrowser, until } from "./harness";

const e2e = serverAndBrowser();
const PANE = "inbox-notifications-inbox-behaviour-and-notices";

interface Pushed {
  headers: IncomingHttpHeaders;
  claims: Record<string, unknown>;
  payload: Record<string, unknown>;
}

let pushService: Server;
let origin = "";
const pushed: Pushed[] = [];
const refused: string[] = [];
let device: ECDH;
const auth = randomBytes(16);

const b64url = (bytes: Buffer) => bytes.toString("base64url");

/** The VAPID claims when the JWT's ES256 signature verifies against `k`. */
function vapidClaims(header: string | undefined): Record<string, unknown> {
  const [, token, k] = /^vapid t=([^,]+), k=(.+)$/.exec(header ?? "") ?? [];
  if (token === undefined || k === undefined) throw new Error(`not a vapid header: ${header}`);
  const key = Buffer.from(k, "base64url");
  const [head = "", claims = "", signature = ""] = token.split(".");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(key.subarray(1, 33)), y: b64url(key.subarray(33, 65)) },
    format: "jwk",
  });
  const signed = Buffer.from(`${head}.${claims}`);
  const good = verify(
    "sha256",
    signed,
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!good) throw new Error("the VAPID signature does not verify");
  return JSON.parse(Buffer.from(claims, "base64url").toString()) as Record<string, unknown>;
}

/** RFC 8291: the aes128gcm body decrypted with the device's private key and auth secret. */
function decrypt(body: Buffer): Record<string, unknown> {
  const salt = body.subarray(0, 16);
  const idlen = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  const shared = device.computeSecret(serverKey);
  const info = Buffer.concat([Buffer.from("WebPush: info\0"), device.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, auth, info, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  // The last record ends with the delimiter 2.
  return JSON.parse(plain.subarray(0, end).toString()) as Record<string, unknown>;
}

beforeAll(async () => {
  device = createECDH("prime256v1");
  device.generateKeys();
  pushService = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        const claims = vapidClaims(request.headers.authorization);
        const payload = decrypt(Buffer.concat(chunks));
        pushed.push({ headers: request.headers, claims, payload });
        response.writeHead(201).end();
      } catch (error) {
        refused.push(String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((done) => pushService.listen(0, "127.0.0.1", done));
  const address = pushService.address();
  if (typeof address !== "object" || address === null) throw new Error("no push service port");
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((done) => pushService?.close(done));
});

test("the app is installable and a device subscribes, gets a test push and is removed", async () => {
  const { context, page } = await loggedInPage(e2e, `/settings#${PANE}`);
  const errors = consoleErrors(page);
  await context.grantPermissions(["notifications"], { origin: e2e.server.uiUrl });
  // The browser's push service, as far as this page can tell: a subscription to the stand-in.
  await context.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      let current: unknown = null;
      const make = (options: PushSubscriptionOptionsInit) => ({
        endpoint,
        expirationTime: null,
        options: { applicationServerKey: options.applicationServerKey, userVisibleOnly: true },
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: () => {
          current = null;
          return Promise.resolve(true);
        },
      });
      PushManager.prototype.subscribe = function (options?: PushSubscriptionOptionsInit) {
        current = make(options ?? {});
        return Promise.resolve(current as PushSubscription);
      };
      PushManager.prototype.getSubscription = function () {
        return Promise.resolve(current as PushSubscription | null);
      };
    },
    { endpoint: `${origin}/push/e2e`, p256dh: b64url(device.getPublicKey()), auth: b64url(auth) },
  );
  await page.reload();

  // Installable: the manifest and the service worker as Chromium judges them.
  const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? "");
  expect(worker).toBe(`${e2e.server.uiUrl}/sw.js`);
  const cdp = await context.newCDPSession(page);
  const manifest = (await cdp.send("Page.getAppManifest")) as { errors: unknown[]; url: string };
  expect(manifest.url).toBe(`${e2e.server.uiUrl}/manifest.webmanifest`);
  expect(manifest.errors).toEqual([]);
  const installability = (await cdp.send("Page.getInstallabilityErrors")) as {
    installabilityErrors: { errorId: string }[];
  };
  // A test's browser context is off the record, which alone keeps Chromium from offering the install.
  expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);

  const panel = page.getByRole("region", { name: "Devices that get pushes" });
  await panel.getByLabel("This device’s name").fill("E2E phone");
  await panel.getByRole("button", { name: "Notify me on this device" }).click();
  await expect.poll(() => panel.getByText("This device gets pushes as “E2E phone”.").count()).toBe(1);
  const listed = await e2e.server.api<Device[]>("GET", "/push/subscriptions");
  expect(listed.body.map((d) => [d.name, d.service])).toEqual([["E2E phone", origin]]);

  await panel.getByRole("button", { name: "Send test" }).click();
  await expect.poll(() => panel.getByText("Sent: it should show on the device now.").count()).toBe(1);
  expect(refused).toEqual([]);
  expect(pushed).toHaveLength(1);
  expect(pushed[0]?.payload).toEqual({
    title: "Switchboard",
    body: "Notifications reach this device.",
    url: "/",
    tag: "switchboard-test",
  });
  expect(pushed[0]?.claims.aud).toBe(origin);
  expect(pushed[0]?.headers["content-encoding"]).toBe("aes128gcm");

  // The daily briefing is this device's choice, kept by the server.
  const briefing = panel.getByRole("checkbox", { name: "Daily briefing" });
  expect(await briefing.isChecked()).toBe(false);
  await briefing.check();
  await until(
    () => e2e.server.api<Device[]>("GET", "/push/subscriptions"),
    (reply) => reply.body[0]?.dailyBriefing === true,
  );
  await page.reload();
  await expect.poll(() => panel.getByRole("checkbox", { name: "Daily briefing" }).isChecked()).toBe(true);

  // A phone: the panel fits.
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  expect(await panel.isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await panel.getByRole("button", { name: "Remove" }).click();
  await until(
    () => e2e.server.api<Device[]>("GET", "/push/subscriptions"),
    (reply) => reply.body.length === 0,
  );
  expect(errors).toEqual([]);
  await context.close();
});
