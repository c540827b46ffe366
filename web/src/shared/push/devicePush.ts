/**
 * This device's Web Push (docs/phone.md): the service worker that keeps the app's shell and shows
 * pushes (`/sw.js`), and the browser's push subscription made with the server's VAPID key and kept
 * by the server under the name the user gives the device. Shared so that any page (the settings,
 * a devices panel) can offer "Notify me on this device".
 */
import { apiFetch } from "../api/client";
import type { PushSubscription as Device, VapidPublicKey } from "../api/types.generated";

/** Registers `/sw.js` once; later calls get the same registration. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration> | null {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return null;
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

/** Why this browser cannot get pushes, or null when it can. */
export function pushUnsupported(): string | null {
  if (!window.isSecureContext) return "Push needs a secure address: https, or localhost on this machine.";
  if (!("serviceWorker" in navigator) || !("PushManager" in window))
    return "This browser cannot get push notifications.";
  if (!("Notification" in window)) return "This browser cannot show notifications.";
  return null;
}

/** A base64url string (the VAPID key) as the bytes `applicationServerKey` takes. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** The same key, whatever the padding and alphabet of either side. */
function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (a === null || a.byteLength !== b.length) return false;
  const left = new Uint8Array(a);
  return left.every((byte, i) => byte === b[i]);
}

/** A name to start from: the browser and the system, as the user agent says them. */
export function suggestedName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}

/**
 * Asks the user's permission, subscribes this browser with the server's key (anew when it was
 * subscribed with another) and has the server keep it as `name`.
 */
export async function subscribeThisDevice(name: string): Promise<Device> {
  const registering = registerServiceWorker();
  if (registering === null) throw new Error(pushUnsupported() ?? "Push is not available here.");
  await registering;
  const registration = await navigator.serviceWorker.ready;
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error("Notifications are blocked for this site in the browser's settings.");
  const { key } = await apiFetch<VapidPublicKey>("/push/vapid-public-key");
  const serverKey = base64UrlBytes(key);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, serverKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  return apiFetch<Device>("/push/subscriptions", { method: "POST", body: { ...subscription.toJSON(), name } });
}
