import { expect, it } from "vitest";
import { deckSourceOf, loadDeckReaders } from "~/modules/deck-reading/deck-readers.server";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { describeEachDialect } from "../support/databases";
import { beatsOf, createShownDeck, sender } from "../support/deck-reading";
import { createProject, createUser } from "../support/fixtures";

describeEachDialect("the Deck section's readers per page", (getDb) => {
  const setup = async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const deck = await createShownDeck(db, project, 4);
    const suffix = crypto.randomUUID().slice(0, 8);
    const codes = { booth: `booth${suffix}`, badge: `badge${suffix}` };
    await db
      .insertInto("qr_codes")
      .values([
        { id: codes.booth, project_id: project.id, label: "Booth", event_tag: "Demo Day" },
        { id: codes.badge, project_id: project.id, label: "Badge", event_tag: null },
      ])
      .execute();
    const read = async (viewer: string | null, dwells: [number, number][], qr: string | null = null, audience: "reader" | "team" | "bot" = "reader") =>
      recordDeckBeats(db, beatsOf({ project: project.id, deck, qr }, dwells), sender(viewer, audience));
    return { db, project, deck, codes, read };
  };
  const figures = (pages: { page: number; readers: number; medianMs: number; totalMs: number; share: number }[]) =>
    pages.map(({ page, readers, medianMs, totalMs, share }) => [page, readers, medianMs, totalMs, share]);

  it("counts each page's readers, their median and total time and the drop-off; one viewer's two views are one reader", async () => {
    const { db, project, read, codes } = await setup();
    // Ana reads pages 1–3 in two views (page 1 twice: 10 s + 20 s), Bo pages 1–2, a browser without a cookie page 1.
    await read("ana", [[1, 10], [2, 30]], codes.booth);
    await read("ana", [[1, 20], [3, 5]], codes.badge);
    await read("bo", [[1, 40], [2, 10]], codes.booth);
    await read(null, [[1, 6]]);
    // A view that opened and counted nothing is no reader.
    await read("cy", []);

    const all = await loadDeckReaders(db, project.ownerId, project.id);
    expect(all).toMatchObject({ pageCount: 4, source: null, readers: 3, apart: { teamViews: 0, botViews: 0 } });
    expect(figures(all!.pages)).toEqual([
      [1, 3, 30_000, 76_000, 1],
      [2, 2, 20_000, 40_000, 2 / 3],
      [3, 1, 5_000, 5_000, 1 / 3],
      [4, 0, 0, 0, 0],
    ]);

    const booth = await loadDeckReaders(db, project.ownerId, project.id, `qr:${codes.booth}`);
    expect(booth).toMatchObject({ source: `qr:${codes.booth}`, readers: 2 });
    expect(figures(booth!.pages)).toEqual([
      [1, 2, 25_000, 50_000, 1],
      [2, 2, 20_000, 40_000, 1],
      [3, 0, 0, 0, 0],
      [4, 0, 0, 0, 0],
    ]);
    const badge = await loadDeckReaders(db, project.ownerId, project.id, `qr:${codes.badge}`);
    expect(badge!.readers).toBe(1);
    expect(figures(badge!.pages).slice(0, 3)).toEqual([
      [1, 1, 20_000, 20_000, 1],
      [2, 0, 0, 0, 0],
      [3, 1, 5_000, 5_000, 1],
    ]);
  });

  it("keeps the team's and bots' views out of the figures and counts them apart, per code too", async () => {
    const { db, project, read, codes } = await setup();
    await read("ana", [[1, 12]], codes.booth);
    await read("founder", [[1, 300], [2, 300]], codes.booth, "team");
    await read("founder", [[3, 60]], null, "team");
    await read("crawler", [[1, 1], [2, 1], [3, 1], [4, 1]], null, "bot");

    const all = await loadDeckReaders(db, project.ownerId, project.id);
    expect(all).toMatchObject({ readers: 1, apart: { teamViews: 2, botViews: 1 } });
    expect(figures(all!.pages)).toEqual([
      [1, 1, 12_000, 12_000, 1],
      [2, 0, 0, 0, 0],
      [3, 0, 0, 0, 0],
      [4, 0, 0, 0, 0],
    ]);
    expect((await loadDeckReaders(db, project.ownerId, project.id, `qr:${codes.booth}`))!.apart).toEqual({ teamViews: 1, botViews: 0 });
  });

  it("shows no readers for a deck no one read yet, nothing for a project without a deck, and only to its team", async () => {
    const { db, project } = await setup();
    const viewer = await createUser(db);
    await db.insertInto("project_members").values({ project_id: project.id, user_id: viewer, role: "viewer", added_by: project.ownerId, created_at: new Date().toISOString() }).execute();
    const unread = await loadDeckReaders(db, viewer, project.id);
    expect(unread).toMatchObject({ readers: 0, apart: { teamViews: 0, botViews: 0 } });
    expect(unread!.pages.map((page) => page.readers)).toEqual([0, 0, 0, 0]);

    const bare = await createProject(db);
    expect(await loadDeckReaders(db, bare.ownerId, bare.id)).toBeNull();
    await expect(loadDeckReaders(db, await createUser(db), project.id)).rejects.toThrow();
  });

  it("reads a code's or the plain link's choice, and anything else as the whole project", () => {
    expect(deckSourceOf("qr:booth-1")).toBe("qr:booth-1");
    expect(deckSourceOf("direct")).toBe("direct");
    expect(deckSourceOf("all")).toBeNull();
    expect(deckSourceOf("qr:not a code")).toBeNull();
    expect(deckSourceOf(null)).toBeNull();
  });
});
