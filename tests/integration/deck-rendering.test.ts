import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DECK_LEASE_MS, DeckRenderer } from "~/modules/deck/deck-renderer.server";
import { deckPageKey, deckSourceKey } from "~/modules/deck/deck-keys";
import { uploadDeck } from "~/modules/deck/upload-deck.server";
import { createLogger } from "~/modules/logging/logger.server";
import { createDiskStore } from "~/modules/storage/disk-store.server";
import { describeEachDialect } from "../support/databases";
import { makeDeckPdf, makeEncryptedPdf } from "../support/deck-pdfs";
import { buildDeckWorker } from "../support/deck-worker";
import { createProject, createUser } from "../support/fixtures";

let worker: Awaited<ReturnType<typeof buildDeckWorker>>;
let filesDir: string;
beforeAll(async () => {
  worker = await buildDeckWorker();
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-deck-files-"));
});
afterAll(() => {
  worker?.remove();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describeEachDialect("rendering an uploaded deck", (getDb) => {
  const store = () => createDiskStore(filesDir);
  const renderer = (options: ConstructorParameters<typeof DeckRenderer>[4] = {}) =>
    new DeckRenderer(getDb().db, store(), worker.file, createLogger("silent"), options);
  const deckOf = (id: string) => getDb().db.selectFrom("decks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const shownDeck = async (projectId: string) =>
    (await getDb().db.selectFrom("projects").select(["deck_id", "content_version"]).where("id", "=", projectId).executeTakeFirstOrThrow());

  it("draws every page in the background and only then shows the deck on the pitch page", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { deckId } = await uploadDeck(db, store(), project.ownerId, project.id, { name: "Seed deck.pdf", bytes: Buffer.from(await makeDeckPdf(3)) });
    expect(await deckOf(deckId)).toMatchObject({ status: "rendering", pages_done: 0, page_count: null, file_name: "Seed deck.pdf" });
    const before = await shownDeck(project.id);
    expect(before.deck_id).toBeNull();

    const published: string[] = [];
    expect(await renderer({ onPublished: async (id) => void published.push(id) }).runOnce()).toBe(1);

    expect(await deckOf(deckId)).toMatchObject({ status: "ready", pages_done: 3, page_count: 3, claimed_by: null });
    const pages = await db.selectFrom("deck_pages").select(["page_number", "width", "height", "text"]).where("deck_id", "=", deckId).orderBy("page_number").execute();
    expect(pages).toEqual([1, 2, 3].map((page_number) => ({ page_number, width: 1600, height: 900, text: `Slide ${page_number}` })));
    for (const width of [640, 1080, 1600] as const) expect((await store().get(deckPageKey(deckId, 3, width, "webp")))?.contentType).toBe("image/webp");
    expect((await store().get(deckPageKey(deckId, 3, 1080, "jpg")))?.contentType).toBe("image/jpeg");
    const after = await shownDeck(project.id);
    expect(after.deck_id).toBe(deckId);
    expect(after.content_version).toBe(before.content_version + 1);
    expect(published).toEqual([project.id]);
  });

  it("keeps the deck shown while a new one is drawn, then replaces it and deletes the old one's files", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const first = await uploadDeck(db, store(), project.ownerId, project.id, { name: "v1.pdf", bytes: Buffer.from(await makeDeckPdf(1)) });
    await renderer().runOnce();
    const second = await uploadDeck(db, store(), project.ownerId, project.id, { name: "v2.pdf", bytes: Buffer.from(await makeDeckPdf(2)) });
    expect((await shownDeck(project.id)).deck_id).toBe(first.deckId);
    await renderer().runOnce();
    expect((await shownDeck(project.id)).deck_id).toBe(second.deckId);
    expect((await deckOf(first.deckId)).status).toBe("replaced");
    expect(await store().get(deckPageKey(first.deckId, 1, 1080, "webp"))).toBeNull();
    expect(await store().get(deckSourceKey(first.deckId))).toBeNull();
  });

  it("refuses a password-protected PDF with its reason and changes nothing on the page", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { deckId } = await uploadDeck(db, store(), project.ownerId, project.id, { name: "locked.pdf", bytes: Buffer.from(await makeEncryptedPdf()) });
    await renderer().runOnce();
    expect(await deckOf(deckId)).toMatchObject({
      status: "refused",
      refusal_reason: "encrypted",
      refusal_message: "This PDF is protected with a password. Export it again without one and upload that.",
    });
    expect((await shownDeck(project.id)).deck_id).toBeNull();
    expect(await store().list(`decks/${deckId}/`)).toEqual([]);
  });

  it("refuses what is not a PDF at once, storing nothing", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const upload = uploadDeck(db, store(), project.ownerId, project.id, { name: "deck.pdf", bytes: Buffer.from("PK\u0003\u0004 a zip, renamed") });
    await expect(upload).rejects.toMatchObject({ code: "invalid_input", fieldErrors: { deck: "This file is not a PDF. Export your deck as a PDF and upload that." } });
    expect(await db.selectFrom("decks").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
  });

  it("lets only the project's editors upload", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const stranger = await createUser(db);
    await expect(uploadDeck(db, store(), stranger, project.id, { name: "x.pdf", bytes: Buffer.from(await makeDeckPdf(1)) })).rejects.toMatchObject({ code: "not_found" });
  });

  it("takes up a render whose instance stopped, from the first page not yet stored", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { deckId } = await uploadDeck(db, store(), project.ownerId, project.id, { name: "deck.pdf", bytes: Buffer.from(await makeDeckPdf(3)) });
    // An instance that drew page 1 and then died: its claim runs until a minute from then.
    await db.insertInto("deck_pages").values({ deck_id: deckId, page_number: 1, width: 1600, height: 900 }).execute();
    await db.updateTable("decks").set({ pages_done: 1, page_count: 3, claimed_by: "gone", claimed_until: new Date(Date.now() + DECK_LEASE_MS).toISOString(), attempts: 1 }).where("id", "=", deckId).execute();
    expect(await renderer().runOnce()).toBe(0);
    const later = new Date(Date.now() + DECK_LEASE_MS + 1_000);
    expect(await renderer({ clock: () => later }).runOnce()).toBe(1);
    expect(await deckOf(deckId)).toMatchObject({ status: "ready", pages_done: 3, attempts: 2 });
    expect(await store().get(deckPageKey(deckId, 1, 1080, "webp"))).toBeNull();
    expect(await store().get(deckPageKey(deckId, 2, 1080, "webp"))).not.toBeNull();
  });
});
