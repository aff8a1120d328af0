// The founder's analytics page and contacts CSV export at volume: one project with 1,000,000 scans from
// 50,000 viewers over 10 QR codes and 30 days, and 100,000 contacts, on SQLite and then PostgreSQL.
// The page reads maintained aggregates; beside it are the naive counts over the raw scans for comparison.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { median, startServer } from "./support.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const SCANS = 1_000_000;
const VIEWERS = 50_000;
const QR_CODES = 10;
const CONTACTS = 100_000;
const SIGNALS = 1_000;
const DAYS = 30;
const WARM_UP = 5;
const RUNS = 30;

const DAY_MS = 86_400_000;
const SCAN_STEP_MS = (DAYS * DAY_MS) / SCANS; // scans arrive in time order, evenly over the 30 days
const CONTACT_STEP_MS = (DAYS * DAY_MS) / CONTACTS;

// The same formulas seed both databases (JavaScript for SQLite, SQL for PostgreSQL).
// 35761 is coprime with 50,000: every block of 50,000 scans sees each viewer exactly once.
const viewerOf = (g) => (g * 35761) % VIEWERS;
// 7919 is coprime with 100; floor(sqrt(0..99)) gives code k a share of (2k+1)%, so the codes differ in volume.
const qrIndexOf = (g) => Math.floor(Math.sqrt((g * 7919) % 100));
const fingerprintOf = (viewer) => createHash("md5").update(`viewer-${viewer}`).digest("hex"); // 32 hex, like the app's

const NOTES = [
  null,
  'Met at demo day, loved the "cold chain" pitch, wants a follow-up.',
  "Line one\nLine two, with a comma",
  '=HYPERLINK("http://evil.example","click")',
  "Plain note",
  "",
  'Multi\r\nline, "quoted", with\ncommas,,,',
];

const log = (message) => console.log(`  [founder-analytics] ${message}`);
const ms = (value) => `${value.toFixed(1)} ms`;
const secs = (value) => `${(value / 1000).toFixed(1)} s`;
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];
const mb = (kb) => (kb / 1024).toFixed(1);
// SQLite seeding blocks this process for seconds, longer than the server's 5 s keep-alive: let fetch see the
// idle sockets the server closed meanwhile, or it would reuse one and fail with "other side closed".
const letSocketsSettle = () => new Promise((resolve) => setTimeout(resolve, 100));

function contactRows(projectId, start) {
  const rows = [];
  for (let g = 0; g < CONTACTS; g++) {
    const intent = g % 10 < 4 ? "Intro" : g % 10 < 7 ? "Supporter" : "Subscriber";
    rows.push({
      id: crypto.randomUUID(),
      project_id: projectId,
      name: g % 7 === 0 ? `Doe, Jane "JD" ${g}` : `Contact ${g}`,
      email: `contact${g}@example.com`,
      intent,
      subscribed: intent === "Subscriber" || g % 5 === 0,
      role_tags: g % 4 === 0 ? '["Angel","Operator"]' : g % 4 === 1 ? '["Founder, CEO"]' : "[]",
      linkedin_url: g % 3 === 0 ? `https://www.linkedin.com/in/contact-${g}` : null,
      note: NOTES[g % NOTES.length],
      created_at: new Date(start + g * CONTACT_STEP_MS).toISOString(),
    });
  }
  return rows;
}

function signalRows(projectId, contacts) {
  return contacts
    .filter((contact) => contact.intent === "Supporter")
    .slice(0, SIGNALS)
    .map((contact, index) => ({
      id: crypto.randomUUID(),
      project_id: projectId,
      contact_id: contact.id,
      range_label: "Angel",
      range_min: 5_000,
      range_max: 25_000,
      amount: 10_000,
      event_source: "bench",
      is_public: index % 2 === 0,
      created_at: contact.created_at,
    }));
}

/** The maintained aggregates, filled from the raw rows the way scans.server.ts / contacts.server.ts keep them. */
function aggregateStatements(store) {
  return [
    `insert into project_viewers (project_id, viewer_fingerprint)
       select distinct project_id, viewer_fingerprint from scans where project_id = @pid and viewer_fingerprint is not null`,
    `insert into qr_code_viewers (qr_code_id, viewer_fingerprint)
       select distinct qr_code_id, viewer_fingerprint from scans
       where project_id = @pid and qr_code_id is not null and viewer_fingerprint is not null`,
    `update qr_codes set
       total_scans = (select count(*) from scans s where s.qr_code_id = qr_codes.id and s.project_id = qr_codes.project_id),
       unique_scans = (select count(*) from qr_code_viewers v where v.qr_code_id = qr_codes.id)
     where project_id = @pid`,
    `update project_stats set
       total_scans = (select count(*) from scans where project_id = @pid),
       unique_scans = (select count(*) from project_viewers where project_id = @pid),
       intros = (select count(*) from contacts where project_id = @pid and intent = 'Intro'),
       subscribers = (select count(*) from contacts where project_id = @pid and subscribed = ${store.true}),
       signals = (select count(*) from signals where project_id = @pid)
     where project_id = @pid`,
    `insert into scan_hours (project_id, qr_code_id, hour, scans)
       select project_id, coalesce(qr_code_id, ''), ${store.hourOf}, count(*) from scans
       where project_id = @pid group by project_id, coalesce(qr_code_id, ''), ${store.hourOf}`,
  ];
}

/** The counts the old spec computed on every page view, straight from the raw rows. */
const NAIVE = {
  "count(*) scans": "select count(*) as n from scans where project_id = @pid",
  "count(distinct viewer_fingerprint)": "select count(distinct viewer_fingerprint) as n from scans where project_id = @pid",
  "per-QR group by": `select qr_code_id, count(*) as total, count(distinct viewer_fingerprint) as uniq
    from scans where project_id = @pid group by qr_code_id`,
};

/** One database's seeding and queries; `all(sql, value)` runs SQL whose one parameter is written @pid. */
function sqliteStore(db) {
  return {
    label: "SQLite",
    true: "1",
    hourOf: "strftime('%Y-%m-%dT%H:00:00.000Z', scanned_at)",
    async all(sql, pid) {
      return db.prepare(sql).all({ pid });
    },
    async seedRaw({ userId, projectId, project, qrCodes, start }) {
      db.pragma("foreign_keys = OFF");
      const contacts = contactRows(projectId, start);
      const signals = signalRows(projectId, contacts);
      const fingerprints = Array.from({ length: VIEWERS }, (_, viewer) => fingerprintOf(viewer));
      db.transaction(() => {
        db.prepare(
          "insert into projects (id, owner_id, title, slug, one_liner, status, created_at, updated_at) values (?, ?, ?, ?, ?, 'published', ?, ?)",
        ).run(projectId, userId, project.title, project.slug, project.oneLiner, project.createdAt, project.createdAt);
        db.prepare("insert into project_stats (project_id) values (?)").run(projectId);
        const qr = db.prepare("insert into qr_codes (id, project_id, label, event_tag, created_at) values (?, ?, ?, ?, ?)");
        for (const code of qrCodes) qr.run(code.id, projectId, code.label, code.eventTag, code.createdAt);
        const scan = db.prepare("insert into scans (project_id, qr_code_id, viewer_fingerprint, scanned_at) values (?, ?, ?, ?)");
        for (let g = 0; g < SCANS; g++) {
          scan.run(projectId, qrCodes[qrIndexOf(g)].id, fingerprints[viewerOf(g)], new Date(start + g * SCAN_STEP_MS).toISOString());
        }
        const contact = db.prepare(
          `insert into contacts (id, project_id, name, email, intent, subscribed, role_tags, linkedin_url, note, created_at)
           values (@id, @project_id, @name, @email, @intent, @subscribed, @role_tags, @linkedin_url, @note, @created_at)`,
        );
        for (const row of contacts) contact.run({ ...row, subscribed: row.subscribed ? 1 : 0 });
        const signal = db.prepare(
          `insert into signals (id, project_id, contact_id, range_label, range_min, range_max, amount, event_source, is_public, created_at)
           values (@id, @project_id, @contact_id, @range_label, @range_min, @range_max, @amount, @event_source, @is_public, @created_at)`,
        );
        for (const row of signals) signal.run({ ...row, is_public: row.is_public ? 1 : 0 });
      })();
      db.pragma("foreign_keys = ON");
    },
    async fillAggregates(pid) {
      db.transaction(() => {
        for (const statement of aggregateStatements(this)) db.prepare(statement).run({ pid });
      })();
    },
    async settle() {
      db.pragma("wal_checkpoint(TRUNCATE)");
    },
  };
}

function pgStore(client) {
  const bind = (sql) => sql.replaceAll("@pid", "$1");
  /** Multi-row insert from column arrays (unnest), in chunks. */
  async function insertMany(table, columns, rows, chunk = 20_000) {
    const casts = columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(", ");
    const names = columns.map(([name]) => name).join(", ");
    for (let offset = 0; offset < rows.length; offset += chunk) {
      const part = rows.slice(offset, offset + chunk);
      await client.query(
        `insert into ${table} (${names}) select * from unnest(${casts})`,
        columns.map(([name]) => part.map((row) => row[name])),
      );
    }
  }
  return {
    label: "PostgreSQL",
    true: "true",
    hourOf: "date_trunc('hour', scanned_at)",
    async all(sql, pid) {
      return (await client.query(bind(sql), [pid])).rows;
    },
    async seedRaw({ userId, projectId, project, qrCodes, start }) {
      const contacts = contactRows(projectId, start);
      const signals = signalRows(projectId, contacts);
      await client.query("begin");
      await client.query(
        "insert into projects (id, owner_id, title, slug, one_liner, status, created_at, updated_at) values ($1, $2, $3, $4, $5, 'published', $6, $6)",
        [projectId, userId, project.title, project.slug, project.oneLiner, project.createdAt],
      );
      await client.query("insert into project_stats (project_id) values ($1)", [projectId]);
      await insertMany(
        "qr_codes",
        [
          ["id", "text"],
          ["project_id", "text"],
          ["label", "text"],
          ["event_tag", "text"],
          ["created_at", "timestamptz"],
        ],
        qrCodes.map((code) => ({
          ...code,
          project_id: projectId,
          event_tag: code.eventTag,
          created_at: code.createdAt,
        })),
      );
      await client.query(
        `insert into scans (project_id, qr_code_id, viewer_fingerprint, scanned_at)
         select $1, ($2::text[])[1 + floor(sqrt((g * 7919) % 100))::int], md5('viewer-' || ((g * 35761) % ${VIEWERS})),
                $3::timestamptz + (g * $4::double precision) * interval '1 millisecond'
         from generate_series(0::bigint, ${SCANS - 1}) as g`,
        [projectId, qrCodes.map((code) => code.id), new Date(start).toISOString(), SCAN_STEP_MS],
      );
      await insertMany(
        "contacts",
        [
          ["id", "text"],
          ["project_id", "text"],
          ["name", "text"],
          ["email", "text"],
          ["intent", "text"],
          ["subscribed", "boolean"],
          ["role_tags", "jsonb"],
          ["linkedin_url", "text"],
          ["note", "text"],
          ["created_at", "timestamptz"],
        ],
        contacts,
      );
      await insertMany(
        "signals",
        [
          ["id", "text"],
          ["project_id", "text"],
          ["contact_id", "text"],
          ["range_label", "text"],
          ["range_min", "bigint"],
          ["range_max", "bigint"],
          ["amount", "bigint"],
          ["event_source", "text"],
          ["is_public", "boolean"],
          ["created_at", "timestamptz"],
        ],
        signals,
      );
      await client.query("commit");
    },
    async fillAggregates(pid) {
      await client.query("begin");
      for (const statement of aggregateStatements(this)) await client.query(bind(statement), [pid]);
      await client.query("commit");
    },
    async settle() {
      // What autovacuum would have done on a long-lived table: planner statistics and the visibility map.
      await client.query("vacuum (analyze) scans, contacts, signals, project_viewers, qr_code_viewers, scan_hours, qr_codes, project_stats");
    },
  };
}

/** Signs up and signs in through the /auth form; returns the session cookie (without the one-shot flash). */
async function signInFounder(url, email, password) {
  const post = (fields) =>
    fetch(`${url}/auth`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: url,
      },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
  const signUp = await post({ intent: "signup", email, password });
  await signUp.text();
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const signIn = await post({ intent: "signin", email, password });
  await signIn.text();
  if (signIn.status !== 302) throw new Error(`sign-in answered ${signIn.status}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.startsWith("flash="))
    .join("; ");
  if (!cookie) throw new Error("sign-in set no session cookie");
  return cookie;
}

/** The route's loader data from the document's turbo-stream (`streamController.enqueue("...")`). */
function loaderDataFromHtml(html) {
  const chunks = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/g)].map((match) => JSON.parse(match[1]));
  if (chunks.length === 0) throw new Error("no loader data in the analytics page");
  const values = JSON.parse(chunks.join("").split("\n")[0]);
  const constants = new Map([
    [-1, undefined],
    [-2, NaN],
    [-3, -Infinity],
    [-4, -0],
    [-5, null],
    [-6, Infinity],
    [-7, undefined],
  ]);
  const memo = new Map();
  const at = (index) => {
    if (index < 0) return constants.get(index);
    if (memo.has(index)) return memo.get(index);
    const value = values[index];
    if (Array.isArray(value)) {
      if (typeof value[0] === "string") return value; // a typed value (date, promise…): none expected here
      const out = [];
      memo.set(index, out);
      for (const item of value) out.push(at(item));
      return out;
    }
    if (value && typeof value === "object") {
      const out = {};
      memo.set(index, out);
      for (const [key, item] of Object.entries(value)) out[values[Number(key.slice(1))]] = at(item);
      return out;
    }
    return value;
  };
  return at(0).loaderData["routes/project-analytics"];
}

async function measureAnalytics(url, cookie, projectId) {
  const page = `${url}/project/${projectId}/analytics`;
  const loads = [];
  const requests = [];
  let html = "";
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const started = performance.now();
    const response = await fetch(page, { headers: { cookie } });
    html = await response.text();
    const elapsed = performance.now() - started;
    // The server's own log goes to its stdout, which startServer discards: show what the page said.
    if (response.status !== 200) throw new Error(`analytics page answered ${response.status}: ${html.replace(/\s+/g, " ").slice(0, 500)}`);
    const dur = /dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
    if (!dur) throw new Error("analytics page sent no Server-Timing dur");
    if (run >= WARM_UP) {
      loads.push(Number(dur[1]));
      requests.push(elapsed);
    }
  }
  return {
    loads,
    requests,
    analytics: loaderDataFromHtml(html).analytics,
    htmlBytes: Buffer.byteLength(html),
  };
}

/** Compares what the page shows with counts over the raw rows; "exact" or the list of differences. */
function compare(analytics, truth) {
  const problems = [];
  const check = (what, shown, actual) => {
    if (Number(shown) !== Number(actual)) problems.push(`${what}: page ${shown}, raw ${actual}`);
  };
  check("totalScans", analytics.totalScans, truth.total);
  check("uniqueScans", analytics.uniqueScans, truth.unique);
  check("totalIntros", analytics.totalIntros, truth.intros);
  check("totalSubscribers", analytics.totalSubscribers, truth.subscribers);
  check("totalSignals", analytics.totalSignals, truth.signals);
  check("QR codes listed", analytics.qrCodes.length, truth.perQr.size);
  for (const code of analytics.qrCodes) {
    const raw = truth.perQr.get(code.id) ?? { total: 0, uniq: 0 };
    check(`QR "${code.label}" totalScans`, code.totalScans, raw.total);
    check(`QR "${code.label}" uniqueScans`, code.uniqueScans, raw.uniq);
  }
  const series = [...analytics.scansOverTime.hourly, ...analytics.scansOverTime.daily];
  const charted = series.reduce((sum, line) => sum + line.points.reduce((inner, point) => inner + point.scans, 0), 0);
  check("scans over time (sum of points)", charted, truth.total);
  return problems.length ? `MISMATCH: ${problems.join("; ")}` : "exact";
}

function rssKb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : NaN;
}

/**
 * Downloads the export, counting bytes and CSV records (CRLF outside quotes), while sampling the server's RSS
 * every 20 ms. Once the response has started, one analytics page is requested beside it, to see whether the
 * export holds up the app's other database work.
 */
async function measureCsv(url, cookie, projectId, pid, acceptEncoding) {
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssKb(pid));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const baseline = median(samples);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, 20);
  try {
    const started = performance.now();
    const headers = acceptEncoding ? { cookie, "accept-encoding": acceptEncoding } : { cookie };
    const response = await fetch(`${url}/project/${projectId}/contacts.csv`, {
      headers,
    });
    if (response.status !== 200) throw new Error(`contacts.csv answered ${response.status}`);
    const firstByte = performance.now() - started;
    const beside = (async () => {
      const besideStarted = performance.now();
      const page = await fetch(`${url}/project/${projectId}/analytics`, {
        headers: { cookie },
      });
      await page.text();
      return performance.now() - besideStarted;
    })();
    let bytes = 0;
    let records = 0; // CRLF outside quotes: one per CSV record, header included
    let quoted = false;
    let lastByte = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted && lastByte === 0x0d) records++;
        lastByte = byte;
      }
    }
    if (bytes > 0 && lastByte !== 0x0a) records++;
    const total = performance.now() - started;
    peak = Math.max(peak, rssKb(pid));
    return {
      besideMs: await beside,
      firstByte,
      total,
      bytes,
      rows: records - 1,
      headerCount: Number(response.headers.get("x-contact-count")),
      encoding: response.headers.get("content-encoding") ?? "identity",
      baseline,
      peak,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function runOn(label, server, store) {
  const figures = {};
  const email = `bench-founder-${process.pid}@example.com`;
  const cookie = await signInFounder(server.url, email, "bench-secret-123");
  // `all` binds its one value to @pid, whatever it names.
  const [{ id: userId }] = await store.all("select id from users where email = @pid", email);
  log(`${label}: server ready in ${ms(server.readyMs)}, founder signed in`);

  const projectId = crypto.randomUUID();
  const now = Date.now();
  const start = now - DAYS * DAY_MS;
  const qrCodes = Array.from({ length: QR_CODES }, (_, index) => ({
    id: crypto.randomUUID(),
    label: `Booth ${index + 1}`,
    eventTag: index % 2 === 0 ? `event-${index}` : null,
    createdAt: new Date(start - (QR_CODES - index) * 60_000).toISOString(),
  }));
  const project = {
    title: 'Bench Analytics, "Cold" Chain',
    slug: `bench-analytics-${process.pid}`,
    oneLiner: "A benchmark project",
    createdAt: new Date(start - DAY_MS).toISOString(),
  };

  log(`${label}: seeding ${SCANS.toLocaleString("en")} scans, ${CONTACTS.toLocaleString("en")} contacts, ${SIGNALS.toLocaleString("en")} signals…`);
  let started = performance.now();
  await store.seedRaw({ userId, projectId, project, qrCodes, start });
  const rawMs = performance.now() - started;
  started = performance.now();
  await store.fillAggregates(projectId);
  const aggregatesMs = performance.now() - started;
  started = performance.now();
  await store.settle();
  const settleMs = performance.now() - started;
  const seeding = `${secs(rawMs + aggregatesMs + settleMs)} (raw rows ${secs(rawMs)}, aggregates ${secs(aggregatesMs)}, ${label === "SQLite" ? "WAL checkpoint" : "vacuum analyze"} ${secs(settleMs)})`;
  log(`${label}: seeded in ${seeding}`);
  figures[`${label}: seeding (1M scans, 50k viewers, 10 QR codes, 100k contacts)`] = seeding;

  log(`${label}: analytics page, ${WARM_UP} warm-up + ${RUNS} timed requests…`);
  await letSocketsSettle();
  const page = await measureAnalytics(server.url, cookie, projectId);
  // Decision 52: the same page for a founder in a half-hour zone, whose day and hour edges cut UTC hours, so those
  // hours are read again from the scans by quarter hour (a whole-hour zone, like the UTC above, never does).
  await store.all("update users set time_zone = 'Asia/Kolkata' where id = @pid returning id", userId);
  log(`${label}: analytics page for a founder in Asia/Kolkata, ${WARM_UP} warm-up + ${RUNS} timed requests…`);
  await letSocketsSettle();
  const halfHourPage = await measureAnalytics(server.url, cookie, projectId);
  await store.all("update users set time_zone = null where id = @pid returning id", userId);

  log(`${label}: naive queries over the raw scans…`);
  const naive = {};
  const results = {};
  for (const [name, sql] of Object.entries(NAIVE)) {
    const queryStarted = performance.now();
    results[name] = await store.all(sql, projectId);
    naive[name] = performance.now() - queryStarted;
  }
  const [{ n: intros }] = await store.all("select count(*) as n from contacts where project_id = @pid and intent = 'Intro'", projectId);
  const [{ n: subscribers }] = await store.all(
    `select count(*) as n from contacts where project_id = @pid and subscribed = ${store.true}`,
    projectId,
  );
  const [{ n: signals }] = await store.all("select count(*) as n from signals where project_id = @pid", projectId);
  const truth = {
    total: Number(results["count(*) scans"][0].n),
    unique: Number(results["count(distinct viewer_fingerprint)"][0].n),
    intros: Number(intros),
    subscribers: Number(subscribers),
    signals: Number(signals),
    perQr: new Map(
      results["per-QR group by"].filter((row) => row.qr_code_id).map((row) => [row.qr_code_id, { total: Number(row.total), uniq: Number(row.uniq) }]),
    ),
  };

  figures[`${label}: analytics data load (Server-Timing), median / p95`] = `${ms(median(page.loads))} / ${ms(p95(page.loads))}`;
  figures[`${label}: analytics page request (whole), median / p95`] =
    `${ms(median(page.requests))} / ${ms(p95(page.requests))} (${(page.htmlBytes / 1024).toFixed(0)} KB HTML)`;
  figures[`${label}: analytics data load, founder in Asia/Kolkata (Server-Timing), median / p95`] = `${ms(median(halfHourPage.loads))} / ${ms(p95(halfHourPage.loads))}`;
  figures[`${label}: analytics totals vs raw rows`] =
    `${compare(page.analytics, truth)} (scans ${page.analytics.totalScans}, unique ${page.analytics.uniqueScans}, intros ${page.analytics.totalIntros}, subscribers ${page.analytics.totalSubscribers}, signals ${page.analytics.totalSignals})`;
  figures[`${label}: naive raw-scan queries, once each (old spec)`] = `${Object.entries(naive)
    .map(([name, value]) => `${name} ${ms(value)}`)
    .join(", ")}; sum ${ms(Object.values(naive).reduce((a, b) => a + b, 0))}`;

  log(`${label}: contacts CSV export…`);
  await letSocketsSettle();
  // As a browser asks for it (fetch sends Accept-Encoding: gzip, deflate), then uncompressed for comparison.
  const csv = await measureCsv(server.url, cookie, projectId, server.pid);
  const rowsOk = csv.rows === CONTACTS && csv.headerCount === CONTACTS ? "all" : "MISMATCH";
  figures[`${label}: contacts.csv export (100k contacts)`] =
    `${ms(csv.total)} total, first byte ${ms(csv.firstByte)}, ${(csv.bytes / 1024 / 1024).toFixed(1)} MB CSV (${csv.encoding} on the wire), ` +
    `${csv.rows} rows parsed / X-Contact-Count ${csv.headerCount} / seeded ${CONTACTS} (${rowsOk})`;
  figures[`${label}: server RSS during export, baseline / peak / delta`] =
    `${mb(csv.baseline)} / ${mb(csv.peak)} / +${mb(csv.peak - csv.baseline)} MB`;
  figures[`${label}: analytics page requested during the export`] = `${ms(csv.besideMs)} (alone: median ${ms(median(page.requests))})`;
  log(`${label}: contacts CSV export, uncompressed…`);
  await letSocketsSettle();
  const plain = await measureCsv(server.url, cookie, projectId, server.pid, "identity");
  figures[`${label}: contacts.csv export, Accept-Encoding: identity`] =
    `${ms(plain.total)} total, ${(plain.bytes / 1024 / 1024).toFixed(1)} MB, ${plain.rows} rows; analytics page beside it ${ms(plain.besideMs)}`;
  log(`${label}: done`);
  return figures;
}

export default async function founderAnalytics() {
  const figures = {};

  log("SQLite: starting the app…");
  const sqliteServer = await startServer();
  let sqlite;
  try {
    sqlite = new SQLite(path.join(sqliteServer.dataDir, "app.sqlite"));
    sqlite.pragma("busy_timeout = 5000");
    Object.assign(figures, await runOn("SQLite", sqliteServer, sqliteStore(sqlite)));
  } finally {
    sqlite?.close();
    await sqliteServer.stop();
  }

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `pitchqr_bench_analytics_${process.pid}`;
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let pgServer;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    log("PostgreSQL: starting the app…");
    pgServer = await startServer({ DATABASE_URL: url.toString() });
    await client.connect();
    Object.assign(figures, await runOn("PostgreSQL", pgServer, pgStore(client)));
  } finally {
    await client.end().catch(() => {});
    await pgServer?.stop();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  return figures;
}
