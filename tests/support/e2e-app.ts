// The end-to-end files' one ground: the built app started on a free port with its own data directory (and so
// its own SQLite file, seeded with the demo project), the worker's Chromium, and a typed read-only connection to that
// file for assertions. The app is started once per file, before its tests, and stopped after them; the browser is
// shared by the worker's files, each closing the contexts it opened (decision 71).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { releaseBrowser, sharedTestBrowser } from "./chromium.js";
import type { TestDb } from "./test-db";
import { withAppServer, type TestAppServer, type WithAppServerOptions } from "./with-app-server";

export type E2eApp = {
  app: TestAppServer;
  browser: Browser;
  /** The app's database, typed. */
  db: TestDb;
};

/**
 * Set up in the file's first `beforeAll` (hooks the file registers later run after it) and torn down in its
 * last `afterAll`; the fields are filled in by the time a test runs. `env` is read when the app starts, so it
 * may name something an earlier `beforeAll` started (an SMTP server, a webhook receiver).
 */
export function setUpAppInBrowser(options: { env?: WithAppServerOptions["env"] } = {}): E2eApp {
  const e2e = {} as E2eApp;
  let browser: Promise<Browser> | undefined;
  // The browser starts while the app does.
  beforeAll(() => {
    browser = sharedTestBrowser();
  });
  const app = withAppServer(options);
  beforeAll(async () => {
    e2e.app = app;
    e2e.db = app.db;
    e2e.browser = await browser!;
  });
  afterAll(async () => {
    if (browser) await releaseBrowser(await browser);
  });
  return e2e;
}
