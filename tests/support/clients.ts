// Helpers shared by the browser and server suites: distinct clients, waiting for pages, form posts, failure logs.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterEach } from "vitest";

let addressCounter = 0;
const addressSeed = (process.pid % 200) + 20;

/**
 * A client address no other caller in this process has been given. Rate limits are kept per client address,
 * and the test servers trust X-Forwarded-For from loopback, so each browser context (or fetch series) can
 * speak for its own client.
 */
export function nextClientAddress(): string {
  addressCounter += 1;
  return `10.${addressSeed}.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** A browser context that appears to the app as a distinct client (its own X-Forwarded-For). */
export async function newClientContext(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; address: string }> {
  const address = nextClientAddress();
  const context = await browser.newContext({
    ...options,
    extraHTTPHeaders: { ...options.extraHTTPHeaders, "x-forwarded-for": address },
  });
  return { context, address };
}

/** Resolves once React has hydrated the document, so client-side handlers (validation, menus) are live. */
export async function waitForHydration(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      () => {
        const main = document.querySelector("main");
        return !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber") || key.startsWith("__reactProps"));
      },
      undefined,
      { timeout: 20_000 },
    );
  } catch (error) {
    // The usual cause: the build was replaced while the server ran, so the page's hashed scripts are gone.
    const missing = await page
      .evaluate(async () => {
        const preloaded = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href);
        const imported = [...document.scripts].flatMap((script) => [...script.text.matchAll(/["'](\/assets\/[^"']+\.js)["']/g)].map((m) => new URL(m[1] ?? "", location.href).href));
        const urls = [...new Set([...preloaded, ...imported])];
        const statuses = await Promise.all(urls.map((url) => fetch(url).then((response) => response.status, () => 0)));
        return urls.filter((_, index) => statuses[index] !== 200);
      })
      .catch(() => []);
    if (missing.length) {
      throw new Error(
        `${page.url()} never hydrated: its scripts are missing (${missing.join(", ")}). Was the app rebuilt while this test's server was running?`,
      );
    }
    throw error;
  }
}

/**
 * Resolves once the anonymous pitch page's enhancement module (decision 13) has wired the page: dialogs,
 * forms, Copy and the live wall work without a page load. That page ships no React, so it never hydrates.
 */
export async function waitForEnhancement(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.enhanced === "true", undefined, { timeout: 20_000 });
}

/** Console errors and uncaught page errors, collected for the page's whole life. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} ${JSON.stringify(message.location())}`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/** POSTs a form to /auth the way a browser without JavaScript would (same-origin unless told otherwise). */
export function postAuthForm(
  baseUrl: string,
  fields: Record<string, string>,
  options: { address?: string; origin?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: options.origin ?? baseUrl,
    ...options.headers,
  };
  if (options.address) headers["x-forwarded-for"] = options.address;
  return fetch(`${baseUrl}/auth`, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

/** The cookies of a browser context as one Cookie request header. */
export async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** The pathname and search of a redirect's Location, resolved against the app's URL. */
export function locationOf(response: Response, baseUrl: string): URL {
  const location = response.headers.get("location");
  if (!location) throw new Error(`expected a Location header on ${response.status} ${response.url}`);
  return new URL(location, baseUrl);
}

/** On a failed test, prints the app's last log lines (and whether it is still up), to tell app faults from test faults. */
export function showServerLogsOnFailure(servers: () => Array<{ url: string; logs: string[] } | undefined>): void {
  afterEach(async (context) => {
    if (context.task.result?.state !== "fail") return;
    for (const server of servers()) {
      if (!server) continue;
      const up = await fetch(`${server.url}/healthz`).then(
        (response) => `answers /healthz with ${response.status}`,
        () => "NOT RUNNING",
      );
      console.error(`[${server.url} ${up}] last log lines:\n${server.logs.slice(-40).join("\n")}`);
    }
  });
}
