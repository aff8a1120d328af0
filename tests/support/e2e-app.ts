// The end-to-end files' one ground: the built app started on a free port with its own data directory (and so
// its own SQLite file, seeded with the demo project), the worker's Chromium, and a read-only connection to that
// file for assertions. The app is started once per file, before its tests, and stopped after them; the browser is
// shared by the worker's files, each closing the contexts it opened (decision 71).
import type Database from "better-sqlite3";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { showServerLogsOnFailure } from "../e2e/support";
import { startAppServer, type AppServer } from "./app-server";
import { releaseBrowser, sharedTestBrowser } from "./chromium.js";
import { openDatabase } from "./pitch-e2e";

export type E2eApp = { app: AppServer; browser: Browser; db: Database.Database };

/**
 * Set up in the file's first `beforeAll` (hooks the file registers later run after it) and torn down in its
 * last `afterAll`; the fields are filled in by the time a test runs. `env` is read when the app starts, so it
 * may name something an earlier `beforeAll` started (an SMTP server, a webhook receiver).
 */
export function setUpAppInBrowser(options: { env?: Record<string, string> | (() => Record<string, string>) } = {}): E2eApp {
  const e2e = {} as E2eApp;
  beforeAll(async () => {
    const env = typeof options.env === "function" ? options.env() : options.env;
    [e2e.app, e2e.browser] = await Promise.all([startAppServer({ env }), sharedTestBrowser()]);
    e2e.db = openDatabase(e2e.app.dataDir);
  });
  afterAll(async () => {
    e2e.db?.close();
    await releaseBrowser(e2e.browser);
    await e2e.app?.stop();
  });
  showServerLogsOnFailure(() => [e2e.app]);
  return e2e;
}
