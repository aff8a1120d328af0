import { expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { leadReadingText, suggestsHot } from "~/modules/deck-reading/reading-text";
import { validate } from "~/modules/forms/validation";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { readLeadFilters, type LeadFilters } from "~/modules/leads/lead-forms";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { beatsOf, createShownDeck, sender } from "../support/deck-reading";
import { createProject, minutesAgo, sentAt, testMailLinks } from "../support/fixtures";

const ANY: LeadFilters = { action: null, event: null, status: null, q: null, after: null };

/** A lead who sent an intro from the viewer `name` (their views of the deck become theirs). */
async function introFrom(db: TestDatabase["db"], projectId: string, name: string, at: Date) {
  const parsed = validate(introSchema, { name, email: `${name.toLowerCase()}@example.com`, note: "Keen to talk" });
  if (!parsed.ok) throw new Error(parsed.formError);
  await submitIntro(db, testMailLinks, projectId, parsed.data, { userId: null, identity: { viewerFingerprint: name, addressHash: null }, ...sentAt(at) });
}

describeEachDialect("what each lead read, in the inbox", (getDb) => {
  /** Ana read most of the deck (oldest activity), Bo one page, Cy only as the team (newest activity). */
  const setup = async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const deck = await createShownDeck(db, project, 5);
    await introFrom(db, project.id, "Ana", minutesAgo(3));
    await introFrom(db, project.id, "Bo", minutesAgo(2));
    await introFrom(db, project.id, "Cy", minutesAgo(1));
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 10], [2, 20], [3, 15], [4, 5]]), sender("Ana"));
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[2, 12]]), sender("Bo"));
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 25], [2, 25], [3, 25], [4, 25], [5, 25]]), sender("Cy", "team"));
    return { db, project };
  };
  const names = (inbox: { leads: { name: string }[] }) => inbox.leads.map((lead) => lead.name);

  it("shows on each card what that person read, page by page, and nothing for one who read none", async () => {
    const { db, project } = await setup();
    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect(names(inbox)).toEqual(["Cy", "Bo", "Ana"]);
    const [cy, bo, ana] = inbox.leads;
    expect(ana!.reading).toEqual({ pageCount: 5, pagesRead: 4, ms: 50_000, perPage: [10_000, 20_000, 15_000, 5_000, 0], longestPage: 2 });
    expect(leadReadingText(ana!.reading!)).toBe("Read 4 of 5 pages · 50 s · longest on page 2");
    expect(suggestsHot(ana!.reading!)).toBe(true);
    expect(leadReadingText(bo!.reading!)).toBe("Read 1 of 5 pages · 12 s");
    expect(suggestsHot(bo!.reading!)).toBe(false);
    expect(cy!.reading).toBeNull();
  });

  it("filters to those who read the deck on the page now", async () => {
    const { db, project } = await setup();
    const filters = readLeadFilters(new URLSearchParams("read=deck"));
    expect(filters.read).toBe("deck");
    expect(names(await openLeadInbox(db, project.ownerId, project.id, filters))).toEqual(["Bo", "Ana"]);
    expect(names(await openLeadInbox(db, project.ownerId, project.id, { ...filters, q: "ana" }))).toEqual(["Ana"]);

    // Another deck on the page: nobody has read this one yet.
    await createShownDeck(db, project, 3);
    const inbox = await openLeadInbox(db, project.ownerId, project.id, filters);
    expect(names(inbox)).toEqual([]);
    expect((await openLeadInbox(db, project.ownerId, project.id, ANY)).leads.every((lead) => lead.reading === null)).toBe(true);
  });

  it("sorts by reading time, the most first, page after page", async () => {
    const { db, project } = await setup();
    const filters = readLeadFilters(new URLSearchParams("sort=reading"));
    expect(filters.sort).toBe("reading");
    expect(names(await openLeadInbox(db, project.ownerId, project.id, filters))).toEqual(["Ana", "Bo", "Cy"]);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page = await openLeadInbox(db, project.ownerId, project.id, { ...filters, after }, { pageSize: 1 });
      seen.push(...names(page));
      after = page.nextCursor;
    } while (after);
    expect(seen).toEqual(["Ana", "Bo", "Cy"]);

    const readers = await openLeadInbox(db, project.ownerId, project.id, { ...filters, read: "deck", view: "unanswered" });
    expect(names(readers)).toEqual(["Ana", "Bo"]);
  });
});
