// The founder's lead inbox at volume (issue 12): one project with 100,000 contacts from 80,000 people (every fifth
// contact is a returning visitor), on SQLite. The inbox reads the maintained `leads` table one keyset page at a
// time; beside it, the reference: merging the raw contacts by e-mail for one page, as a query-time inbox would.
// Then the webhook latency: from a visitor's intro (the HTTP request) to the signed POST arriving at a receiver.
import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import { median, startServer } from "./support.js";

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

async function founderCookie(url) {
  const email = `bench-leads-${Date.now()}@example.com`;
  const post = (intent) =>
    fetch(`${url}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent, email, password: "bench-password" }),
    });
  await (await post("signup")).text();
  const signIn = await post("signin");
  await signIn.text();
  return signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.startsWith("flash="))
    .join("; ");
}

async function founderPost(url, cookie, pathname, fields) {
  const response = await fetch(`${url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: url, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  await response.text();
  return response;
}

/** Contacts and the leads the app would have kept for them (as recordLeadActivity does on every write). */
function seed(dataDir, projectId) {
  const db = new SQLite(path.join(dataDir, "app.sqlite"));
  db.pragma("busy_timeout = 10000");
  const start = Date.now() - 30 * DAY_MS;
  const leads = new Map();
  db.transaction(() => {
    const contact = db.prepare(
      `insert into contacts (id, project_id, name, email, intent, subscribed, role_tags, linkedin_url, note, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let g = 0; g < CONTACTS; g++) {
      const person = g < PEOPLE ? g : (g * 7919) % PEOPLE;
      const email = `person${person}@example.com`;
      const intent = g % 10 < 4 ? "Intro" : g % 10 < 7 ? "Supporter" : "Subscriber";
      const at = new Date(start + g * ((30 * DAY_MS) / CONTACTS)).toISOString();
      contact.run(crypto.randomUUID(), projectId, `Person ${person}`, email, intent, intent === "Subscriber" ? 1 : 0, intent === "Intro" ? '["Angel"]' : "[]", null, intent === "Intro" ? "Met at the booth" : null, at);
      const lead = leads.get(email) ?? { email, name: `Person ${person}`, first: at, intro: 0, subscribe: 0, signal: 0, event: EVENTS[person % EVENTS.length] };
      lead.last = at;
      lead[intent === "Intro" ? "intro" : intent === "Subscriber" ? "subscribe" : "signal"] = 1;
      leads.set(email, lead);
    }
    const insertLead = db.prepare(
      `insert into leads (id, project_id, email, name, first_seen_at, last_activity_at, did_intro, did_subscribe, did_signal, event_source)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const lead of leads.values()) insertLead.run(crypto.randomUUID(), projectId, lead.email, lead.name, lead.first, lead.last, lead.intro, lead.subscribe, lead.signal, lead.event);
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  return { db, leads: leads.size };
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
function timeReference(db, projectId) {
  const statement = db.prepare(
    `select lower(email) as email, max(name) as name, min(created_at) as first_seen, max(created_at) as last_activity,
            max(intent = 'Intro') as did_intro, max(subscribed) as did_subscribe
     from contacts where project_id = ? group by lower(email) order by last_activity desc limit 26`,
  );
  const times = [];
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const started = performance.now();
    statement.all(projectId);
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

export default async function run() {
  const server = await startServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", TRUST_PROXY: "loopback" });
  try {
    const cookie = await founderCookie(server.url);
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
    log(`seeding ${CONTACTS.toLocaleString("en-US")} contacts from ${PEOPLE.toLocaleString("en-US")} people…`);
    const { db, leads } = seed(server.dataDir, projectId);
    // Seeding blocked this process past the server's keep-alive: let fetch see the sockets the server closed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const base = `/project/${projectId}/leads`;
    const first = await timePage(server.url, cookie, base);
    const filtered = await timePage(server.url, cookie, `${base}?action=intro&event=Slush&status=new`);
    const search = await timePage(server.url, cookie, `${base}?q=person7123`);
    const middle = [...db.prepare("select last_activity_at as at, id from leads where project_id = ? order by last_activity_at desc, id desc limit 1 offset ?").all(projectId, Math.floor(leads / 2))][0];
    const deep = await timePage(server.url, cookie, `${base}?after=${Buffer.from(`${middle.at}|${middle.id}`).toString("base64url")}`);
    const reference = timeReference(db, projectId);
    db.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    log("webhook latency…");
    const latencies = await webhookLatency(server.url, cookie, projectId);
    return {
      "people (leads) / contacts": `${leads.toLocaleString("en-US")} / ${CONTACTS.toLocaleString("en-US")} (SQLite)`,
      "inbox first page, data load (Server-Timing)": summary(first.loads),
      "inbox first page, whole request": summary(first.requests),
      "inbox filtered (intro + event + status)": summary(filtered.loads),
      "inbox search by name (substring)": summary(search.loads),
      "inbox page in the middle (keyset)": summary(deep.loads),
      "reference: merge contacts by e-mail per page (group by)": summary(reference),
      [`webhook latency, intro request to receiver (${WEBHOOK_EVENTS} events)`]: summary(latencies),
    };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label}: ${value}`);
}
