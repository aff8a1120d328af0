import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { counterDrift, movedDrift } from "../support/counter-drift";
import { PHONE_USER_AGENT } from "../support/demo-on-postgres";
import { createPostgresDatabase } from "../support/postgres";
import { startSmtpServer } from "../support/smtp";
import { nextClientAddress } from "../support/clients";
import { countRows, driftReader, openTestDb, projectIdBySlug, type TestDb } from "../support/test-db";

/**
 * Kill -9 under write load. The built app (as `npm start` runs it) takes visitor forms (intro,
 * subscribe, signal: each queues mail) and scans from many client addresses while a real SMTP server receives its
 * mail; it is SIGKILLed at seeded random moments and restarted on the same data, again and again. Afterwards, once
 * the outbox has drained: every acknowledged write is there, the maintained counters equal the raw rows, the
 * database is intact, and no mail arrived twice (decision "mail-end-of-data").
 *
 * The kill moments come from a seed printed at the start; CRASH_LOOP_SEED=<seed> repeats them.
 */
const SEED = Number(process.env.CRASH_LOOP_SEED) || Date.now() % 2_147_483_647;
const RUNS = { sqlite: 12, postgres: 10 } as const;
/**
 * Writing time before each kill, drawn between these and counted from the first form the fresh process answers
 * (it loads its route modules on first use, which takes seconds on a busy machine): forms are acknowledged in
 * every run, whatever the load.
 */
const MIN_UPTIME_MS = 500;
const MAX_UPTIME_MS = 3_000;
const WARM_UP_LIMIT_MS = 60_000;
/** Requests kept in flight by the writer. */
const LANES = 6;
/**
 * The SMTP timeouts the app is given in its SMTP_URL, as an operator with a near, quick relay may set them: a send
 * is abandoned after their sum (10 s), and the mail claim is twice that plus 10 s (decision 49), 30 s instead of
 * the default timeouts' 2 min. A message claimed by a killed process waits out that claim before another process
 * may send it, so the final drain takes about that long after the last kill.
 */
const SMTP_TIMEOUTS = "connectionTimeout=2000&greetingTimeout=3000&socketTimeout=5000";
const DRAIN_TIMEOUT_MS = 200_000;
const AUTH_SECRET = "crash-loop-test-secret-0123456789abcdef";

console.log(`crash loop seed: ${SEED} (CRASH_LOOP_SEED=${SEED} repeats these kill moments)`);

type Dialect = keyof typeof RUNS;
/** `open()` is the typed reader on the store's database (close it with `destroy()`). */
type Store = { env: Record<string, string>; dataDir: string; open(): TestDb; drop(): Promise<void> };

async function createStore(dialect: Dialect): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pitchqr-crash-${dialect}-`));
  if (dialect === "sqlite") {
    return {
      env: {},
      dataDir,
      open: () => openTestDb({ dataDir }),
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = await createPostgresDatabase("pitchqr_crash");
  return {
    env: { DATABASE_URL: database.url },
    dataDir,
    open: () => openTestDb({ dataDir, databaseUrl: database.url }),
    async drop() {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Kind = "scan" | "subscribe" | "intro" | "signal";
const KINDS: Kind[] = ["scan", "subscribe", "scan", "intro", "scan", "signal"];
type Acknowledged = Record<Kind, Set<string>>;

/** The writer's requests: each names something unique (an address or a fingerprint) so its row can be found. */
function writer(dialect: Dialect, demo: { projectId: string; tierId: string }) {
  let counter = 0;
  const acknowledged: Acknowledged = { scan: new Set(), subscribe: new Set(), intro: new Set(), signal: new Set() };
  const statuses = new Map<string, number>();
  const note = (label: string) => statuses.set(label, (statuses.get(label) ?? 0) + 1);
  let formAnswered = () => {};

  async function send(app: AppServer): Promise<void> {
    counter += 1;
    const kind = KINDS[counter % KINDS.length]!;
    const key = kind === "scan" ? `${dialect === "sqlite" ? "5" : "7"}${counter.toString(16).padStart(31, "0")}` : `crash-${dialect}-${counter}@example.com`;
    const headers = { origin: app.url, "x-forwarded-for": nextClientAddress(), "user-agent": PHONE_USER_AGENT };
    const json = (endpoint: string, body: unknown) =>
      fetch(`${app.url}/api/functions/${endpoint}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
    try {
      let response: Response;
      if (kind === "scan") response = await json("track-scan", { projectId: demo.projectId, qrCodeId: null, viewerFingerprint: key });
      else if (kind === "subscribe") response = await json("subscribe-updates", { projectId: demo.projectId, contact: { name: "Crash Tester", email: key }, consent: true });
      else if (kind === "intro") {
        response = await json("submit-intro", { projectId: demo.projectId, contact: { name: "Crash Tester", email: key }, note: "Met at the booth", roleTags: ["Angel"] });
      } else {
        response = await fetch(`${app.url}/pitch/demo-project`, {
          method: "POST",
          redirect: "manual",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ via: "fetch", intent: "signal", tierId: demo.tierId, name: "Crash Tester", email: key, message: "Count me in", showName: "on" }),
        });
      }
      const text = await response.text();
      note(`${kind} ${response.status}`);
      if (kind !== "scan") formAnswered();
      if (response.status === 200 && (kind !== "scan" || JSON.parse(text).counted === true)) acknowledged[kind].add(key);
    } catch {
      // Cut off by the kill: not acknowledged, so nothing is promised about it.
      note(`${kind} cut off`);
    }
  }

  /** Keeps LANES requests in flight until the app is killed, `uptimeMs` after it answered its first form. */
  async function writeUntilKilled(app: AppServer, uptimeMs: number): Promise<void> {
    let killed = false;
    const warm = new Promise<void>((resolve) => (formAnswered = resolve));
    const lanes = Array.from({ length: LANES }, async () => {
      while (!killed) await send(app);
    });
    let giveUp: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        warm,
        new Promise((_, reject) => (giveUp = setTimeout(() => reject(new Error(`no form answered within ${WARM_UP_LIMIT_MS} ms of the start`)), WARM_UP_LIMIT_MS))),
      ]);
      await new Promise((resolve) => setTimeout(resolve, uptimeMs));
    } finally {
      clearTimeout(giveUp);
      killed = true;
      await app.stop("SIGKILL");
      await Promise.all(lanes);
    }
  }

  return { acknowledged, statuses, writeUntilKilled };
}

/** Rows that point at nothing: with the schema's foreign keys none can exist, whatever a kill interrupted. */
const ORPHANS: [what: string, count: (db: TestDb) => Promise<number>][] = [
  [
    "contacts without their project",
    (db) => countRows(db.selectFrom("contacts").where(({ not, exists, selectFrom }) => not(exists(selectFrom("projects").select("projects.id").whereRef("projects.id", "=", "contacts.project_id"))))),
  ],
  [
    "intros without their contact",
    (db) => countRows(db.selectFrom("intros").where(({ not, exists, selectFrom }) => not(exists(selectFrom("contacts").select("contacts.id").whereRef("contacts.id", "=", "intros.contact_id"))))),
  ],
  [
    "signals without their contact",
    (db) => countRows(db.selectFrom("signals").where(({ not, exists, selectFrom }) => not(exists(selectFrom("contacts").select("contacts.id").whereRef("contacts.id", "=", "signals.contact_id"))))),
  ],
  [
    "scans without their project",
    (db) => countRows(db.selectFrom("scans").where(({ not, exists, selectFrom }) => not(exists(selectFrom("projects").select("projects.id").whereRef("projects.id", "=", "scans.project_id"))))),
  ],
  [
    "project viewers without their project",
    (db) =>
      countRows(db.selectFrom("project_viewers").where(({ not, exists, selectFrom }) => not(exists(selectFrom("projects").select("projects.id").whereRef("projects.id", "=", "project_viewers.project_id"))))),
  ],
];

async function integrityProblems(dialect: Dialect, db: TestDb): Promise<string[]> {
  const problems: string[] = [];
  // The databases' own consistency checks have no query-builder form.
  if (dialect === "sqlite") {
    const integrity = (await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db)).rows;
    if (integrity.map((row) => row.integrity_check).join() !== "ok") problems.push(`integrity_check: ${JSON.stringify(integrity)}`);
    const foreignKeys = (await sql`pragma foreign_key_check`.execute(db)).rows;
    if (foreignKeys.length) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys.slice(0, 5))}`);
  } else {
    const unvalidated = (await sql`select conrelid::regclass::text as tbl, conname from pg_constraint where not convalidated`.execute(db)).rows;
    if (unvalidated.length) problems.push(`constraints not validated: ${JSON.stringify(unvalidated)}`);
  }
  for (const [what, count] of ORPHANS) {
    const n = await count(db);
    if (n !== 0) problems.push(`${n} orphans: ${what}`);
  }
  return problems;
}

async function crashLoop(dialect: Dialect) {
  // The kill moments, drawn from the seed by the generator the fuzzer uses, so CRASH_LOOP_SEED repeats them.
  const uptimes = fc.sample(fc.integer({ min: MIN_UPTIME_MS, max: MAX_UPTIME_MS }), { seed: SEED + (dialect === "sqlite" ? 0 : 1), numRuns: RUNS[dialect] });
  const store = await createStore(dialect);
  const smtp = await startSmtpServer();
  const env = { ...store.env, SMTP_URL: `${smtp.url}?${SMTP_TIMEOUTS}`, AUTH_SECRET };
  let app: AppServer | undefined;
  let lastApp: AppServer | undefined;
  const lastLogs = () => lastApp?.logs ?? [];
  const start = async () => (lastApp = await startAppServer({ env, dataDir: store.dataDir }));
  try {
    app = await start();
    const before = store.open();
    const demo = { projectId: await projectIdBySlug(before, "demo-project"), tierId: "" };
    const tier = await before.selectFrom("signal_tiers").select("id").where("project_id", "=", demo.projectId).orderBy("id").limit(1).executeTakeFirstOrThrow();
    demo.tierId = String(tier.id);
    const driftBefore = await counterDrift(driftReader(before));
    await before.destroy();

    const { acknowledged, statuses, writeUntilKilled } = writer(dialect, demo);
    const loopStarted = Date.now();
    for (const uptimeMs of uptimes) {
      app ??= await start();
      await writeUntilKilled(app, uptimeMs);
      app = undefined;
    }

    // The last start is not killed: it delivers what is left, including what the killed processes had claimed.
    const drainStarted = Date.now();
    app = await start();
    const after = store.open();
    const drainDeadline = Date.now() + DRAIN_TIMEOUT_MS;
    const pendingMail = () => countRows(after.selectFrom("mail_outbox").where("status", "=", "pending"));
    while ((await pendingMail()) > 0 && Date.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 500));
    const seconds = { loop: (drainStarted - loopStarted) / 1000, drain: (Date.now() - drainStarted) / 1000 };
    await app.stop("SIGTERM");
    app = undefined;

    // Every acknowledged write is there.
    const found: Record<Kind, Set<string>> = {
      scan: new Set((await after.selectFrom("scans").select("viewer_fingerprint").where("project_id", "=", demo.projectId).execute()).map((row) => String(row.viewer_fingerprint))),
      subscribe: new Set(
        (await after.selectFrom("contacts").select("email").where("project_id", "=", demo.projectId).where("subscribed", "=", true).execute()).map((row) => String(row.email)),
      ),
      intro: new Set(
        (await after.selectFrom("intros").innerJoin("contacts", "contacts.id", "intros.contact_id").select("contacts.email").where("intros.project_id", "=", demo.projectId).execute()).map(
          (row) => String(row.email),
        ),
      ),
      signal: new Set(
        (await after.selectFrom("signals").innerJoin("contacts", "contacts.id", "signals.contact_id").select("contacts.email").where("signals.project_id", "=", demo.projectId).execute()).map(
          (row) => String(row.email),
        ),
      ),
    };
    const missing = (Object.keys(acknowledged) as Kind[]).flatMap((kind) => [...acknowledged[kind]].filter((key) => !found[kind].has(key)).map((key) => `${kind} ${key}`));
    const acknowledgedCount = Object.values(acknowledged).reduce((sum, keys) => sum + keys.size, 0);

    // Counters: whatever the seed left, each counter is off from its raw rows by the same amount as before.
    const driftAfter = await counterDrift(driftReader(after));
    const counterMismatches = movedDrift(driftBefore, driftAfter);
    const integrity = await integrityProblems(dialect, after);

    // Mail: by Message-ID at the SMTP server, and by recipient and kind for the mail each visitor's address gets.
    const outbox = await after.selectFrom("mail_outbox").select(["id", "kind", "recipient", "status", "handed_over_at", "attempts"]).execute();
    await after.destroy();
    const rowByMessageId = new Map(outbox.map((row) => [`<${row.id}@pitchqr.outbox>`, row]));
    const arrivals = new Map<string, number>();
    for (const mail of smtp.received) arrivals.set(String(mail.messageId), (arrivals.get(String(mail.messageId)) ?? 0) + 1);
    const duplicatedByMessageId = [...arrivals].filter(([, times]) => times > 1).map(([id]) => id);
    const perRecipientAndKind = new Map<string, number>();
    for (const [messageId, times] of arrivals) {
      const row = rowByMessageId.get(messageId);
      if (!row || !String(row.recipient).startsWith("crash-")) continue;
      const key = `${row.recipient} ${row.kind}`;
      perRecipientAndKind.set(key, (perRecipientAndKind.get(key) ?? 0) + times);
    }
    const duplicatedByRecipient = [...perRecipientAndKind].filter(([, times]) => times > 1).map(([key]) => key);
    const notSettled = outbox.filter((row) => row.status !== "sent").map((row) => `${row.id} ${row.kind} ${row.status}`);
    const sentNotArrived = outbox.filter((row) => row.status === "sent" && !arrivals.has(`<${row.id}@pitchqr.outbox>`));
    // Handed over just before a kill, and the end of its data never left: counted as sent, logged, never resent.
    const lostInHandOver = sentNotArrived.filter((row) => row.handed_over_at !== null);
    const lostOtherwise = sentNotArrived.filter((row) => row.handed_over_at === null).map((row) => `${row.id} ${row.kind}`);
    const sentAgain = outbox.filter((row) => Number(row.attempts) > 1).length;

    console.log(
      `crash loop [${dialect}] seed ${SEED}: ${RUNS[dialect]} runs in ${seconds.loop.toFixed(0)} s (killed ${uptimes.join(", ")} ms after the first form answer), ` +
        `${acknowledgedCount} acknowledged writes (${(Object.keys(acknowledged) as Kind[]).map((kind) => `${acknowledged[kind].size} ${kind}`).join(", ")}), ` +
        `${missing.length} missing, ${outbox.length} mails queued, ${smtp.received.length} delivered, ${sentAgain} sent again after a cut-off send, ` +
        `${duplicatedByMessageId.length + duplicatedByRecipient.length} duplicated, ${lostInHandOver.length} lost in the handed-over window, ` +
        `${notSettled.length} not settled, drained in ${seconds.drain.toFixed(0)} s; answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );

    expect(RUNS[dialect]).toBeGreaterThanOrEqual(10);
    for (const kind of Object.keys(acknowledged) as Kind[]) expect(acknowledged[kind].size, `acknowledged ${kind} writes`).toBeGreaterThan(0);
    expect(missing).toEqual([]);
    expect(counterMismatches).toEqual([]);
    expect(integrity).toEqual([]);
    expect(notSettled).toEqual([]);
    expect(duplicatedByMessageId).toEqual([]);
    expect(duplicatedByRecipient).toEqual([]);
    expect(lostOtherwise).toEqual([]);
    // Every visitor confirmation and welcome of an acknowledged form was queued and settled.
    const queuedFor = new Set(outbox.map((row) => `${row.recipient} ${row.kind}`));
    expect([...acknowledged.subscribe].filter((email) => !queuedFor.has(`${email} welcome`))).toEqual([]);
    expect([...acknowledged.signal].filter((email) => !queuedFor.has(`${email} signal-confirmation`))).toEqual([]);
  } catch (error) {
    console.error(`crash loop [${dialect}] seed ${SEED} failed; the last app's log:\n${lastLogs().slice(-40).join("\n")}`);
    throw error;
  } finally {
    await app?.stop("SIGKILL");
    await smtp.close();
    await store.drop();
  }
}

describe("kill -9 under write load, restarted on the same data", () => {
  // Both databases at once: each loop spends most of its time waiting (on the app, or on the claims of killed
  // processes to run out), so together they take about as long as one.
  it.concurrent("loses no acknowledged write and sends no mail twice on SQLite", { timeout: 600_000 }, () => crashLoop("sqlite"));
  it.concurrent("loses no acknowledged write and sends no mail twice on PostgreSQL", { timeout: 600_000 }, () => crashLoop("postgres"));
});
