import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import type { Database } from "~/db/schema";
import { DECK_SOURCE_TYPE, deckFolder, deckImageType, deckPageFile, parseDeckFile } from "~/modules/deck/deck-keys";
import { showDeck } from "~/modules/deck/finish-deck.server";
import { renderInWorker } from "~/modules/deck/render-in-worker.server";
import { uploadDeck } from "~/modules/deck/upload-deck.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";
import { DEMO_CONTENT } from "./demo-content";
import { DEMO_SLUG } from "./seed.server";

const WIDTH = 960;
const HEIGHT = 540;
const INK = rgb(0.06, 0.09, 0.16);
const MUTED = rgb(0.35, 0.4, 0.48);
const BRAND = rgb(0.31, 0.27, 0.9);
const PALE = rgb(0.93, 0.95, 1);

type DemoContent = {
  title: string;
  oneLiner: string;
  summary: string | null;
  metrics: readonly { label: string; value: string }[];
  problems: readonly string[];
  solutions: readonly string[];
  tiers: readonly { label: string; min: number; max: number | null }[];
};

const DEMO_DECK_FILE = `${DEMO_CONTENT.title} deck.pdf`;
/** What the build writes beside the demo deck's files: each page as `deck_pages` keeps it. */
type PrerenderedDeck = { pages: { number: number; width: number; height: number; text: string }[] };
const MANIFEST = "deck.json";

/**
 * The demo project's deck, drawn at build time from its content (`demo-content.ts`) by the app's own render worker:
 * its PDF, each page's images as `DeckRenderer` stores them, and `deck.json`. The build runs it into
 * `build/server/demo-deck/`, so a fresh start shows the demo's deck at once, without drawing it again.
 */
export async function prerenderDemoDeck(workerFile: URL, outDir: string): Promise<void> {
  const pdf = await drawDemoDeck(demoContent());
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "source.pdf"), pdf);
  const pages: PrerenderedDeck["pages"] = [];
  const bytes = pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer;
  await renderInWorker(
    workerFile,
    { pdf: bytes, fromPage: 1 },
    async (message) => {
      if (message.type === "page") {
        for (const image of message.images) fs.writeFileSync(path.join(outDir, deckPageFile(message.page, image.width, image.format)), Buffer.from(image.bytes));
        pages.push({ number: message.page, width: message.width, height: message.height, text: message.text });
      } else if (message.type === "refused" || message.type === "failed") throw new Error(`the demo deck could not be drawn: ${JSON.stringify(message)}`);
    },
    new AbortController().signal,
  );
  fs.writeFileSync(path.join(outDir, MANIFEST), JSON.stringify({ pages } satisfies PrerenderedDeck));
}

/**
 * Gives the demo project its deck, once: a demo project that has had a deck (any upload, even a refused one) is left
 * alone. From the build's drawing when there is one (the deck is on the page from the first request); otherwise
 * (`npm run dev`) uploaded and drawn in the background like any deck. Answers whether it gave one.
 */
export async function seedDemoDeck(db: Kysely<Database>, store: ObjectStore, prerendered: string | null): Promise<boolean> {
  const project = await db.selectFrom("projects").select(["id", "owner_id"]).where("slug", "=", DEMO_SLUG).executeTakeFirst();
  if (!project) return false;
  const earlier = await db.selectFrom("decks").select("id").where("project_id", "=", project.id).limit(1).executeTakeFirst();
  if (earlier) return false;
  const manifest = prerendered ? readManifest(prerendered) : null;
  if (!prerendered || !manifest) {
    await uploadDeck(db, store, project.owner_id, project.id, { name: DEMO_DECK_FILE, bytes: Buffer.from(await drawDemoDeck(demoContent())) });
    return true;
  }
  const deckId = crypto.randomUUID();
  for (const file of fs.readdirSync(prerendered)) {
    const parsed = parseDeckFile(file);
    if (!parsed) continue;
    const type = parsed.kind === "source" ? DECK_SOURCE_TYPE : deckImageType(parsed.format);
    await store.put(`${deckFolder(deckId)}${file}`, fs.readFileSync(path.join(prerendered, file)), type);
  }
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("decks")
      .values({
        id: deckId,
        project_id: project.id,
        status: "ready",
        file_name: DEMO_DECK_FILE,
        file_bytes: fs.statSync(path.join(prerendered, "source.pdf")).size,
        page_count: manifest.pages.length,
        pages_done: manifest.pages.length,
        uploaded_by: project.owner_id,
        created_at: now,
        finished_at: now,
      })
      .execute();
    await trx
      .insertInto("deck_pages")
      .values(manifest.pages.map((page) => ({ deck_id: deckId, page_number: page.number, width: page.width, height: page.height, text: page.text })))
      .execute();
    // The demo has had no deck before (checked above): none is replaced.
    await showDeck(trx, project.id, deckId);
  });
  return true;
}

function readManifest(folder: string): PrerenderedDeck | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(folder, MANIFEST), "utf8")) as PrerenderedDeck;
  } catch {
    return null;
  }
}

function demoContent(): DemoContent {
  return {
    title: DEMO_CONTENT.title,
    oneLiner: DEMO_CONTENT.oneLiner,
    summary: DEMO_CONTENT.summary,
    metrics: DEMO_CONTENT.metrics,
    problems: DEMO_CONTENT.problems,
    solutions: DEMO_CONTENT.solutions,
    tiers: DEMO_CONTENT.tiers.map((tier) => ({ label: tier.range_label, min: tier.range_min, max: tier.range_max })),
  };
}

async function drawDemoDeck(content: DemoContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${content.title}: pitch deck`);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const slide = (heading: string | null) => {
    const page = pdf.addPage([WIDTH, HEIGHT]);
    page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: HEIGHT, color: rgb(1, 1, 1) });
    page.drawRectangle({ x: 0, y: HEIGHT - 8, width: WIDTH, height: 8, color: BRAND });
    if (heading) page.drawText(heading, { x: 56, y: HEIGHT - 96, size: 44, font: bold, color: INK });
    return page;
  };

  const cover = pdf.addPage([WIDTH, HEIGHT]);
  cover.drawRectangle({ x: 0, y: 0, width: WIDTH, height: HEIGHT, color: BRAND });
  cover.drawText(content.title, { x: 56, y: 300, size: 64, font: bold, color: rgb(1, 1, 1) });
  paragraph(cover, content.oneLiner, { x: 56, y: 240, width: 760, size: 26, font: regular, color: rgb(0.9, 0.92, 1) });
  cover.drawText("Seed round", { x: 56, y: 60, size: 20, font: bold, color: rgb(1, 1, 1) });

  bullets(slide("The problem"), content.problems, regular);
  bullets(slide("Our solution"), content.solutions, regular);

  const traction = slide("Traction");
  content.metrics.slice(0, 4).forEach((metric, index) => {
    const x = 56 + index * 218;
    traction.drawRectangle({ x, y: 190, width: 198, height: 180, color: PALE });
    traction.drawText(metric.value, { x: x + 20, y: 290, size: 48, font: bold, color: BRAND });
    paragraph(traction, metric.label, { x: x + 20, y: 250, width: 160, size: 20, font: regular, color: INK });
  });
  if (content.summary) paragraph(traction, content.summary, { x: 56, y: 140, width: 848, size: 16, font: regular, color: MUTED });

  const round = slide("The round");
  content.tiers.slice(0, 4).forEach((tier, index) => {
    const y = 360 - index * 64;
    round.drawText(tier.label, { x: 56, y, size: 28, font: bold, color: INK });
    round.drawText(tierRange(tier), { x: 360, y, size: 28, font: regular, color: MUTED });
  });

  const next = slide("Talk to us");
  paragraph(next, "Request an intro or signal your interest on this page: the founders answer within a day.", {
    x: 56,
    y: 360,
    width: 848,
    size: 28,
    font: regular,
    color: INK,
  });
  // The footer last, so each page's text (its images' alternative text) starts with its heading.
  for (const page of pdf.getPages().slice(1)) page.drawText(content.title, { x: 56, y: 28, size: 14, font: regular, color: MUTED });
  return pdf.save();
}

const dollars = (amount: number) => (amount >= 1_000_000 ? `$${amount / 1_000_000}M` : `$${Math.round(amount / 1_000)}k`);
const tierRange = (tier: { min: number; max: number | null }) => (tier.max === null ? `${dollars(tier.min)} and more` : `${dollars(tier.min)} to ${dollars(tier.max)}`);

function bullets(page: PDFPage, points: readonly string[], font: PDFFont) {
  let y = 380;
  for (const point of points.slice(0, 4)) {
    page.drawCircle({ x: 66, y: y + 9, size: 6, color: BRAND });
    y = paragraph(page, point, { x: 88, y, width: 800, size: 28, font, color: INK }) - 28;
  }
}

/** Draws text wrapped to `width`, from `y` down; answers the last line's y. */
function paragraph(page: PDFPage, text: string, at: { x: number; y: number; width: number; size: number; font: PDFFont; color: ReturnType<typeof rgb> }): number {
  const lines: string[] = [];
  let line = "";
  for (const word of text.replace(/[^\x20-\x7e°–]/g, "").split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && at.font.widthOfTextAtSize(candidate, at.size) > at.width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  let y = at.y;
  lines.forEach((text, index) => {
    y = at.y - index * at.size * 1.3;
    page.drawText(text, { x: at.x, y, size: at.size, font: at.font, color: at.color });
  });
  return y;
}
