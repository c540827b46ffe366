/*
 * Switchboard's service worker (docs/phone.md): it keeps the app's shell so the installed app
 * opens without the network, and shows Web Push notifications. A push is JSON `{title, body, url,
 * tag}` (generic with contentFreeMobilePush: the page fetches the details after the click); a
 * click focuses an open Switchboard window on `url`, or opens one. Plain JavaScript served as it
 * is from the web app's root, so its scope is the whole app.
 */
const SHELL = "switchboard-shell-v1";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(["/", "/manifest.webmanifest", "/favicon.svg", "/icon-192.png"]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  // The API and the live stream are never cached: they answer for the moment.
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // The page from the network when it answers, the kept shell when it does not.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(SHELL).then((cache) => cache.put("/", copy));
          }
          return response;
        })
        .catch(() => caches.match("/").then((kept) => kept ?? Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    // Hashed file names never change: the kept copy is the file.
    event.respondWith(
      caches.match(request).then(
        (kept) =>
          kept ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(SHELL).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});

/** A same-origin path; anything else opens the app's start. */
function localPath(url) {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/";
}

self.addEventListener("push", (event) => {
  let push;
  try {
    push = event.data ? event.data.json() : {};
  } catch {
    push = { body: event.data ? event.data.text() : "" };
  }
  if (push === null || typeof push !== "object") push = {};
  const title = typeof push.title === "string" && push.title ? push.title : "Switchboard";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof push.body === "string" ? push.body : "",
      tag: typeof push.tag === "string" && push.tag ? push.tag : undefined,
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { url: localPath(push.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = localPath(event.notification.data && event.notification.data.url);
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) return open.focus().then((client) => client.navigate(target));
      return self.clients.openWindow(target);
    }),
  );
});
