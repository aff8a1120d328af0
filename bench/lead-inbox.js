// The founder's lead inbox at volume: one project with 100,000 contacts from 80,000 people (every fifth
// contact is a returning visitor), on SQLite and on PostgreSQL. The inbox reads the maintained `leads` table one keyset page at a
// time; beside it, the reference: merging the raw contacts by e-mail for one page, as a query-time inbox would.
// Then the webhook latency: from a visitor's intro (the HTTP request) to the signed POST arriving at a receiver.
import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { founderPost, median, startServer, founderCookie } from "./support.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CONTACTS = 100_000;
const PEOPLE = 80_000;
const RUNS = 30;
const WARM_UP = 5;
const WEBHOOK_EVENTS = 30;
const DAY_MS = 86_400_000;
const EVENTS = ["Web Summit", "Demo Day", "Slush", null];

const log = (message) => console.log(`  [lead-inbox] ${message}`);
const ms = (value) => `${value.toFixed(1)} ms`;
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];
const summary = (values) => `median ${ms(median(values))}, p95 ${ms(p95(values))}`;



/** Contacts, and the leads the app would have kept for them (as recordLeadActivity does on every write). */
function rows(projectId) {
  const start = Date.now() - 30 * DAY_MS;
  const contacts = [];
  const leads = new Map();
  for (let g = 0; g < CONTACTS; g++) {
    const person = g < PEOPLE ? g : (g * 7919) % PEOPLE;
    const email = `person${person}@example.com`;
    const intent = g % 10 < 4 ? "Intro" : g % 10 < 7 ? "Supporter" : "Subscriber";
    const at = new Date(start + g * ((30 * DAY_MS) / CONTACTS)).toISOString();
    contacts.push({
      id: crypto.randomUUID(),
      project_id: projectId,
      name: `Person ${person}`,
      email,
      intent,
      subscribed: intent === "Subscriber",
      role_tags: intent === "Intro" ? '["Angel"]' : "[]",
      note: intent === "Intro" ? "Met at the booth" : null,
      created_at: at,
    });
    const lead = leads.get(email) ?? { id: crypto.randomUUID(), project_id: projectId, email, name: `Person ${person}`, first_seen_at: at, did_intro: false, did_subscribe: false, did_signal: false, event_source: EVENTS[person % EVENTS.length] };
    lead.last_activity_at = at;
    lead[intent === "Intro" ? "did_intro" : intent === "Subscriber" ? "did_subscribe" : "did_signal"] = true;
    leads.set(email, lead);
  }
  return { contacts, leads: [...leads.values()] };
}

const CONTACT_COLUMNS = [["id", "text"], ["project_id", "text"], ["name", "text"], ["email", "text"], ["intent", "text"], ["subscribed", "boolean"], ["role_tags", "jsonb"], ["note", "text"], ["created_at", "timestamptz"]];
const LEAD_COLUMNS = [["id", "text"], ["project_id", "text"], ["email", "text"], ["name", "text"], ["first_seen_at", "timestamptz"], ["last_activity_at", "timestamptz"], ["did_intro", "boolean"], ["did_subscribe", "boolean"], ["did_signal", "boolean"], ["event_source", "text"]];

function sqliteStore(dataDir) {
  const db = new SQLite(path.join(dataDir, "app.sqlite"));
  db.pragma("busy_timeout = 10000");
  const insert = (table, columns, list) => {
    const statement = db.prepare(`insert into ${table} (${columns.map(([name]) => name).join(", ")}) values (${columns.map(() => "?").join(", ")})`);
    for (const row of list) statement.run(...columns.map(([name]) => (typeof row[name] === "boolean" ? (row[name] ? 1 : 0) : row[name])));
  };
  return {
    label: "SQLite",
    async seed({ contacts, leads }) {
      db.transaction(() => {
        insert("contacts", CONTACT_COLUMNS, contacts);
        insert("leads", LEAD_COLUMNS, leads);
      })();
      db.pragma("wal_checkpoint(TRUNCATE)");
    },
    async middle(projectId, offset) {
      return db.prepare("select last_activity_at as at, id from leads where project_id = ? order by last_activity_at desc, id desc limit 1 offset ?").get(projectId, offset);
    },
    async reference(projectId) {
      return db.prepare(REFERENCE_SQL.replace("$1", "?")).all(projectId);
    },
    async close() {
      db.close();
    },
  };
}

async function pgStore(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  async function insert(table, columns, list, chunk = 20_000) {
    const casts = columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(", ");
    for (let offset = 0; offset < list.length; offset += chunk) {
      const part = list.slice(offset, offset + chunk);
      await client.query(`insert into ${table} (${columns.map(([name]) => name).join(", ")}) select * from unnest(${casts})`, columns.map(([name]) => part.map((row) => row[name])));
    }
  }
  return {
    label: "PostgreSQL",
    async seed({ contacts, leads }) {
      await insert("contacts", CONTACT_COLUMNS, contacts);
      await insert("leads", LEAD_COLUMNS, leads);
      await client.query("vacuum (analyze) contacts, leads");
    },
    async middle(projectId, offset) {
      const { rows } = await client.query("select last_activity_at as at, id from leads where project_id = $1 order by last_activity_at desc, id desc limit 1 offset $2", [projectId, offset]);
      return { at: rows[0].at.toISOString(), id: rows[0].id };
    },
    async reference(projectId) {
      return (await client.query(REFERENCE_SQL, [projectId])).rows;
    },
    async close() {
      await client.end();
    },
  };
}

async function timePage(url, cookie, pathname) {
  const loads = [];
  const requests = [];
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const started = performance.now();
    const response = await fetch(`${url}${pathname}`, { headers: { cookie } });
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}: ${html.slice(0, 300)}`);
    const dur = /dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
    if (run >= WARM_UP) {
      loads.push(Number(dur?.[1] ?? NaN));
      requests.push(performance.now() - started);
    }
  }
  return { loads, requests };
}

/** The query-time alternative, for reference: merge every contact by e-mail, then take the newest page. */
const REFERENCE_SQL = `select lower(email) as email, max(name) as name, min(created_at) as first_seen, max(created_at) as last_activity,
    count(*) filter (where intent = 'Intro') as intros, count(*) filter (where subscribed) as subscribed
  from contacts where project_id = $1 group by lower(email) order by last_activity desc limit 26`;

async function timeReference(store, projectId) {
  const times = [];
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const started = performance.now();
    await store.reference(projectId);
    if (run >= WARM_UP) times.push(performance.now() - started);
  }
  return times;
}

async function webhookLatency(url, cookie, projectId) {
  const arrivals = new Map();
  const receiver = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      arrivals.get(body.lead.email)?.(performance.now());
      response.writeHead(200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hook = `http://127.0.0.1:${receiver.address().port}/hook`;
  const added = await founderPost(url, cookie, `/project/${projectId}/leads/settings`, { intent: "add-webhook", url: hook });
  if (added.status !== 200) throw new Error(`adding the webhook answered ${added.status}`);
  const latencies = [];
  for (let index = 0; index < WEBHOOK_EVENTS; index++) {
    const email = `latency${index}@example.com`;
    const arrived = new Promise((resolve) => arrivals.set(email, resolve));
    const started = performance.now();
    const response = await fetch(`${url}/api/functions/submit-intro`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url, "x-forwarded-for": `10.200.${Math.floor(index / 200)}.${(index % 200) + 1}` },
      body: JSON.stringify({ projectId, contact: { name: `Latency ${index}`, email, linkedinUrl: null }, note: "Bench", roleTags: [] }),
    });
    await response.text();
    if (response.status !== 200) throw new Error(`submit-intro answered ${response.status}`);
    latencies.push((await arrived) - started);
  }
  await new Promise((resolve) => receiver.close(resolve));
  return latencies;
}

async function measure(env, openStore, withWebhooks) {
  const server = await startServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", TRUST_PROXY: "loopback", ...env });
  const figures = {};
  try {
    const cookie = await founderCookie(server.url, "bench-leads");
    const created = await founderPost(server.url, cookie, "/project/create", {
      title: "Bench Leads",
      slug: `bench-leads-${Date.now()}`,
      oneLiner: "Lead inbox at volume",
      status: "published",
      metrics: "[]",
      problemPoints: "[]",
      solutionPoints: "[]",
      tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 5000, rangeMax: 25000, perks: [] }]),
    });
    const projectId = new URL(created.headers.get("location"), server.url).pathname.split("/")[2];
    const store = await openStore(server.dataDir);
    const data = rows(projectId);
    log(`${store.label}: seeding ${CONTACTS.toLocaleString("en-US")} contacts from ${data.leads.length.toLocaleString("en-US")} people…`);
    await store.seed(data);
    // Seeding blocked this process past the server's keep-alive: let fetch see the sockets the server closed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const base = `/project/${projectId}/leads`;
    const label = (what) => `${store.label}: ${what}`;
    figures[label("people (leads) / contacts")] = `${data.leads.length.toLocaleString("en-US")} / ${CONTACTS.toLocaleString("en-US")}`;
    const first = await timePage(server.url, cookie, base);
    figures[label("inbox first page, data load (Server-Timing)")] = summary(first.loads);
    figures[label("inbox first page, whole request")] = summary(first.requests);
    figures[label("inbox filtered (intro + event + status)")] = summary((await timePage(server.url, cookie, `${base}?action=intro&event=Slush&status=new`)).loads);
    figures[label("inbox search by name (substring)")] = summary((await timePage(server.url, cookie, `${base}?q=person7123`)).loads);
    const middle = await store.middle(projectId, Math.floor(data.leads.length / 2));
    figures[label("inbox page in the middle (keyset)")] = summary((await timePage(server.url, cookie, `${base}?after=${Buffer.from(`${middle.at}|${middle.id}`).toString("base64url")}`)).loads);
    figures[label("reference: merge contacts by e-mail for one page (group by)")] = summary(await timeReference(store, projectId));
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (withWebhooks) {
      log("webhook latency…");
      figures[`webhook latency, intro request to receiver (${WEBHOOK_EVENTS} events, ${store.label})`] = summary(await webhookLatency(server.url, cookie, projectId));
    }
  } finally {
    await server.stop();
  }
  return figures;
}

export default async function run() {
  const figures = await measure({}, (dataDir) => sqliteStore(dataDir), true);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `pitchqr_bench_leads_${process.pid}`;
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    Object.assign(figures, await measure({ DATABASE_URL: url.toString() }, () => pgStore(url.toString()), false));
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label}: ${value}`);
}
