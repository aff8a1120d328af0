import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DeckRenderer } from "~/modules/deck/deck-renderer.server";
import { DECK_MAX_BYTES } from "~/modules/deck/deck-rules";
import { setDeckDownload } from "~/modules/deck/deck-download.server";
import { openDeckFile } from "~/modules/deck/deck-files.server";
import { loadDeckSection } from "~/modules/deck/deck-section.server";
import { readPitchDeck } from "~/modules/deck/pitch-deck.server";
import { removeDeck } from "~/modules/deck/remove-deck.server";
import { uploadDeck } from "~/modules/deck/upload-deck.server";
import { createLogger } from "~/modules/logging/logger.server";
import { loadPitchPage } from "~/modules/pitch/pitch-page.server";
import { assertStorageKey } from "~/modules/storage/object-store.server";
import { describeEachDialect } from "../support/databases";
import { makeDeckPdf, makeEncryptedPdf } from "../support/deck-pdfs";
import { buildDeckWorker } from "../support/deck-worker";
import { createProject, createUser } from "../support/fixtures";
import { describeEachStore } from "../support/object-stores";

let worker: Awaited<ReturnType<typeof buildDeckWorker>>;
beforeAll(async () => {
  worker = await buildDeckWorker();
});
afterAll(() => worker?.remove());

const anonymous = async () => null;

describeEachDialect("a deck from upload to the phone", (getDb) => {
  describeEachStore("stored", (store) => {
    const render = () => new DeckRenderer(getDb().db, store(), worker.file, createLogger("silent")).runOnce();
    const project = async (status: "published" | "draft" = "published") => {
      const made = await createProject(getDb().db, { status });
      return made;
    };

    it("is drawn, stored and served to anyone with immutable caching and a validator, page by page", async () => {
      const { db } = getDb();
      const { id, ownerId, slug } = await project();
      const titles = ["Harbor Cold Chain", "The problem", "Traction"];
      await uploadDeck(db, store(), ownerId, id, { name: "Harbor.pdf", bytes: Buffer.from(await makeDeckPdf(3, { title: (n) => titles[n - 1]! })) });
      const rendering = await loadDeckSection(db, ownerId, id);
      expect(rendering.pending).toMatchObject({ fileName: "Harbor.pdf", pagesDone: 0, pageCount: null });
      expect(rendering.live).toBeNull();
      await render();

      const section = await loadDeckSection(db, ownerId, id);
      expect(section.pending).toBeNull();
      expect(section.live).toMatchObject({ fileName: "Harbor.pdf", pageCount: 3, download: false });
      const page = await loadPitchPage(db, slug, null);
      const deck = page!.project.deck!;
      expect(deck.download).toBeNull();
      expect(deck.pages.map((shown) => [shown.number, shown.width, shown.height, shown.text])).toEqual(titles.map((title, index) => [index + 1, 1600, 900, title]));
      expect(deck.pages[1]!.srcset).toBe(
        [640, 1080, 1600].map((width) => `/deck/${deck.id}/page-2-${width}.webp ${width}w`).join(", "),
      );
      expect(deck.pages[1]!.fallback).toBe(`/deck/${deck.id}/page-2-1080.jpg`);

      const file = await openDeckFile(db, store(), anonymous, deck.id, "page-2-1080.webp");
      expect(file.cacheControl).toBe("public, max-age=31536000, immutable");
      expect(file.object.contentType).toBe("image/webp");
      expect(file.etag).toMatch(/^".+"$/);
      const bytes = await buffer(file.object.body);
      expect(bytes.length).toBe(file.object.size);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 1080, height: 608 });
      const fallback = await openDeckFile(db, store(), anonymous, deck.id, "page-3-1080.jpg");
      expect(fallback.object.contentType).toBe("image/jpeg");
      fallback.object.body.destroy();
    });

    it("serves a draft's deck to its team only, and the PDF only when the founder allows it", async () => {
      const { db } = getDb();
      const draft = await project("draft");
      const { deckId } = await uploadDeck(db, store(), draft.ownerId, draft.id, { name: "draft.pdf", bytes: Buffer.from(await makeDeckPdf(1)) });
      await render();
      await expect(openDeckFile(db, store(), anonymous, deckId, "page-1-640.webp")).rejects.toMatchObject({ code: "not_found" });
      const stranger = await createUser(db);
      await expect(openDeckFile(db, store(), async () => stranger, deckId, "page-1-640.webp")).rejects.toMatchObject({ code: "not_found" });
      const own = await openDeckFile(db, store(), async () => draft.ownerId, deckId, "page-1-640.webp");
      expect(own.cacheControl).toBe("private, no-store");
      own.object.body.destroy();

      await expect(openDeckFile(db, store(), async () => draft.ownerId, deckId, "source.pdf")).rejects.toMatchObject({ code: "not_found" });
      await setDeckDownload(db, draft.ownerId, draft.id, true);
      const pdf = await openDeckFile(db, store(), async () => draft.ownerId, deckId, "source.pdf");
      expect(pdf).toMatchObject({ downloadName: "draft.pdf", cacheControl: "private, no-store" });
      expect((await buffer(pdf.object.body)).subarray(0, 5).toString()).toBe("%PDF-");
      expect((await loadDeckSection(db, draft.ownerId, draft.id)).live?.download).toBe(true);
    });

    it("answers 404 for any name that is not one of a deck's files, a key that climbs out, or another deck", async () => {
      const { db } = getDb();
      const { id, ownerId } = await project();
      const { deckId } = await uploadDeck(db, store(), ownerId, id, { name: "d.pdf", bytes: Buffer.from(await makeDeckPdf(1)) });
      await render();
      for (const [deck, file] of [
        [deckId, "page-1-999.webp"],
        [deckId, "page-2-1080.webp"],
        [deckId, "page-1-1600.jpg"],
        [deckId, "../source.pdf"],
        [deckId, "page-1-1080.webp/.."],
        [deckId, "source.pdf"],
        ["..", "page-1-1080.webp"],
        [deckId.toUpperCase(), "page-1-1080.webp"],
        [crypto.randomUUID(), "page-1-1080.webp"],
      ] as const) {
        await expect(openDeckFile(db, store(), anonymous, deck, file), `${deck}/${file}`).rejects.toMatchObject({ code: "not_found" });
      }
      expect(() => assertStorageKey("decks/../secrets")).toThrow("Invalid storage key");
    });

    it("keeps the live deck when a new upload is refused, and removing takes it off the page", async () => {
      const { db } = getDb();
      const { id, ownerId, slug } = await project();
      const first = await uploadDeck(db, store(), ownerId, id, { name: "v1.pdf", bytes: Buffer.from(await makeDeckPdf(2)) });
      await render();
      await uploadDeck(db, store(), ownerId, id, { name: "locked.pdf", bytes: Buffer.from(await makeEncryptedPdf()) });
      await render();
      const section = await loadDeckSection(db, ownerId, id);
      expect(section.live?.id).toBe(first.deckId);
      expect(section.refused).toMatchObject({ fileName: "locked.pdf", message: "This PDF is protected with a password. Export it again without one and upload that." });
      expect((await loadPitchPage(db, slug, null))!.project.deck?.id).toBe(first.deckId);

      await removeDeck(db, store(), ownerId, id);
      expect((await loadPitchPage(db, slug, null))!.project.deck).toBeNull();
      expect(await store().list(`decks/${first.deckId}/`)).toEqual([]);
      await expect(openDeckFile(db, store(), anonymous, first.deckId, "page-1-1080.webp")).rejects.toMatchObject({ code: "not_found" });
      await expect(removeDeck(db, store(), ownerId, id)).rejects.toMatchObject({ code: "not_found", message: "This project has no uploaded deck." });
      expect(await readPitchDeck(db, { deck_id: null, deck_download: false })).toBeNull();
    });

    it("refuses a file over 50 MB at once, storing nothing; of two uploads at once the last is the one drawn", async () => {
      const { db } = getDb();
      const { id, ownerId } = await project();
      const huge = Buffer.alloc(DECK_MAX_BYTES + 1, 0x20);
      huge.write("%PDF-1.7\n");
      await expect(uploadDeck(db, store(), ownerId, id, { name: "huge.pdf", bytes: huge })).rejects.toMatchObject({
        code: "invalid_input",
        fieldErrors: { deck: "This PDF is over 50 MB. Export it with smaller images and upload it again." },
      });
      expect(await db.selectFrom("decks").select("id").where("project_id", "=", id).execute()).toEqual([]);
      expect(await store().list("decks/")).not.toContainEqual(expect.stringContaining("huge"));

      const [first, second] = await Promise.all([
        uploadDeck(db, store(), ownerId, id, { name: "mine.pdf", bytes: Buffer.from(await makeDeckPdf(1)) }),
        uploadDeck(db, store(), ownerId, id, { name: "theirs.pdf", bytes: Buffer.from(await makeDeckPdf(2)) }),
      ]);
      await render();
      const decks = await db.selectFrom("decks").select(["id", "status"]).where("project_id", "=", id).execute();
      expect(decks.filter((deck) => deck.status === "ready")).toHaveLength(1);
      const shown = (await loadDeckSection(db, ownerId, id)).live!;
      expect([first.deckId, second.deckId]).toContain(shown.id);
      expect(decks.find((deck) => deck.id !== shown.id)?.status).toBe("replaced");
      expect(await store().list(`decks/${[first.deckId, second.deckId].find((deckId) => deckId !== shown.id)}/`)).toEqual([]);
    });

    it("is drawn once when two instances' renderers pass at the same time", async () => {
      const { db } = getDb();
      const { id, ownerId } = await project();
      const { deckId } = await uploadDeck(db, store(), ownerId, id, { name: "d.pdf", bytes: Buffer.from(await makeDeckPdf(3)) });
      const renderers = [0, 1].map(() => new DeckRenderer(db, store(), worker.file, createLogger("silent")));
      const finished = await Promise.all(renderers.map((renderer) => renderer.runOnce()));
      expect(finished.reduce((sum, count) => sum + count, 0)).toBe(1);
      expect(await db.selectFrom("decks").select(["status", "attempts", "pages_done"]).where("id", "=", deckId).executeTakeFirstOrThrow()).toEqual({
        status: "ready",
        attempts: 1,
        pages_done: 3,
      });
      const pages = await db.selectFrom("deck_pages").select("page_number").where("deck_id", "=", deckId).orderBy("page_number").execute();
      expect(pages.map((page) => page.page_number)).toEqual([1, 2, 3]);
    });
  });
});
