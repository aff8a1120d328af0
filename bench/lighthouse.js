import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, requireChromium } from "../tests/support/chromium.js";
import { freePort, median, startServer } from "./support.js";

const PAGE = "/pitch/demo-project";

/**
 * The floor: the same page with every `<script>` removed, served gzipped from a bare server that passes
 * every other request (icons, manifest) to the app.
 */
async function startFloorServer(appUrl) {
  const html = (await (await fetch(`${appUrl}${PAGE}`)).text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  const gzip = zlib.gzipSync(Buffer.from(html), { level: 9 });
  const port = await freePort();
  const server = http.createServer(async (req, res) => {
    if (req.url === PAGE) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Cache-Control": "no-cache" });
      return res.end(gzip);
    }
    const upstream = await fetch(`${appUrl}${req.url}`, { headers: { "accept-encoding": "identity" } });
    res.writeHead(upstream.status, { "Content-Type": upstream.headers.get("content-type") ?? "application/octet-stream" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Lighthouse 12's default (mobile) preset: Slow 4G and 4x CPU throttling, simulated. Median of 3 runs. */
async function measure(chrome, url) {
  const runs = [];
  for (let i = 0; i < 3; i += 1) {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    const { audits, categories } = result.lhr;
    const requests = audits["network-requests"].details.items;
    const bytesOf = (types) => requests.filter((item) => types.includes(item.resourceType)).reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
    runs.push({
      lcp: audits["largest-contentful-paint"].numericValue,
      fcp: audits["first-contentful-paint"].numericValue,
      tbt: audits["total-blocking-time"].numericValue,
      cls: audits["cumulative-layout-shift"].numericValue,
      score: Math.round(categories.performance.score * 100),
      transfer: audits["total-byte-weight"].numericValue,
      requests: requests.length,
      js: bytesOf(["Script"]),
      css: bytesOf(["Stylesheet"]),
    });
  }
  const pick = (key) => median(runs.map((run) => run[key]));
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  return {
    "score / LCP / FCP / TBT / CLS (median of 3)": `${pick("score")} / ${(pick("lcp") / 1000).toFixed(2)} s / ${(pick("fcp") / 1000).toFixed(2)} s / ${Math.round(pick("tbt"))} ms / ${pick("cls").toFixed(3)}`,
    "transfer / requests": `${kb(pick("transfer"))} KB / ${pick("requests")}`,
    "JS / CSS files transferred (gzip)": `${kb(pick("js"))} KB / ${kb(pick("css"))} KB`,
    runs: runs.map((run) => `score ${run.score}, LCP ${(run.lcp / 1000).toFixed(2)} s, TBT ${Math.round(run.tbt)} ms`).join("; "),
  };
}

/** `/pitch/demo-project` beside the same page without scripts (decision 13: the anonymous page should be at that floor). */
export default async function lighthouseRun() {
  const server = await startServer();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-lh-"));
  const chrome = await chromeLauncher.launch({ chromePath: requireChromium(), chromeFlags: CHROMIUM_FLAGS, userDataDir });
  let floor;
  try {
    await fetch(`${server.url}${PAGE}`); // warm the page cache, as a live page would be
    floor = await startFloorServer(server.url);
    const page = await measure(chrome, `${server.url}${PAGE}`);
    const floorFigures = await measure(chrome, `${floor.url}${PAGE}`);
    return {
      ...Object.fromEntries(Object.entries(page).map(([label, value]) => [`pitch page ${label}`, value])),
      ...Object.fromEntries(Object.entries(floorFigures).map(([label, value]) => [`floor (no scripts) ${label}`, value])),
    };
  } finally {
    await floor?.close();
    chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    await server.stop();
  }
}
