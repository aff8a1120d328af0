/**
 * The pitch page's service worker (decision 13): keeps each visited pitch page and its script so the page
 * reopens with no connection. It is registered twice, with scope `/pitch/` and with scope `/saved` (the saved
 * list, registered from a pitch page at the first Save, so the list opens offline even if it was never
 * opened online); both share one cache. It only ever answers GET requests for pitch pages, `/saved` and their own
 * hashed scripts: form posts, the live wall's event stream, founder pages and everything else go to the network
 * untouched.
 *
 * Pages are network first: the cached copy is used only when the network fails. Only the shared anonymous
 * document (`Cache-Control: public`) is kept; any other answer for the page's plain address (a signed-in
 * owner's page, say) removes the kept copy, so an owner is never shown a stale page. Other addresses of the
 * page (`?dialog=`, rendered afresh for everyone) neither store nor remove it. Each page's dialogs
 * (`/pitch/{slug}/dialogs`, decision 51) are kept beside it the same way, network first.
 */
import { PITCH_OFFLINE_CACHE } from "./offline-cache";

// The few service-worker types used here (the project compiles against the DOM library, not WebWorker's).
type ExtendableEvent = Event & { waitUntil(work: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(answer: Promise<Response>): void };
type ExtendableMessageEvent = ExtendableEvent & { data: unknown; ports: readonly MessagePort[] };
type WorkerScope = {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "message", listener: (event: ExtendableMessageEvent) => void): void;
};
const worker = self as unknown as WorkerScope;
export {};

const CACHE = PITCH_OFFLINE_CACHE;
const isPitchPage = (url: URL) => url.pathname.startsWith("/pitch/") && !url.pathname.slice("/pitch/".length).includes("/");
/** `SAVED_LIST_PATH`, not imported: the worker shares no module with the pages' script, so it stays one classic script. */
const isSavedListPage = (url: URL) => url.pathname === "/saved";
/** The documents kept for offline use. */
const isKeptPage = (url: URL) => isPitchPage(url) || isSavedListPage(url);
/** A pitch page's dialogs, fetched by its module (decision 51). */
const isPageDialogs = (url: URL) => /^\/pitch\/[^/]+\/dialogs$/.test(url.pathname);
/** These pages' own hashed files (the React app's, loaded by signed-in owners, are not kept). */
const isHashedAsset = (url: URL) => /^\/assets\/pitch-(?:enhance|qr-code|saved)-[\w-]+\.js$/.test(url.pathname);
/** Kept by address alone: `?qr=` and `?dialog=` open the same document. */
const pageKey = (url: URL) => `${url.origin}${url.pathname}`;
/** The addresses the server answers with the shared document when nobody is signed in. */
const isPlainAddress = (url: URL) => [...url.searchParams.keys()].every((key) => key === "qr");
const isShared = (response: Response) => response.ok && /\bpublic\b/.test(response.headers.get("cache-control") ?? "");

worker.addEventListener("install", () => void worker.skipWaiting());
worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await worker.clients.claim();
    })(),
  );
});

const PAGE_MODULE = /\/assets\/pitch-(?:enhance|saved)-[\w-]+\.js/g;

async function keepPage(url: URL, response: Response) {
  if (!isPlainAddress(url)) return;
  if (!isShared(response)) {
    // Opening the cache would create it again after the React app deleted it for a signed-in owner.
    if (!(await caches.has(CACHE))) return;
    const cache = await caches.open(CACHE);
    await cache.delete(pageKey(url));
    // Its dialogs go with it (kept only for a page kept).
    if (isPitchPage(url)) await cache.delete(`${pageKey(url)}/dialogs`);
    return;
  }
  const cache = await caches.open(CACHE);
  await cache.put(pageKey(url), response);
  await forgetOldModules(cache);
}

/** After a new build, the modules no kept page loads any more are dropped (hashed: each build has its own). */
async function forgetOldModules(cache: Cache) {
  const entries = await cache.keys();
  const inUse = new Set<string>();
  for (const entry of entries) {
    if (!isKeptPage(new URL(entry.url))) continue;
    const page = await cache.match(entry, { ignoreVary: true });
    for (const match of (await page?.text())?.matchAll(PAGE_MODULE) ?? []) inUse.add(match[0]);
  }
  for (const entry of entries) {
    const path = new URL(entry.url).pathname;
    if (/^\/assets\/pitch-(?:enhance|saved)-/.test(path) && !inUse.has(path)) await cache.delete(entry);
  }
}

/** A page's dialogs are kept beside it, by address, whenever they come back whole. */
async function keepDialogs(url: URL, response: Response) {
  if (response.ok) await (await caches.open(CACHE)).put(pageKey(url), response);
}

/** Network first, `keep` what came back; the kept copy only when the network fails. */
async function fromNetwork(request: Request, url: URL, keep: (url: URL, response: Response) => Promise<void>): Promise<Response> {
  try {
    const response = await fetch(request);
    await keep(url, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(pageKey(url), { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

async function assetFromCache(request: Request): Promise<Response> {
  const kept = await caches.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate" && isKeptPage(url)) event.respondWith(fromNetwork(request, url, keepPage));
  else if (isPageDialogs(url)) event.respondWith(fromNetwork(request, url, keepDialogs));
  else if (isHashedAsset(url)) event.respondWith(assetFromCache(request));
});

/** On the first visit the page was not served through this worker: it asks for its page and script to be kept. */
worker.addEventListener("message", (event) => {
  const data = event.data as { type?: string; urls?: unknown } | null;
  if (data?.type !== "keep" || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((value): value is string => typeof value === "string").map((value) => new URL(value, location.origin));
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const url of urls) {
        if (url.origin !== location.origin) continue;
        if (isKeptPage(url)) {
          // Marked, so the server does not count this copy as another visit (decision 15).
          const response = await fetch(url, { credentials: "same-origin", headers: { "X-PitchQR-Offline-Copy": "1" } }).catch(() => null);
          if (response) await keepPage(url, response);
        } else if (isPageDialogs(url)) {
          const response = await fetch(url, { credentials: "omit" }).catch(() => null);
          if (response) await keepDialogs(url, response);
        } else if (isHashedAsset(url) && !(await cache.match(url, { ignoreVary: true }))) {
          await cache.add(url).catch(() => undefined);
        }
      }
      event.ports[0]?.postMessage("kept");
    })(),
  );
});
