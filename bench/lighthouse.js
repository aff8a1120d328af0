import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium.js";
import { median, startServer } from "./support.js";


/** Lighthouse 12's default (mobile) preset: Slow 4G and 4x CPU throttling, simulated. Median of 3 runs. */
export default async function lighthouseRun() {
  const server = await startServer();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-lh-"));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, userDataDir });
  try {
    const url = `${server.url}/pitch/demo-project`;
    await fetch(url); // warm the page cache, as a live page would be
    const runs = [];
    for (let i = 0; i < 3; i += 1) {
      const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
      const { audits, categories } = result.lhr;
      runs.push({
        lcp: audits["largest-contentful-paint"].numericValue,
        fcp: audits["first-contentful-paint"].numericValue,
        tbt: audits["total-blocking-time"].numericValue,
        cls: audits["cumulative-layout-shift"].numericValue,
        score: Math.round(categories.performance.score * 100),
      });
    }
    const pick = (key) => median(runs.map((run) => run[key]));
    return {
      "pitch page LCP, mobile preset (median of 3, s)": (pick("lcp") / 1000).toFixed(2),
      "pitch page performance score (median of 3)": pick("score"),
      "FCP / TBT / CLS (median)": `${(pick("fcp") / 1000).toFixed(2)} s / ${Math.round(pick("tbt"))} ms / ${pick("cls").toFixed(3)}`,
      runs: runs.map((run) => `LCP ${(run.lcp / 1000).toFixed(2)} s, score ${run.score}`).join("; "),
    };
  } finally {
    chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    await server.stop();
  }
}
