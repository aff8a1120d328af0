// Plain JavaScript so the test suites, the benchmarks and scripts/screenshot.js share one launcher.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

/** Where Chromium or Google Chrome usually is on Debian/Ubuntu, other Linux installs and macOS. */
const USUAL_PLACES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/opt/google/chrome/chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  path.join(os.homedir(), "Applications/Google Chrome.app/Contents/MacOS/Google Chrome"),
  path.join(os.homedir(), "Applications/Chromium.app/Contents/MacOS/Chromium"),
];

/** `CHROMIUM_PATH` when set (and then only it: a wrong setting is reported, not worked around), else the first usual place that exists. */
export function findChromium(env = process.env) {
  const tried = env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : USUAL_PLACES;
  return { path: tried.find((candidate) => fs.existsSync(candidate)), tried };
}

export function chromiumMissingMessage(tried) {
  return [
    "Chromium (or Google Chrome) was not found. Any of these makes it available:",
    "  - set CHROMIUM_PATH to the browser's executable",
    "  - Debian/Ubuntu: apt-get install chromium",
    "  - macOS: install Google Chrome or Chromium into /Applications",
    "Tried:",
    ...tried.map((candidate) => `  ${candidate}`),
  ].join("\n");
}

/** The browser's executable, or an error saying how to get one. */
export function requireChromium() {
  const found = findChromium();
  if (!found.path) throw new Error(chromiumMissingMessage(found.tried));
  return found.path;
}

/** The executable found at start-up (undefined when there is none: the e2e global setup reports that first). */
export const CHROMIUM_PATH = findChromium().path;

/** The flags that keep Chromium headless and off the (closed) network. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Chromium 150 and later draw the omnibox popups of every window as WebUI pages, preloaded in a renderer of
// their own even in headless mode: each Playwright context paid a second renderer (10 contexts: 23 renderers and
// 3.5 GB against 13 and 2.0 GB, 3.7 s against 1.4 s to open), which on two cores slowed every browser test.
// Chromium keeps only the last --disable-features it is given, so Playwright's own list is repeated here.
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];
const BROWSER_UI_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/** CHROMIUM_FLAGS for a browser Playwright drives: without the browser's own UI pages no test ever shows. */
export const PLAYWRIGHT_CHROMIUM_FLAGS = [...CHROMIUM_FLAGS, `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...BROWSER_UI_FEATURES].join(",")}`];

/** The local Chromium with those flags (and `extraArgs`); Playwright gives it a fresh profile. */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({ executablePath: requireChromium(), headless: true, args: [...PLAYWRIGHT_CHROMIUM_FLAGS, ...extraArgs] });
}

/**
 * The browser the test suites drive: like launchBrowser, but every context it opens prefers reduced motion unless
 * the test asks otherwise. The "Live" badges ping forever, and each open page then redraws sixty times a second:
 * with forty phones open the compositor alone took a core (decision 70). No test asserts motion; one that does
 * opens its context with `reducedMotion: "no-preference"`.
 */
export async function launchTestBrowser(extraArgs = []) {
  const browser = await launchBrowser(extraArgs);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ reducedMotion: "reduce", ...options });
  return browser;
}

/** @type {Promise<import("playwright-core").Browser> | undefined} */
let workerBrowser;

/**
 * The test browser this worker's files share (decision 71): a launch costs Chromium half a second of CPU, and a file
 * only ever uses contexts of its own. Each file hands it back with `releaseBrowser`, which closes what the file left
 * open, so the next file starts with no context, page or connection of the last. A browser that crashed is replaced.
 */
export async function sharedTestBrowser() {
  const current = workerBrowser && (await workerBrowser.catch(() => undefined));
  if (current?.isConnected()) return current;
  workerBrowser = launchTestBrowser();
  workerBrowser.catch(() => (workerBrowser = undefined));
  return workerBrowser;
}

/** Closes every context `browser` has open: the end of a file's use of the shared browser. */
export async function releaseBrowser(browser) {
  if (browser?.isConnected()) await Promise.all(browser.contexts().map((context) => context.close()));
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
