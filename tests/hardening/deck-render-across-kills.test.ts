import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deckPageKey } from "~/modules/deck/deck-keys";
import { DECK_FALLBACK_WIDTH, DECK_PAGE_WIDTHS } from "~/modules/deck/deck-rules";
import { uploadDeck } from "~/modules/deck/upload-deck.server";
import { createDiskStore } from "~/modules/storage/disk-store.server";
import { startAppServer, type AppServer } from "../support/app-server";
import { showServerLogsOnFailure } from "../support/clients";
import { makeDeckPdf } from "../support/deck-pdfs";
import { createProject } from "../support/fixtures";
import { openTestDb } from "../support/test-db";

const PAGES = 20;

describe("a deck being drawn when the app is killed", () => {
  let server: AppServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });
  showServerLogsOnFailure(() => [server]);

  it("is taken up from the first page not yet stored after the restart, each page drawn and stored once", async () => {
    server = await startAppServer();
    const { dataDir, port } = server;
    const db = openTestDb({ dataDir }, { writable: true });
    const store = createDiskStore(path.join(dataDir, "files"));
    const project = await createProject(db);
    const { deckId } = await uploadDeck(db, store, project.ownerId, project.id, { name: "long.pdf", bytes: Buffer.from(await makeDeckPdf(PAGES)) });
    const progress = () => db.selectFrom("decks").select(["status", "pages_done", "attempts"]).where("id", "=", deckId).executeTakeFirstOrThrow();

    await expect.poll(async () => (await progress()).pages_done, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(2);
    expect(await server.stop("SIGKILL")).toBeNull();
    const killed = await progress();
    expect(killed.status).toBe("rendering");
    expect(killed.pages_done).toBeLessThan(PAGES);

    server = await startAppServer({ dataDir, port });
    await expect.poll(async () => (await progress()).status, { timeout: 60_000, interval: 200 }).toBe("ready");
    expect(await progress()).toEqual({ status: "ready", pages_done: PAGES, attempts: 2 });
    const pages = await db.selectFrom("deck_pages").select("page_number").where("deck_id", "=", deckId).orderBy("page_number").execute();
    expect(pages.map((page) => page.page_number)).toEqual(Array.from({ length: PAGES }, (_, index) => index + 1));
    for (let page = 1; page <= PAGES; page += 1) {
      for (const width of DECK_PAGE_WIDTHS) expect(fs.existsSync(path.join(dataDir, "files", deckPageKey(deckId, page, width, "webp"))), `page ${page} at ${width}`).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "files", deckPageKey(deckId, page, DECK_FALLBACK_WIDTH, "jpg")))).toBe(true);
    }
    const shown = await db.selectFrom("projects").select("deck_id").where("id", "=", project.id).executeTakeFirstOrThrow();
    expect(shown.deck_id).toBe(deckId);
    await db.destroy();
  });
});
