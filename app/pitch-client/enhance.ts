/**
 * The anonymous pitch page's only script (decision 13): the page is complete HTML without it (every action
 * is a link or a plain form, decision 6); this adds what needs a script, with no framework: dialogs without
 * a page load, forms submitted in place (kept on the phone while offline), Copy, the phone QR code, the live
 * Recognition Wall, relative times, the video facade, the deck reader's controls, Save, and the service worker that reopens the
 * page offline. On `/saved` it loads that page's list and keeps it for offline use.
 */
import "./pitch.css";
import { PHONE_QR_SIZE, phoneUrl } from "~/browser/phone-url";
import { isFollowing, showFollowing } from "~/browser/following";
import { settleArrival } from "~/browser/arrival";
import type * as DeckReaderModule from "~/browser/deck-reader";
import { savedListStorage } from "~/modules/saved/saved-list";
import { enhanceDialogs, type OpenedDialog, type PitchDialogControl } from "./dialogs";
import { enhanceForm, sendKeptSubmissions } from "./forms";
import { enhanceLiveWall, keepTimesCurrent } from "./live-wall";
import { canKeepOffline } from "./offline-queue";
import type * as QrCodeModule from "./qr-code";
import { enhanceSaveButton, sendPendingSaves, type LoadSavedListClient } from "./save-button";
import { SAVED_LIST_PATH } from "~/modules/saved/saved-list";

type QrCodeDrawer = typeof QrCodeModule;

/** A module built apart, imported by the address the document names (`data-qr-code`, `data-deck-controls`). */
function importApart<Module>(name: "qrCode" | "deckControls"): Promise<Module> {
  const address = document.documentElement.dataset[name];
  // A document without the address (never one the server renders) fails as a module that does not load.
  return address ? import(/* @vite-ignore */ address) : Promise.reject(new Error(name));
}

/** The phone dialog's QR code, drawn in the browser (the library loads only when the dialog opens). */
async function drawPhoneCode(dialog: OpenedDialog) {
  const frame = dialog.content.querySelector<HTMLElement>("[aria-busy]");
  if (!frame) return;
  const url = phoneUrl(location.href);
  const address = document.createElement("p");
  address.className = "max-w-full break-all text-xs text-slate-500";
  address.textContent = url;
  try {
    const { qrCodeSvg } = await importApart<QrCodeDrawer>("qrCode");
    const svg = await qrCodeSvg(url, PHONE_QR_SIZE);
    const image = document.createElement("img");
    image.src = `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
    image.width = image.height = PHONE_QR_SIZE;
    image.alt = "QR code linking to this pitch page";
    image.className = "size-64";
    frame.replaceChildren(image);
  } catch (error) {
    console.warn("QR code could not be drawn", error);
    const failed = document.createElement("p");
    failed.className = "px-6 text-sm text-slate-600";
    failed.textContent = "The QR code could not be drawn. Open the address below on your phone.";
    frame.replaceChildren(failed);
  }
  frame.setAttribute("aria-busy", "false");
  frame.after(address);
}

/** Tapping the video facade plays the video in place (before this runs it is a link to the video's site). */
function enhanceVideo() {
  for (const facade of document.querySelectorAll<HTMLAnchorElement>("a[data-video-embed]")) {
    facade.addEventListener("click", (event) => {
      event.preventDefault();
      const player = document.createElement("iframe");
      player.src = facade.dataset.videoEmbed ?? "";
      player.title = facade.dataset.videoTitle ?? "Video";
      player.className = "absolute inset-0 size-full";
      player.allow = "autoplay; fullscreen; picture-in-picture; encrypted-media";
      player.allowFullscreen = true;
      player.referrerPolicy = "strict-origin-when-cross-origin";
      facade.replaceWith(player);
    });
  }
}

/**
 * The deck reader's controls, built apart and imported by address once the deck comes on screen: until then (and
 * without a script) its pages already swipe, and a visitor who never reaches the deck never loads them.
 */
function enhanceDeckReader(reader: HTMLElement) {
  const nearby = new IntersectionObserver(([entry]) => {
    if (entry?.isIntersecting) {
      nearby.disconnect();
      // Failing to load leaves the reader as it is without a script: it still swipes.
      importApart<typeof DeckReaderModule>("deckControls").then((reading) => reading.enhanceDeckReader(reader), Boolean);
    }
  });
  nearby.observe(reader);
}

/** The header's Back button: back where the visitor came from, or home when this page was the first. */
function enhanceBackButton() {
  document.querySelector("[data-history-back]")?.addEventListener("click", () => {
    if (history.length > 1) history.back();
    else location.assign("/");
  });
}

/** A registration's worker once it is active (a first registration installs it first), or null if it fails. */
function activeWorker(registration: ServiceWorkerRegistration): Promise<ServiceWorker | null> {
  if (registration.active) return Promise.resolve(registration.active);
  const pending = registration.installing ?? registration.waiting;
  if (!pending) return Promise.resolve(null);
  return new Promise((resolve) => {
    pending.addEventListener("statechange", () => {
      if (pending.state === "activated") resolve(pending);
      else if (pending.state === "redundant") resolve(null);
    });
  });
}

/** Asks a worker to keep these addresses (fetched now, into the cache every registration shares). */
function keepOffline(worker: ServiceWorker, urls: string[]): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    worker.postMessage({ type: "keep", urls }, [channel.port2]);
  });
}

/** The worker's two scopes: the pitch pages (`/pitch/`) and the saved list (`/saved`), one registration each. */
async function register(scope: string): Promise<ServiceWorkerRegistration | null> {
  const script = document.documentElement.dataset.serviceWorker;
  if (!script || !canKeepOffline()) return null;
  return ((await navigator.serviceWorker.register(script, { scope })) as ServiceWorkerRegistration | undefined) ?? null;
}

/**
 * Whether this document came through the worker (which kept it as it passed). A worker that took control of the
 * page later, by `clients.claim()` as it activated, did not see the document and has no copy of it.
 */
function servedByWorker(): boolean {
  const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return Boolean(navigator.serviceWorker.controller) && (navigation?.workerStart ?? 0) > 0;
}

/**
 * Registers the service worker for this page's scope. A page served through it is already kept; on the first
 * visit it was not, so the worker is asked to keep this page and its scripts now. `data-offline-ready` says
 * when they are kept.
 */
async function registerServiceWorker(scope: string, urls: string[]) {
  try {
    const registration = await register(scope);
    if (!registration) return;
    if (!servedByWorker()) {
      const worker = await activeWorker(registration);
      if (worker) await keepOffline(worker, urls);
    }
    document.documentElement.dataset.offlineReady = "true";
  } catch (error) {
    console.warn("The page cannot be kept for offline use", error);
  }
}

/**
 * Once a pitch is saved, `/saved` must open offline even if it was never opened online: its own registration is
 * made from here, and its page and scripts are kept now. `data-saved-list-offline` says when.
 */
async function keepSavedListOffline() {
  try {
    const registration = await register(SAVED_LIST_PATH);
    const worker = registration && (await activeWorker(registration));
    if (!worker) return;
    await keepOffline(worker, savedListUrls());
    document.documentElement.dataset.savedListOffline = "true";
  } catch (error) {
    console.warn("The saved list cannot be kept for offline use", error);
  }
}

const savedListClientUrl = () => document.documentElement.dataset.savedList ?? "";
const savedListUrls = () => [SAVED_LIST_PATH, import.meta.url, savedListClientUrl()].filter(Boolean);

/** The saved list's client, by address (built apart, like the QR code drawer). */
const loadSavedListClient: LoadSavedListClient = () => import(/* @vite-ignore */ savedListClientUrl());

function enhance(page: HTMLElement) {
  const projectTitle = page.querySelector("h1")?.textContent ?? "";
  if (page.dataset.pitchPage && isFollowing(savedListStorage(), page.dataset.pitchPage)) showFollowing(page);
  const dialogs: PitchDialogControl = enhanceDialogs(page, (dialog) => {
    if (dialog.name === "phone") void drawPhoneCode(dialog);
    else enhanceForm(dialog, projectTitle, () => dialogs);
  });
  if (page.dataset.projectId) settleArrival(page.dataset.projectId);
  enhanceVideo();
  const reader = page.querySelector<HTMLElement>("[data-deck-reader]");
  if (reader) enhanceDeckReader(reader);
  enhanceBackButton();
  keepTimesCurrent(page);
  if (page.dataset.projectId) enhanceLiveWall(page.dataset.projectId);
  enhanceSaveButton(page, loadSavedListClient, keepSavedListOffline);
  addEventListener("online", () => {
    void sendKeptSubmissions(dialogs);
    sendPendingSaves(loadSavedListClient);
  });
  void sendKeptSubmissions(dialogs);
  sendPendingSaves(loadSavedListClient);
  // Save works offline too: the saved list's client is kept with the page, and so are its dialogs.
  void registerServiceWorker("/pitch/", [location.pathname, page.dataset.dialogs ?? "", import.meta.url, savedListClientUrl()].filter(Boolean));
  document.documentElement.dataset.enhanced = "true";
}

/** `/saved`: its list is drawn by a module of its own, loaded only there. */
async function enhanceSavedList(savedPage: HTMLElement) {
  (await loadSavedListClient()).showSavedList(savedPage);
  addEventListener("online", () => sendPendingSaves(loadSavedListClient));
  sendPendingSaves(loadSavedListClient);
  void registerServiceWorker(SAVED_LIST_PATH, savedListUrls());
  document.documentElement.dataset.enhanced = "true";
}

const page = document.querySelector<HTMLElement>("[data-pitch-page]");
const savedPage = document.querySelector<HTMLElement>("[data-saved-page]");
if (page) {
  // After the first frame is painted: the page reads (and its links and forms work) without this.
  const start = () => setTimeout(() => enhance(page), 0);
  if (document.visibilityState === "visible") requestAnimationFrame(start);
  else start();
} else if (savedPage) {
  void enhanceSavedList(savedPage);
}
