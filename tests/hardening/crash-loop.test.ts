import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { counterDrift, movedDrift } from "../support/counter-drift";
import { PHONE_USER_AGENT } from "../support/demo-on-postgres";
import { createPostgresDatabase } from "../support/postgres";
import { startSmtpServer } from "../support/smtp";
import { nextClientAddress } from "../support/clients";

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
type Row = Record<string, unknown>;
/** Plain SQL on either database; `?` placeholders. */
type Query = (text: string, params?: unknown[]) => Promise<Row[]>;
type Store = { env: Record<string, string>; dataDir: string; open(): Promise<{ query: Query; close(): Promise<void> }>; drop(): Promise<void> };

async function createStore(dialect: Dialect): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pitchqr-crash-${dialect}-`));
  if (dialect === "sqlite") {
    const file = path.join(dataDir, "app.sqlite");
    return {
      env: {},
      dataDir,
      async open() {
        const db = new SQLite(file);
        return { query: async (text, params = []) => db.prepare(text).all(...params) as Row[], close: async () => void db.close() };
      },
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = await createPostgresDatabase("pitchqr_crash");
  return {
    env: { DATABASE_URL: database.url },
    dataDir,
    async open() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const query: Query = async (text, params = []) => {
        let index = 0;
        return (await client.query(text.replace(/\?/g, () => `$${++index}`), params)).rows as Row[];
      };
      return { query, close: () => client.end() };
    },
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
const ORPHANS = [
  "select count(*) as n from contacts c where not exists (select 1 from projects p where p.id = c.project_id)",
  "select count(*) as n from intros i where not exists (select 1 from contacts c where c.id = i.contact_id)",
  "select count(*) as n from signals s where not exists (select 1 from contacts c where c.id = s.contact_id)",
  "select count(*) as n from scans s where not exists (select 1 from projects p where p.id = s.project_id)",
  "select count(*) as n from project_viewers v where not exists (select 1 from projects p where p.id = v.project_id)",
];

async function integrityProblems(dialect: Dialect, query: Query): Promise<string[]> {
  const problems: string[] = [];
  if (dialect === "sqlite") {
    const integrity = await query("pragma integrity_check");
    if (integrity.map((row) => row.integrity_check).join() !== "ok") problems.push(`integrity_check: ${JSON.stringify(integrity)}`);
    const foreignKeys = await query("pragma foreign_key_check");
    if (foreignKeys.length) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys.slice(0, 5))}`);
  } else {
    const unvalidated = await query("select conrelid::regclass::text as tbl, conname from pg_constraint where not convalidated");
    if (unvalidated.length) problems.push(`constraints not validated: ${JSON.stringify(unvalidated)}`);
  }
  for (const text of ORPHANS) {
    const [row] = await query(text);
    if (Number(row!.n) !== 0) problems.push(`${row!.n} orphans: ${text}`);
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
    const before = await store.open();
    const [project] = await before.query("select id from projects where slug = 'demo-project'");
    const demo = { projectId: String(project!.id), tierId: "" };
    const [tier] = await before.query("select id from signal_tiers where project_id = ? order by id limit 1", [demo.projectId]);
    demo.tierId = String(tier!.id);
    const driftBefore = await counterDrift((sql) => before.query(sql));
    await before.close();

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
    const after = await store.open();
    const drainDeadline = Date.now() + DRAIN_TIMEOUT_MS;
    const pendingMail = async () => Number((await after.query("select count(*) as n from mail_outbox where status = 'pending'"))[0]!.n);
    while ((await pendingMail()) > 0 && Date.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 500));
    const seconds = { loop: (drainStarted - loopStarted) / 1000, drain: (Date.now() - drainStarted) / 1000 };
    await app.stop("SIGTERM");
    app = undefined;

    // Every acknowledged write is there.
    const found: Record<Kind, Set<string>> = {
      scan: new Set((await after.query("select viewer_fingerprint as k from scans where project_id = ?", [demo.projectId])).map((row) => String(row.k))),
      subscribe: new Set(
        (await after.query("select email as k from contacts where project_id = ? and subscribed = true", [demo.projectId])).map((row) => String(row.k)),
      ),
      intro: new Set(
        (await after.query("select c.email as k from intros i join contacts c on c.id = i.contact_id where i.project_id = ?", [demo.projectId])).map((row) => String(row.k)),
      ),
      signal: new Set(
        (await after.query("select c.email as k from signals s join contacts c on c.id = s.contact_id where s.project_id = ?", [demo.projectId])).map((row) => String(row.k)),
      ),
    };
    const missing = (Object.keys(acknowledged) as Kind[]).flatMap((kind) => [...acknowledged[kind]].filter((key) => !found[kind].has(key)).map((key) => `${kind} ${key}`));
    const acknowledgedCount = Object.values(acknowledged).reduce((sum, keys) => sum + keys.size, 0);

    // Counters: whatever the seed left, each counter is off from its raw rows by the same amount as before.
    const driftAfter = await counterDrift((sql) => after.query(sql));
    const counterMismatches = movedDrift(driftBefore, driftAfter);
    const integrity = await integrityProblems(dialect, after.query);

    // Mail: by Message-ID at the SMTP server, and by recipient and kind for the mail each visitor's address gets.
    const outbox = await after.query("select id, kind, recipient, status, handed_over_at, attempts from mail_outbox");
    await after.close();
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
