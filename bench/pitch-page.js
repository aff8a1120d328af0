import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import SQLite from "better-sqlite3";
import { clientJsGzipBytes } from "./client-size.js";
import { freePort, startServer } from "./support.js";
import { ensureWrk, fmt, runWrk } from "./wrk.js";

const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
// As a phone browser asks: the door counts nothing without Accept-Language (decision 52).
const GZIP = { "Accept-Encoding": "gzip", "Accept-Language": "en-US,en;q=0.9" };

/** The ceiling: a bare Node http server answering the same gzipped bytes as the app's cached page. */
async function startBareNode(gzipBody) {
  const port = await freePort();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bare-")), "page.html.gz");
  fs.writeFileSync(file, gzipBody);
  const code = `
    const body = require("node:fs").readFileSync(${JSON.stringify(file)});
    require("node:http").createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip", "content-length": body.length });
      res.end(body);
    }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

/** wrk after a 3 s warm-up, so the figures are of a running server and not of the JIT compiler. */
async function measure(url, options = {}) {
  await runWrk(url, { ...options, seconds: 3 });
  return runWrk(url, options);
}

/**
 * The visitor's pitch page as `npm start` serves it (default LOG_LEVEL, request logs on), beside a bare Node
 * server answering the same bytes; the uncached render beside a plain React Router page; and scans counted
 * at the door through page loads, with the rows counted after the run.
 */
export default async function pitchPage() {
  ensureWrk();
  const figures = {};
  const server = await startServer();
  let bare;
  try {
    const page = `${server.url}/pitch/demo-project`;
    const sizes = await clientJsGzipBytes(server.url, "/pitch/demo-project");
    figures["pitch page HTML, gzip (KB)"] = (sizes.htmlGzip / 1024).toFixed(1);
    figures["pitch page JS, gzip (KB)"] = `${(sizes.jsGzip / 1024).toFixed(1)} in ${sizes.files} files`;

    const first = await fetch(page, { headers: GZIP });
    figures["served from page cache"] = first.headers.get("x-page-cache") === "hit" ? "yes" : "no";
    // fetch hands back the page decompressed: gzipped again as the page cache does (level 9).
    const html = Buffer.from(await first.arrayBuffer());
    bare = await startBareNode(zlib.gzipSync(html, { level: 9 }));

    const ceiling = await measure(bare.url, { headers: GZIP });
    figures["bare Node http, same gzipped page (ceiling)"] = fmt(ceiling);
    const cached = await measure(page, { headers: GZIP });
    figures["cached page, wrk as the issue runs it (no user agent: tallied as a bot, nothing written)"] = fmt(cached);
    figures["cached page / bare Node"] = `${(cached.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2)}x`;
    // The signed viewer cookie the door gives a phone on its first load.
    const viewerCookie = (await fetch(page, { headers: { ...GZIP, "User-Agent": PHONE_UA } })).headers.getSetCookie()[0]?.split(";")[0] ?? "";
    const returning = await measure(page, { headers: { ...GZIP, "User-Agent": PHONE_UA, Cookie: viewerCookie } });
    figures["cached page, one returning phone (a scan written per load)"] = fmt(returning);

    const plain = await measure(`${server.url}/privacy`, { headers: GZIP });
    figures["a plain React Router page (/privacy), server render"] = fmt(plain);
    // Any query key other than ?qr= skips the cache: the app's own uncached server render, same process.
    const uncached = await measure(`${page}?bench=uncached`, { headers: GZIP });
    figures["pitch page, uncached server render"] = fmt(uncached);
    figures["uncached pitch render / plain page"] = `${(uncached.requestsPerSecond / plain.requestsPerSecond).toFixed(2)}x`;

    // Every request a new phone (wrk keeps no cookies): each load writes a scan and a new viewer.
    const db = new SQLite(path.join(server.dataDir, "app.sqlite"), { readonly: true });
    db.pragma("busy_timeout = 5000");
    const projectId = db.prepare("select id from projects where slug = 'demo-project'").get().id;
    const rows = () => db.prepare("select count(*) as n from scans where project_id = ?").get(projectId).n;
    await runWrk(`${page}?qr=bench`, { seconds: 3, headers: { ...GZIP, "User-Agent": PHONE_UA } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = rows();
    const scans = await runWrk(`${page}?qr=bench`, { headers: { ...GZIP, "User-Agent": PHONE_UA } });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stored = rows() - before;
    db.close();
    const served = scans.requests - scans.non2xx;
    figures["scans through page loads (every load a new viewer)"] = fmt(scans);
    figures["page loads served / scan rows stored"] = `${served} / ${stored} (${stored >= served ? "none lost" : `${served - stored} LOST`})`;
  } finally {
    bare?.stop();
    await server.stop();
  }
  return figures;
}
