import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { Page } from "playwright-core";
import { DECK_PAGE_WIDTHS } from "~/modules/deck/deck-rules";
import { deckPageKey } from "~/modules/deck/deck-keys";
import type { TestAppServer } from "./with-app-server";
import { createShownDeck } from "./deck-reading";
import { withWritableDb } from "./test-db";

/**
 * A deck of `pages` plain pages shown on the project's page of a running app, its images written to the app's own
 * file storage as the renderer leaves them (a grey page with its number), without drawing a PDF.
 */
export async function showPlainDeck(app: TestAppServer, project: { id: string; ownerId: string }, pages: number): Promise<string> {
  const deckId = await withWritableDb(app, (db) => createShownDeck(db, project, pages));
  for (let page = 1; page <= pages; page++) {
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="1600" height="900" fill="#e2e8f0"/><text x="800" y="500" font-size="200" text-anchor="middle">${page}</text></svg>`);
    const image = sharp(svg);
    for (const width of DECK_PAGE_WIDTHS) await write(app, deckPageKey(deckId, page, width, "webp"), await image.clone().resize(width).webp().toBuffer());
    await write(app, deckPageKey(deckId, page, 1080, "jpg"), await image.clone().resize(1080).jpeg().toBuffer());
  }
  return deckId;
}

async function write(app: TestAppServer, key: string, bytes: Buffer) {
  const file = path.join(app.dataDir, "files", key);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await fs.promises.writeFile(file, bytes);
}

/** The tab hidden or shown, as a phone switching apps does (headless Chromium keeps every tab visible). */
export function setTabVisible(page: Page, visible: boolean): Promise<void> {
  return page.evaluate((shown) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (shown ? "visible" : "hidden") });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => !shown });
    document.dispatchEvent(new Event("visibilitychange"));
  }, visible);
}
