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
const RUNS = 5;
/** The page's targets, beside the floor. */
const TARGETS = { lcpOverFloorMs: 50, transferKb: 30, deckKb: 150, score: 100, tbtMs: 50 };

/** One GET through node:http, bytes as sent on the wire (no decompression), so sizes are what a browser receives. */
function rawGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { connection: "close", ...headers } }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const brotli = (buffer) => zlib.brotliCompressSync(buffer, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length } });

/**
 * The floor: the same page with every `<script>` removed, answered with the app's own response headers and, like
 * the page cache, brotli (quality 11) when the browser takes it; every other request (icons, manifest) is passed
 * to the app and its answer passed back byte for byte, so both sides transfer the same for everything but the
 * document.
 */
async function startFloorServer(appUrl) {
  const page = await rawGet(`${appUrl}${PAGE}`, { "accept-encoding": "identity" });
  const html = Buffer.from(page.body.toString("utf8").replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, ""));
  const bodies = { br: brotli(html), gzip: zlib.gzipSync(html, { level: 9 }), identity: html };
  const documentHeaders = { ...page.headers };
  for (const name of ["content-length", "content-encoding", "etag", "date", "connection", "keep-alive", "x-request-id"]) delete documentHeaders[name];
  const port = await freePort();
  const server = http.createServer((req, res) => {
    if (req.url === PAGE) {
      const accepts = req.headers["accept-encoding"] ?? "";
      const encoding = /\bbr\b/.test(accepts) ? "br" : /\bgzip\b/.test(accepts) ? "gzip" : "identity";
      res.writeHead(200, { ...documentHeaders, ...(encoding === "identity" ? {} : { "content-encoding": encoding }), "content-length": bodies[encoding].length });
      return res.end(bodies[encoding]);
    }
    const upstream = http.request(`${appUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    documentBrotliBytes: bodies.br.length,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** One Lighthouse 12 run with its default (mobile) preset: Slow 4G and 4x CPU throttling, simulated. */
async function runOnce(chrome, url) {
  const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
  const { audits, categories, runtimeError } = result.lhr;
  // A run Lighthouse could not finish (on a starved machine, say) has no metrics: it is named, not counted.
  if (runtimeError || !Number.isFinite(audits["largest-contentful-paint"].numericValue)) return { failed: runtimeError?.code ?? "no LCP" };
  const requests = audits["network-requests"].details.items;
  return {
    run: {
      lcp: audits["largest-contentful-paint"].numericValue,
      fcp: audits["first-contentful-paint"].numericValue,
      tbt: audits["total-blocking-time"].numericValue,
      cls: audits["cumulative-layout-shift"].numericValue,
      score: Math.round(categories.performance.score * 100),
      transfer: audits["total-byte-weight"].numericValue,
      requests: requests.map((item) => ({ url: new URL(item.url).pathname, type: item.resourceType, bytes: item.transferSize ?? 0 })),
      lcpElement: lcpElementOf(audits),
      observedLcp: audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint ?? NaN,
    },
  };
}

/**
 * RUNS runs of each address, taken in turn (page, floor, page, floor…) so that the machine's load at any moment
 * weighs on both alike; the median of the runs that finished, for each.
 */
async function measureInTurn(chrome, urls) {
  const results = urls.map(() => ({ runs: [], failed: [] }));
  const lcpDifferences = [];
  for (let i = 0; i < RUNS; i += 1) {
    const round = [];
    for (const [index, url] of urls.entries()) {
      const { run, failed } = await runOnce(chrome, url);
      round.push(run);
      if (run) results[index].runs.push(run);
      else results[index].failed.push(failed);
    }
    if (round[0] && round[1]) lcpDifferences.push(round[0].lcp - round[1].lcp);
  }
  return { summaries: results.map(({ runs, failed }, index) => summarise(urls[index], runs, failed)), lcpDifferences };
}

function summarise(url, runs, failed) {
  if (runs.length === 0) throw new Error(`every Lighthouse run of ${url} failed: ${failed.join(", ")}`);
  const pick = (key) => median(runs.map((run) => (key === "requests" ? run.requests.length : run[key])));
  // The requests of the run whose transfer is the median one.
  const medianRun = runs.find((run) => run.transfer === pick("transfer"));
  return {
    score: pick("score"),
    lcp: pick("lcp"),
    fcp: pick("fcp"),
    tbt: pick("tbt"),
    cls: pick("cls"),
    transfer: pick("transfer"),
    requestCount: pick("requests"),
    requests: medianRun.requests,
    runs:
      runs
        .map((run) => `score ${run.score}, LCP ${(run.lcp / 1000).toFixed(2)} s (observed ${Math.round(run.observedLcp)} ms, ${run.lcpElement}), TBT ${Math.round(run.tbt)} ms, ${kb(run.transfer)} KB`)
        .join("; ") +
      failed.map((reason) => `; a run failed (${reason}), left out`).join(""),
  };
}

/** The element Lighthouse took as the largest contentful paint, by its selector. */
function lcpElementOf(audits) {
  const tables = audits["largest-contentful-paint-element"]?.details?.items ?? [];
  const node = tables.flatMap((table) => table.items ?? []).find((item) => item.node)?.node;
  return node ? node.selector ?? node.nodeLabel : "unknown element";
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const row = (figures, documentBrotliBytes) =>
  `score ${figures.score} | LCP ${(figures.lcp / 1000).toFixed(2)} s | FCP ${(figures.fcp / 1000).toFixed(2)} s | TBT ${Math.round(figures.tbt)} ms | CLS ${figures.cls.toFixed(3)} | ` +
  `${kb(figures.transfer)} KB in ${figures.requestCount} requests | document ${kb(documentBrotliBytes)} KB brotli`;

/**
 * `/pitch/demo-project` beside the same page stripped of its scripts to static HTML (the floor, decision 13),
 * in one run, with the page's targets checked and every request of the page listed.
 */
export default async function lighthouseRun() {
  const server = await startServer();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-lh-"));
  const chrome = await chromeLauncher.launch({ chromePath: requireChromium(), chromeFlags: CHROMIUM_FLAGS, userDataDir });
  let floor;
  try {
    await fetch(`${server.url}${PAGE}`); // warm the page cache, as a live page would be
    const pageDocument = await rawGet(`${server.url}${PAGE}`, { "accept-encoding": "br" });
    floor = await startFloorServer(server.url);
    const {
      summaries: [page, floorFigures],
      lcpDifferences,
    } = await measureInTurn(chrome, [`${server.url}${PAGE}`, `${floor.url}${PAGE}`]);
    // Each run's simulated LCP lands in one of two modes about 140 ms apart, page and floor alike (it comes with the
    // web app manifest's requests: the same page without its manifest link gave 0.71–0.72 s in every run), so the two
    // medians can differ by a mode with nothing changed: the page is judged by the median of each round's
    // page-minus-floor difference.
    const lcpOverFloor = median(lcpDifferences);
    const met = (ok) => (ok ? "met" : "MISSED");
    // The demo's deck is the founder's content: its images (page 1 only, until a visitor reads on) are counted apart
    // from what the page itself costs.
    const deckBytes = page.requests.filter((request) => request.url.startsWith("/deck/")).reduce((sum, request) => sum + request.bytes, 0);
    return {
      [`pitch page (median of ${RUNS})`]: row(page, pageDocument.body.length),
      [`floor, same page without scripts (median of ${RUNS})`]: row(floorFigures, floor.documentBrotliBytes),
      [`target: LCP within ${TARGETS.lcpOverFloorMs} ms of the floor`]: `${Math.round(lcpOverFloor)} ms (median of the ${lcpDifferences.length} rounds' differences: ${lcpDifferences.map((ms) => Math.round(ms)).join(", ")}; medians apart: ${Math.round(page.lcp - floorFigures.lcp)} ms): ${met(lcpOverFloor <= TARGETS.lcpOverFloorMs)}`,
      [`target: at most ${TARGETS.transferKb} KB transferred, the deck's images apart`]: `${kb(page.transfer - deckBytes)} KB: ${met(page.transfer - deckBytes <= TARGETS.transferKb * 1024)}`,
      [`target: the deck's images on the first load at most ${TARGETS.deckKb} KB`]: `${kb(deckBytes)} KB: ${met(deckBytes <= TARGETS.deckKb * 1024)}`,
      [`target: score ${TARGETS.score}`]: `${page.score}: ${met(page.score >= TARGETS.score)}`,
      [`target: TBT at most ${TARGETS.tbtMs} ms`]: `${Math.round(page.tbt)} ms: ${met(page.tbt <= TARGETS.tbtMs)}`,
      "pitch page requests (bytes transferred, headers included)": page.requests.map((request) => `${request.url} (${request.type}) ${request.bytes}`).join("; "),
      "pitch page runs": page.runs,
      "floor runs": floorFigures.runs,
    };
  } finally {
    await floor?.close();
    chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    await server.stop();
  }
}
