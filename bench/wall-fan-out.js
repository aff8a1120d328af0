// Live walls (decision 43): how long a public signal takes to reach every open wall, with 1 and with 1,000
// walls open on one instance, beside the reference measured in the same run: the signal's own answer (the visitor's
// round trip), and the event loop's worst delay (`/healthz`'s eventLoopMaxDelayMs) while the entries went out. Each
// instance reads a new entry once per project, whatever the number of walls, so the time to the last wall should grow
// with the bytes written, not with statements. The app runs as `npm start` runs it (SQLite, request logs on).
import path from "node:path";
import SQLite from "better-sqlite3";
import { median, startServer } from "./support.js";

const SIGNALS = 10;
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

function demoProject(dataDir) {
  const db = new SQLite(path.join(dataDir, "app.sqlite"), { readonly: true });
  const project = db.prepare("select id, slug from projects where slug = 'demo-project'").get();
  const tier = db.prepare("select id from signal_tiers where project_id = ? order by sort_order limit 1").get(project.id);
  db.close();
  return { ...project, tierId: tier.id };
}

/** Opens a wall's stream from its own network address; `waitFor(seq)` resolves when that entry arrived. */
async function openWall(url, projectId, index, controller) {
  const response = await fetch(`${url}/api/wall/${projectId}/stream`, {
    headers: { accept: "text/event-stream", "x-forwarded-for": `10.60.${Math.floor(index / 250)}.${(index % 250) + 1}` },
    signal: controller.signal,
  });
  if (!response.ok) throw new Error(`wall stream answered ${response.status}`);
  const seen = new Map();
  const waiters = new Map();
  const decoder = new TextDecoder();
  let buffer = "";
  (async () => {
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = block.match(/^id: (\d+)\nevent: entry$/m)?.[1];
          if (!id) continue;
          const at = performance.now();
          seen.set(Number(id), at);
          waiters.get(Number(id))?.(at);
        }
      }
    } catch {
      // closed at the end of the run
    }
  })();
  return {
    waitFor: (seq) => (seen.has(seq) ? Promise.resolve(seen.get(seq)) : new Promise((resolve) => waiters.set(seq, resolve))),
  };
}

async function run(walls) {
  const server = await startServer({ TRUST_PROXY: "loopback" });
  const controller = new AbortController();
  try {
    const project = demoProject(server.dataDir);
    const streams = [];
    for (let index = 0; index < walls; index += 1) streams.push(await openWall(server.url, project.id, index, controller));
    const wallSeq = () => {
      const db = new SQLite(path.join(server.dataDir, "app.sqlite"), { readonly: true });
      const row = db.prepare("select wall_seq from projects where id = ?").get(project.id);
      db.close();
      return Number(row.wall_seq);
    };
    await fetch(`${server.url}/healthz`); // resets the worst event-loop delay
    const answers = [];
    const toLastWall = [];
    for (let index = 0; index < SIGNALS; index += 1) {
      const seq = wallSeq() + 1;
      const arrivals = Promise.all(streams.map((stream) => stream.waitFor(seq)));
      const started = performance.now();
      const response = await fetch(`${server.url}/pitch/${project.slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `10.61.0.${index + 1}`, "user-agent": PHONE },
        body: new URLSearchParams({ via: "fetch", intent: "signal", showName: "on", tierId: project.tierId, name: `Bench ${index}`, email: `bench${index}@example.com` }),
      });
      answers.push(performance.now() - started);
      if (response.status >= 300) throw new Error(`signal answered ${response.status}`);
      toLastWall.push(Math.max(...(await arrivals)) - started);
    }
    const health = await (await fetch(`${server.url}/healthz`)).json();
    return { answer: median(answers), lastWall: median(toLastWall), loopDelay: health.eventLoopMaxDelayMs };
  } finally {
    controller.abort();
    await server.stop();
  }
}

export default async function wallFanOut() {
  const one = await run(1);
  const many = await run(1_000);
  const show = (result) =>
    `median ${result.lastWall.toFixed(0)} ms to the last wall (reference, the signal's own answer: median ${result.answer.toFixed(0)} ms); worst event-loop delay ${Math.round(result.loopDelay)} ms`;
  return { "public signal to 1 open wall": show(one), "public signal to 1,000 open walls": show(many) };
}
