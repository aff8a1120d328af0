/**
 * The founder workspace's service worker (decision 56): push only, no fetch handler, so it caches nothing and
 * never stands between the founder and the server. Its scope is `/project/`, apart from the pitch pages'
 * (`/pitch/`) and the saved list's (`/saved`) workers. A tap opens the lead on this origin whatever the push
 * says, and focuses a window already showing it.
 */
export const PUSH_WORKER_PATH = "/project/push-worker.js";
export const PUSH_WORKER_SCOPE = "/project/";

export const PUSH_WORKER_SCRIPT = `"use strict";
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { title: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || "New lead", {
      body: message.body || "",
      tag: message.tag,
      icon: "/icons/icon-192.png",
      data: { url: message.url || "/my-projects" },
    }),
  );
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const sent = new URL((event.notification.data && event.notification.data.url) || "/my-projects", self.location.origin);
  const target = new URL(sent.pathname + sent.search, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target && "focus" in client);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
`;
