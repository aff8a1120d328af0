import { expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { describeEachDialect } from "../support/databases";
import { beatsOf, createShownDeck, newViewId, sender } from "../support/deck-reading";
import { createProject, testMailLinks } from "../support/fixtures";

const intro = (name: string, email: string) => {
  const parsed = validate(introSchema, { name, email, note: "Keen to talk" });
  if (!parsed.ok) throw new Error(parsed.formError);
  return parsed.data;
};

describeEachDialect("the deck reading ledger", (getDb) => {
  const setup = async (pages = 5) => {
    const { db } = getDb();
    const project = await createProject(db);
    const deck = await createShownDeck(db, project, pages);
    return { db, project, deck };
  };
  const pagesOf = async (viewId: string) =>
    Object.fromEntries(
      (await getDb().db.selectFrom("deck_view_pages").select(["page_number", "ms"]).where("view_id", "=", viewId).orderBy("page_number").execute()).map((row) => [row.page_number, row.ms]),
    );

  it("adds each beat's time to its page and the view, once however often and in whatever order it arrives", async () => {
    const { db, project, deck } = await setup();
    const beats = beatsOf({ project: project.id, deck }, [[1, 8], [2, 15], [3, 4]]);
    const shuffled = [beats[3]!, beats[1]!, beats[1]!, beats[0]!, beats[2]!, beats[3]!];
    const outcomes = await recordDeckBeats(db, shuffled, sender("ana"));
    expect(outcomes).toEqual(["recorded", "recorded", "duplicate", "recorded", "recorded", "duplicate"]);
    for (let replay = 0; replay < 3; replay++) await recordDeckBeats(db, beats, sender("ana"));
    expect(await pagesOf(beats[0]!.view)).toEqual({ 1: 8000, 2: 15000, 3: 4000 });
    const view = await db.selectFrom("deck_views").selectAll().where("id", "=", beats[0]!.view).executeTakeFirstOrThrow();
    expect(view).toMatchObject({ project_id: project.id, deck_id: deck, viewer_fingerprint: "ana", audience: "reader", ms: 27000, pages: 3, source: "unknown" });
  });

  it("counts a stretch of the clock once when two beats both claim it", async () => {
    const { db, project, deck } = await setup();
    const view = newViewId();
    const base = { project: project.id, deck, view, qr: null };
    await recordDeckBeats(db, [{ ...base, seq: 1, age: 10_000, segments: [[1, 0, 10_000]] }], sender("bo"));
    // A confused phone sends the same ten seconds again, and five more, as another beat.
    const outcomes = await recordDeckBeats(db, [{ ...base, seq: 2, age: 15_000, segments: [[1, 0, 4_000], [2, 4_000, 15_000]] }], sender("bo"));
    expect(outcomes).toEqual(["recorded"]);
    expect(await pagesOf(view)).toEqual({ 1: 10_000, 2: 5_000 });
  });

  it("refuses beats for a replaced deck, a page past its end, an unknown project or another project's view, and moves nothing", async () => {
    const { db, project, deck } = await setup(3);
    const other = await createProject(db);
    const otherDeck = await createShownDeck(db, other, 3);
    const [opening, first] = beatsOf({ project: project.id, deck }, [[1, 5]]);
    expect(await recordDeckBeats(db, [opening!, first!], sender("cy"))).toEqual(["recorded", "recorded"]);
    const sameViewElsewhere = { ...first!, project: other.id, deck: otherDeck, seq: 7 };
    const pastTheEnd = { ...first!, seq: 8, age: 20_000, segments: [[4, 10_000, 20_000]] as [number, number, number][] };
    const unknown = { ...first!, project: "no-such-project", seq: 9 };
    const anotherViewer = { ...first!, seq: 10, age: 30_000, segments: [[2, 20_000, 30_000]] as [number, number, number][] };
    expect(await recordDeckBeats(db, [sameViewElsewhere, pastTheEnd, unknown], sender("cy"))).toEqual(["not_this_view", "no_such_page", "unknown_project"]);
    expect(await recordDeckBeats(db, [anotherViewer], sender("mallory"))).toEqual(["not_this_view"]);
    const replacement = await createShownDeck(db, project, 3);
    expect(replacement).not.toBe(deck);
    expect(await recordDeckBeats(db, [{ ...first!, seq: 11, age: 40_000, segments: [[2, 30_000, 40_000]] }], sender("cy"))).toEqual(["replaced"]);
    expect(await pagesOf(first!.view)).toEqual({ 1: 5000 });
    expect(await db.selectFrom("deck_views").select("id").where("project_id", "=", other.id).execute()).toEqual([]);
  });

  it("gives a viewer's reading, before and after their intro, to the lead the intro wrote", async () => {
    const { db, project, deck } = await setup();
    const before = beatsOf({ project: project.id, deck }, [[1, 6]]);
    await recordDeckBeats(db, before, sender("dee"));
    await submitIntro(db, testMailLinks, project.id, intro("Dee", "dee@example.com"), { userId: null, identity: { viewerFingerprint: "dee", addressHash: null } });
    const lead = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    const after = beatsOf({ project: project.id, deck }, [[2, 9]]);
    await recordDeckBeats(db, after, sender("dee"));
    const views = await db.selectFrom("deck_views").select(["id", "lead_id", "summary_state"]).where("project_id", "=", project.id).execute();
    expect(views.map((view) => view.lead_id)).toEqual([lead.id, lead.id]);
    expect(views.find((view) => view.id === after[0]!.view)?.summary_state).toBe("lead");
  });
});
