// `npm run bench deck`: a 15-page 16:9 deck with one full-bleed photo page, as a founder exports one.
// 1. Drawn by the app's own render worker (build/server/deck-render-worker.js, one thread: pdf.js and sharp on one
//    core), timed per page and for the deck; beside it, the aims (1 s a page, 20 s a deck).
// 2. Uploaded through the Deck section's form to the app started as `npm start` does, its event loop's delay
//    measured inside its process (bench/event-loop-probe.js) while the deck is drawn, beside the same process idle.
// 3. Read by a 412 px phone at 2.6x in Chromium: the bytes it loads for page 1 and for pages 1 to 3, beside the
//    PDF's own size (what the phone downloads when the deck is only a link) and the aims (150 KB, 400 KB).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { chromium } from "playwright-core";
import sharp from "sharp";
import { CHROMIUM_FLAGS, requireChromium } from "../tests/support/chromium.js";
import { founderCookie, founderPost, readProbe, ROOT, startServer } from "./support.js";

const PAGES = 15;
const PHOTO_PAGE = 7;
const log = (message) => console.log(`  [deck] ${message}`);
const ms = (value) => `${Math.round(value)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Title slides with a coloured band, a chart and bullets; page 7 a full-bleed photograph (grainy, as phone photos are). */
async function makeDeck() {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const photo = await pdf.embedJpg(
    await sharp({ create: { width: 2400, height: 1350, channels: 3, background: "#6a8caf", noise: { type: "gaussian", mean: 120, sigma: 40 } } })
      .blur(1.2)
      .jpeg({ quality: 85 })
      .toBuffer(),
  );
  for (let n = 1; n <= PAGES; n += 1) {
    const page = pdf.addPage([960, 540]);
    if (n === PHOTO_PAGE) {
      page.drawImage(photo, { x: 0, y: 0, width: 960, height: 540 });
      page.drawText("Field pilot, Kisumu", { x: 48, y: 48, size: 40, font: bold, color: rgb(1, 1, 1) });
      continue;
    }
    page.drawRectangle({ x: 0, y: 470, width: 960, height: 70, color: rgb(0.31, 0.27, 0.9) });
    page.drawText(`Slide ${n}: market, traction and team`, { x: 48, y: 490, size: 30, font: bold, color: rgb(1, 1, 1) });
    for (let line = 0; line < 5; line += 1) {
      page.drawText(`Point ${line + 1}: clinics lose a quarter of their vaccines to broken cold chains`, { x: 48, y: 400 - line * 44, size: 20, font: regular, color: rgb(0.1, 0.1, 0.15) });
    }
    for (let bar = 0; bar < 6; bar += 1) page.drawRectangle({ x: 620 + bar * 50, y: 80, width: 32, height: 40 + bar * 30, color: rgb(0.2, 0.6, 0.4) });
  }
  return Buffer.from(await pdf.save());
}

/** The app's render worker on the deck: ms from the start to the PDF being open, then for each page. */
function renderInWorker(pdfBytes) {
  const worker = new Worker(path.join(ROOT, "build/server/deck-render-worker.js"));
  const started = performance.now();
  let last = started;
  const times = { openMs: 0, pageMs: [], totalMs: 0, pageBytes: 0 };
  return new Promise((resolve, reject) => {
    worker.on("message", (message) => {
      const now = performance.now();
      if (message.type === "opened") times.openMs = now - last;
      else if (message.type === "page") {
        times.pageMs.push(now - last);
        times.pageBytes += message.images.reduce((sum, image) => sum + image.bytes.byteLength, 0);
      } else if (message.type === "done") {
        times.totalMs = now - started;
        void worker.terminate().then(() => resolve(times));
      } else reject(new Error(`render: ${JSON.stringify(message)}`));
      last = now;
    });
    worker.once("error", reject);
    const copy = pdfBytes.buffer.slice(pdfBytes.byteOffset, pdfBytes.byteOffset + pdfBytes.byteLength);
    worker.postMessage({ pdf: copy, fromPage: 1 }, [copy]);
  });
}

async function waitFor(check, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a 412 px phone at 2.6x loads of the deck: page 1 as the section comes into view, then pages 1-3 read by Next. */
async function phoneBytes(url, slug) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-bench-chrome-"));
  const browser = await chromium.launch({ executablePath: requireChromium(), headless: true, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.6, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const loaded = new Map();
    const pdfRequests = [];
    page.on("response", async (response) => {
      const address = new URL(response.url()).pathname;
      if (address.endsWith(".pdf")) pdfRequests.push(address);
      const match = /^\/deck\/[^/]+\/page-(\d+)-(\d+)\.(webp|jpg)$/.exec(address);
      if (match && response.status() === 200) loaded.set(address, { page: Number(match[1]), width: Number(match[2]), bytes: (await response.body()).length });
    });
    await page.goto(`${url}/pitch/${slug}`);
    await page.locator("#deck-title").scrollIntoViewIfNeeded();
    const image = (n) => page.locator(`[data-deck-page="${n}"] img`);
    await image(1).evaluate((img) => (img.complete ? null : new Promise((resolve) => img.addEventListener("load", resolve, { once: true }))));
    const bytesOf = (pages) => [...loaded.values()].filter((entry) => pages.includes(entry.page)).reduce((sum, entry) => sum + entry.bytes, 0);
    const firstPage = bytesOf([1]);
    const chosenWidth = [...loaded.values()].find((entry) => entry.page === 1)?.width;
    for (let n = 2; n <= 3; n += 1) {
      await page.getByRole("button", { name: "Next page" }).click();
      await image(n).evaluate((img) => (img.complete && img.naturalWidth ? null : new Promise((resolve) => img.addEventListener("load", resolve, { once: true }))));
    }
    await page.waitForLoadState("networkidle");
    return { firstPage, firstThree: bytesOf([1, 2, 3]), everything: bytesOf(Array.from({ length: PAGES }, (_, i) => i + 1)), chosenWidth, pdfRequests };
  } finally {
    await browser.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

export default async function run() {
  const figures = {};
  const pdf = await makeDeck();
  figures["deck"] = `${PAGES} pages of 960 x 540 pt (page ${PHOTO_PAGE} a full-bleed photo), PDF ${kb(pdf.length)}`;

  log("drawing the deck in the render worker…");
  const times = await renderInWorker(pdf);
  const textPages = times.pageMs.filter((_, index) => index + 1 !== PHOTO_PAGE);
  figures["render: open the PDF"] = ms(times.openMs);
  figures["render: a text page (median)"] = `${ms(textPages.sort((a, b) => a - b)[Math.floor(textPages.length / 2)])} (aim ≤ 1000 ms)`;
  figures["render: the photo page"] = `${ms(times.pageMs[PHOTO_PAGE - 1])} (aim ≤ 1000 ms)`;
  figures["render: slowest page"] = `${ms(Math.max(...times.pageMs))} (aim ≤ 1000 ms)`;
  figures["render: the whole deck"] = `${ms(times.totalMs)} (aim ≤ 20000 ms)`;
  figures["render: images stored"] = `${kb(times.pageBytes)} for ${PAGES} pages x 4 images`;

  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-bench-probe-")), "loop.json");
  const probe = `--import=${path.join(ROOT, "bench", "event-loop-probe.js")}`;
  const server = await startServer({ NODE_OPTIONS: [process.env.NODE_OPTIONS, probe].filter(Boolean).join(" "), EVENT_LOOP_PROBE_FILE: probeFile });
  const db = new SQLite(path.join(server.dataDir, "app.sqlite"), { readonly: true });
  try {
    // The demo's own deck is drawn at start-up: the idle reading begins once it is done.
    await waitFor(() => db.prepare("select count(*) as n from decks where status = 'rendering'").get().n === 0, "the demo deck");
    const cookie = await founderCookie(server.url, "bench-deck");
    const slug = `bench-deck-${Date.now()}`;
    const created = await founderPost(server.url, cookie, "/project/create", {
      title: "Bench Deck",
      slug,
      oneLiner: "A deck to read on a phone",
      status: "published",
      metrics: "[]",
      problemPoints: "[]",
      solutionPoints: "[]",
    });
    const projectId = new URL(created.headers.get("location"), server.url).pathname.split("/")[2];

    await readProbe(server, probeFile);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const idle = await readProbe(server, probeFile);

    const form = new FormData();
    form.set("intent", "upload");
    form.set("deck", new Blob([pdf], { type: "application/pdf" }), "bench-deck.pdf");
    const uploadStarted = performance.now();
    const upload = await fetch(`${server.url}/project/${projectId}/deck`, { method: "POST", headers: { origin: server.url, cookie }, body: form });
    await upload.text();
    if (!upload.ok) throw new Error(`upload answered ${upload.status}`);
    const uploadMs = performance.now() - uploadStarted;
    await waitFor(() => db.prepare("select status from decks where project_id = ?").get(projectId)?.status === "ready", "the bench deck", 180_000);
    const readyMs = performance.now() - uploadStarted;
    const during = await readProbe(server, probeFile);
    figures["app: upload answered"] = ms(uploadMs);
    figures["app: upload to the deck on the page"] = `${ms(readyMs)} (aim ≤ 20000 ms)`;
    figures["app: event loop p99, idle (reference)"] = `${idle.p99Ms} ms (max ${idle.maxMs} ms)`;
    figures["app: event loop p99 while the deck is drawn"] = `${during.p99Ms} ms (max ${during.maxMs} ms; aim ≤ idle + 20 ms)`;

    log("reading the deck on a 412 px phone at 2.6x…");
    const phone = await phoneBytes(server.url, slug);
    figures["phone: image width taken"] = `${phone.chosenWidth} px`;
    figures["phone: page 1"] = `${kb(phone.firstPage)} (aim ≤ 150 KB)`;
    figures["phone: pages 1 to 3"] = `${kb(phone.firstThree)} (aim ≤ 400 KB)`;
    figures["phone: every deck image loaded by then"] = kb(phone.everything);
    figures["phone: the PDF as a link (reference)"] = kb(pdf.length);
    figures["phone: PDF requests"] = String(phone.pdfRequests.length);
  } finally {
    db.close();
    await server.stop();
  }
  return figures;
}
