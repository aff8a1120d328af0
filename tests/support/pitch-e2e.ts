// Helpers for the public pitch page's end-to-end files (tests/e2e/pitch-*.test.ts): visitors as their own clients,
// direct access to the test server's SQLite file, the JSON functions and the live wall's event stream.
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from "playwright-core";
import { openDatabase as openAppDatabase } from "~/db/client.server";
import { createProject } from "~/modules/projects/founder-projects.server";
import { projectFormSchema } from "~/modules/projects/project-form";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { qrCodeFormSchema } from "~/modules/qr/qr-form";
import { newClientContext, nextClientAddress } from "./clients";
import type { TestDb } from "./test-db";

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

/**
 * Lets `seconds` pass for the visitor limits without waiting: the server has no clock to set, so every mark its checks
 * compare the present with (allowance windows, the door's page loads, held forms) moves that far into the past.
 */
export function letLimitsTimePass(dataDir: string, seconds: number): void {
  const back = `-${seconds} seconds`;
  withWritableDatabase(dataDir, (db) => {
    db.prepare("update form_rate_limits set window_started_at = window_started_at - ?").run(seconds * 1000);
    db.prepare("update scans set scanned_at = strftime('%Y-%m-%dT%H:%M:%fZ', scanned_at, ?)").run(back);
    db.prepare("update held_submissions set received_at = strftime('%Y-%m-%dT%H:%M:%fZ', received_at, ?)").run(back);
  });
}

/** Page loads `readThePage` has seen written (data folder, slug and the document's time origin). */
const loadsSeen = new Set<string>();

/**
 * Waits until the project has a scan from `openedAt` on: 10 s at most (a load the door did not count never comes), as
 * long as the suites wait for anything a page shows. A loaded two-core machine can take seconds to write the door's
 * scan; given up on at 3 s, the load was written after it would have been moved back, and the visitor's form was held
 * as sent too soon after opening the page (the booth test's intro, once in CI).
 */
async function pageLoadWritten(dataDir: string, slug: string, openedAt: number): Promise<void> {
  const since = new Date(openedAt - 1_000).toISOString();
  const db = openDatabase(dataDir);
  try {
    const query = db.prepare("select count(*) as count from scans where project_id = (select id from projects where slug = ?) and scanned_at >= ?");
    for (const giveUpAt = Date.now() + 10_000; Date.now() < giveUpAt; await new Promise((resolve) => setTimeout(resolve, 50))) {
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
 * Creates a project in the test server's database through the founder's own domain functions: the project form's
 * `createProject` (its slug claimed, its tiers and counters made as the form makes them) and the QR page's
 * `createQrCode`, each input checked by the form's schema. Wall entries, which only visitors' forms make (behind their
 * limits and review), are written as rows. Returns the project's id, slug, and the ids of its tiers and QR codes (in
 * the order given).
 */
export async function insertProject(dataDir: string, fixture: ProjectFixture): Promise<{ id: string; slug: string; tierIds: string[]; qrCodeIds: string[] }> {
  const ownerId = fixture.ownerId ?? "demo-owner";
  const input = projectFormSchema.parse({
    title: fixture.title,
    slug: fixture.slug ?? `e2e-${crypto.randomUUID().slice(0, 8)}`,
    oneLiner: fixture.oneLiner ?? "A one-liner for an end-to-end test.",
    summary: fixture.summary ?? "",
    videoUrl: "",
    deckUrl: fixture.deckUrl ?? "",
    calendlyUrl: fixture.calendlyUrl ?? "",
    status: fixture.status ?? "published",
    metrics: fixture.metrics ?? [],
    problemPoints: fixture.problemPoints ?? [],
    solutionPoints: fixture.solutionPoints ?? [],
    tiers: (fixture.tiers ?? []).map((tier) => ({ rangeLabel: tier.label, rangeMin: tier.min, rangeMax: tier.max, perks: tier.perks ?? [] })),
  });
  const { db, close } = openAppDatabase({ dialect: "sqlite", file: path.join(dataDir, "app.sqlite") });
  try {
    const { id, slug } = await createProject(db, ownerId, input);
    const created = Date.now();
    const qrCodeIds: string[] = [];
    // One millisecond apart, so "newest first" lists them in a known order.
    for (const [index, code] of (fixture.qrCodes ?? []).entries()) {
      qrCodeIds.push((await createQrCode(db, ownerId, id, qrCodeFormSchema.parse({ label: code.label, eventTag: code.eventTag ?? "", eventEndsOn: "" }), new Date(created + index))).id);
    }
    const wall = fixture.wall ?? [];
    if (wall.length) {
      const now = new Date().toISOString();
      await db
        .insertInto("recognition_entries")
        .values(
          wall.map((item, index) => ({
            project_id: id,
            type: item.type ?? "Supporter",
            display_name: item.displayName,
            role_tags: item.roleTags ?? [],
            message: item.message ?? null,
            is_public: true,
            hidden: false,
            wall_seq: index + 1,
            created_at: now,
          })),
        )
        .execute();
      await db.updateTable("projects").set({ wall_seq: wall.length }).where("id", "=", id).execute();
    }
    const tiers = await db.selectFrom("signal_tiers").select("id").where("project_id", "=", id).orderBy("sort_order").execute();
    return { id, slug, tierIds: tiers.map((tier) => tier.id), qrCodeIds };
  } finally {
    await close();
  }
}

/** The demo project's id. */
export function demoProjectId(db: Database.Database): string {
  const row = db.prepare("select id from projects where slug = ?").get(DEMO_SLUG) as { id: string } | undefined;
  if (!row) throw new Error("the demo project is not seeded");
  return row.id;
}

/** The contacts stored under `email` in any case, oldest first, as the app reads them (`subscribed` a boolean, `role_tags` a list). */
export function contactsByEmail(db: TestDb, email: string) {
  return db
    .selectFrom("contacts")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", eb.fn("lower", [eb.val(email)])))
    .orderBy("created_at")
    .execute();
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
