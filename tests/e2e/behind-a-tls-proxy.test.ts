// The app behind a TLS-terminating proxy of the test's own (HTTPS to the browser, HTTP to the app) that is configured
// as many real ones are: no X-Forwarded-Proto, or an X-Forwarded-Host without the port the browser used. With
// TRUST_PROXY and PUBLIC_URL set, a founder signs up, signs in and creates a project through it (React Router's action
// check answered every such form 400), and the log says once which header the proxy does not send.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PHONE, releaseBrowser, sharedTestBrowser } from "../support/chromium.js";
import { signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { startTlsProxy, type ForwardedHeaders, type TlsProxy } from "../support/tls-proxy";
import { newClientContext, waitForHydration } from "../support/clients";
import { withAppServer } from "../support/with-app-server";

let proxy: TlsProxy;
let browser: Browser;

beforeAll(async () => {
  proxy = await startTlsProxy();
});
afterAll(async () => {
  await proxy?.close();
});
const app = withAppServer({ env: () => ({ PUBLIC_URL: proxy.url, TRUST_PROXY: "loopback" }) });
beforeAll(async () => {
  browser = await sharedTestBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
});

/** Signs up, signs in and creates a project, all through the proxy; returns the new project's edit address. */
async function founderCreatesAProject(): Promise<URL> {
  const { context } = await newClientContext(browser, { viewport: PHONE, ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const email = uniqueEmail("behind-proxy");
    await signUpThroughPage(page, proxy.url, email);
    await signInThroughPage(page, proxy.url, email);
    await page.goto(`${proxy.url}/project/create`);
    await waitForHydration(page);
    const title = `Behind a proxy ${Date.now().toString(36)}`;
    await page.getByLabel("Project Title", { exact: true }).fill(title);
    await page.getByLabel("One-Liner", { exact: true }).fill("Posted through TLS");
    await page.getByRole("button", { name: "Create Project" }).click();
    await page.waitForURL(/\/project\/[^/]+\/edit$/);
    return new URL(page.url());
  } finally {
    await context.close();
  }
}

/** The app's warnings (pino level 40) that name `header`; start-up lines are plain text and are skipped. */
const warningsNaming = (header: string) =>
  app.logs.filter((line) => line.startsWith("{") && (JSON.parse(line) as { level?: number; msg?: string }).level === 40 && line.includes(header));

describe.sequential("a TLS proxy that", () => {
  it.each<[string, ForwardedHeaders, string]>([
    ["sends no X-Forwarded-Proto", {}, "X-Forwarded-Proto"],
    ["sends X-Forwarded-Host without the port", { proto: "https", host: (browserHost) => browserHost.replace(/:\d+$/, "") }, "the port in X-Forwarded-Host"],
  ])("%s still takes a founder's forms to the app, and the log names the header once", async (_name, headers, named) => {
    proxy.forwardTo(app.url, headers);
    const edit = await founderCreatesAProject();
    expect(edit.origin).toBe(proxy.url);
    await founderCreatesAProject();
    expect(warningsNaming(named)).toHaveLength(1);
  });
});
