// Helpers for the public pitch page's end-to-end files (tests/e2e/pitch-*.test.ts): visitors as their own clients,
// direct access to the test server's SQLite file, the JSON functions and the live wall's event stream.
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from "playwright-core";
import { newQrCodeId } from "~/modules/qr/qr-codes.server";
import { newClientContext, nextClientAddress } from "../e2e/support";

export const DEMO_SLUG = "demo-project";

/** A browser context and page that appear to the app as their own client (own X-Forwarded-For). */
export async function newVisitor(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; address: string }> {
  const { context, address } = await newClientContext(browser, options);
  const page = await context.newPage();
  return { context, page, address };
}

/**
 * The user agent of a regular (headed) Chromium of the same version. Headless Chromium says "HeadlessChrome",
 * which the scan endpoint rightly treats as a bot; a test about counting visitors has to look like one.
 */
export function visitorUserAgent(browser: Browser): string {
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
}

/** Opens one of the pitch hero's dialogs by its action button and waits for its form (it arrives in its own chunk). */
export async function openPitchDialog(page: Page, action: "Request Intro" | "Follow Updates" | "Signal Interest"): Promise<Locator> {
  await page.getByRole("main").getByRole("link", { name: action }).first().click();
  const dialog = page.getByRole("dialog", { name: action });
  await dialog.locator("form, textarea[readonly]").first().waitFor();
  return dialog;
}

/**
 * The visitor on `page` (or at that pitch address) reads the pitch before sending a form, as a person does: the page loads the door counted for
 * its project move 10 s into the past. Decision 50 holds a form sent within 3 s of opening the page as a script's,
 * and a test's browser fills a form in far less; the server has no clock to set, so time passes for the stored mark.
 */
export async function readThePage(page: Page | string, dataDir: string): Promise<void> {
  const slug = decodeURIComponent(new URL(typeof page === "string" ? page : page.url()).pathname.split("/")[2] ?? "");
  // The door answers a page before it writes its scan: the load this page just made must be there to be moved. A
  // load already seen (the visitor reads on after closing a dialog) was moved back then, and is not waited for again;
  // nor is one the door counts as a bot's (headless Chromium's own user agent: see visitorUserAgent), which has none.
  if (typeof page !== "string") {
    const { timeOrigin, headless } = await page.evaluate(() => ({ timeOrigin: performance.timeOrigin, headless: navigator.userAgent.includes("HeadlessChrome") }));
    const load = `${dataDir}|${slug}|${timeOrigin}`;
    if (!headless && !loadsSeen.has(load)) {
      await pageLoadWritten(dataDir, slug, timeOrigin);
      loadsSeen.add(load);
    }
  }
  withWritableDatabase(dataDir, (db) => {
    db.prepare("update scans set scanned_at = strftime('%Y-%m-%dT%H:%M:%fZ', scanned_at, '-10 seconds') where project_id = (select id from projects where slug = ?)").run(slug);
  });
}

/** Page loads `readThePage` has seen written (data folder, slug and the document's time origin). */
const loadsSeen = new Set<string>();

/** Waits (3 s at most: a load the door did not count never comes) until the project has a scan from `openedAt` on. */
async function pageLoadWritten(dataDir: string, slug: string, openedAt: number): Promise<void> {
  const since = new Date(openedAt - 1_000).toISOString();
  const db = openDatabase(dataDir);
  try {
    const query = db.prepare("select count(*) as count from scans where project_id = (select id from projects where slug = ?) and scanned_at >= ?");
    for (const giveUpAt = Date.now() + 3_000; Date.now() < giveUpAt; await new Promise((resolve) => setTimeout(resolve, 50))) {
      if ((query.get(slug, since) as { count: number }).count > 0) return;
    }
  } finally {
    db.close();
  }
}

/** The test server's SQLite file. Read-only for assertions; read-write (with a busy timeout) for set-up. */
export function openDatabase(dataDir: string, options: { readonly?: boolean } = {}): Database.Database {
  const db = new Database(path.join(dataDir, "app.sqlite"), { readonly: options.readonly ?? true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Runs `work` with a short-lived read-write connection (set-up only). */
export function withWritableDatabase<T>(dataDir: string, work: (db: Database.Database) => T): T {
  const db = openDatabase(dataDir, { readonly: false });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

export type ProjectFixture = {
  title: string;
  slug?: string;
  /** The owner's user id; the seeded demo owner unless given. */
  ownerId?: string;
  oneLiner?: string;
  summary?: string | null;
  deckUrl?: string | null;
  status?: "draft" | "published";
  calendlyUrl?: string | null;
  problemPoints?: string[];
  solutionPoints?: string[];
  metrics?: { label: string; value: string }[];
  wall?: { type?: "Supporter" | "Intro" | "Pilot"; displayName: string; message?: string | null; roleTags?: string[] }[];
  tiers?: { label: string; min: number; max: number | null; perks?: string[] }[];
  /** Tracked QR codes, oldest first. */
  qrCodes?: { label: string; eventTag?: string | null }[];
};

/**
 * Inserts a project straight into the test server's database (with its wall entries, tiers and QR codes), as the
 * Epic Stack's fixtures do; returns its id, slug, and the ids of its tiers and QR codes (in the order given).
 */
export function insertProject(dataDir: string, fixture: ProjectFixture): { id: string; slug: string; tierIds: string[]; qrCodeIds: string[] } {
  const id = crypto.randomUUID();
  const slug = fixture.slug ?? `e2e-${id.slice(0, 8)}`;
  const now = new Date().toISOString();
  const tierIds = (fixture.tiers ?? []).map(() => crypto.randomUUID());
  const qrCodeIds = (fixture.qrCodes ?? []).map(() => newQrCodeId());
  withWritableDatabase(dataDir, (db) => {
    db.transaction(() => {
      db.prepare(
        `insert into projects (id, owner_id, title, slug, one_liner, summary, deck_url, calendly_url, metrics, problem_points, solution_points, status, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        fixture.ownerId ?? "demo-owner",
        fixture.title,
        slug,
        fixture.oneLiner ?? "A one-liner for an end-to-end test.",
        fixture.summary ?? null,
        fixture.deckUrl ?? null,
        fixture.calendlyUrl ?? null,
        JSON.stringify(fixture.metrics ?? []),
        JSON.stringify(fixture.problemPoints ?? []),
        JSON.stringify(fixture.solutionPoints ?? []),
        fixture.status ?? "published",
        now,
        now,
      );
      const entry = db.prepare(
        `insert into recognition_entries (project_id, type, display_name, role_tags, message, is_public, hidden, wall_seq, created_at) values (?, ?, ?, ?, ?, 1, 0, ?, ?)`,
      );
      const wall = fixture.wall ?? [];
      wall.forEach((item, index) => entry.run(id, item.type ?? "Supporter", item.displayName, JSON.stringify(item.roleTags ?? []), item.message ?? null, index + 1, now));
      db.prepare("update projects set wall_seq = ? where id = ?").run(wall.length, id);
      const tier = db.prepare(`insert into signal_tiers (id, project_id, range_label, range_min, range_max, perks, sort_order) values (?, ?, ?, ?, ?, ?, ?)`);
      (fixture.tiers ?? []).forEach((item, index) => tier.run(tierIds[index], id, item.label, item.min, item.max, JSON.stringify(item.perks ?? []), index));
      // One millisecond apart, so "newest first" lists them in a known order.
      const code = db.prepare("insert into qr_codes (id, project_id, label, event_tag, created_at) values (?, ?, ?, ?, ?)");
      (fixture.qrCodes ?? []).forEach((item, index) =>
        code.run(qrCodeIds[index], id, item.label, item.eventTag ?? null, new Date(Date.parse(now) + index).toISOString()),
      );
    })();
  });
  return { id, slug, tierIds, qrCodeIds };
}

/** The demo project's id. */
export function demoProjectId(db: Database.Database): string {
  const row = db.prepare("select id from projects where slug = ?").get(DEMO_SLUG) as { id: string } | undefined;
  if (!row) throw new Error("the demo project is not seeded");
  return row.id;
}

export type ContactRow = {
  id: string;
  project_id: string;
  name: string;
  email: string;
  intent: string;
  subscribed: number;
  role_tags: string;
  linkedin_url: string | null;
  note: string | null;
  created_at: string;
};

export function contactsByEmail(db: Database.Database, email: string): ContactRow[] {
  return db.prepare("select * from contacts where lower(email) = lower(?) order by created_at").all(email) as ContactRow[];
}

/** POSTs JSON to one of the spec's server functions, as its own client, same-origin unless told otherwise. */
export function postFunction(
  baseUrl: string,
  name: string,
  body: unknown,
  options: { address?: string; origin?: string | null; userAgent?: string; raw?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": options.address ?? nextClientAddress() };
  if (options.origin !== null) headers.origin = options.origin ?? baseUrl;
  if (options.userAgent) headers["user-agent"] = options.userAgent;
  return fetch(`${baseUrl}/api/functions/${name}`, { method: "POST", headers, body: options.raw ?? JSON.stringify(body) });
}

/** A unique marker for distinctive test data. */
export function marker(prefix: string): string {
  return `${prefix}${crypto.randomBytes(4).toString("hex")}`;
}

/**
 * Reads the live wall's event stream from `after` until a `stats` event arrived (or the time is up), and
 * returns the raw text received.
 */
export async function readWallStream(baseUrl: string, projectId: string, after = 0, timeoutMs = 5_000): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let text = "";
  try {
    const response = await fetch(`${baseUrl}/api/wall/${encodeURIComponent(projectId)}/stream?after=${after}`, {
      headers: { accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(`wall stream answered ${response.status}`);
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    while (!text.includes("event: stats")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return text;
}

export type CuttableProxy = {
  url: string;
  /** Drops every open connection (a reset, like a lost network) and refuses new ones until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

/**
 * A TCP proxy in front of the app, to take a browser's network away mid-stream. Chromium's offline emulation
 * (`context.setOffline`) fails new requests but leaves an open Server-Sent Events response running, so a
 * test of "the stream dropped and came back" needs the connection itself cut.
 */
export async function startCuttableProxy(targetPort: number): Promise<CuttableProxy> {
  const open = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, "127.0.0.1");
    open.add(client);
    const finish = () => {
      open.delete(client);
      if (!client.destroyed) client.destroy();
      if (!upstream.destroyed) upstream.destroy();
    };
    client.on("error", finish).on("close", finish);
    upstream.on("error", finish).on("close", finish);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      refusing = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      refusing = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
