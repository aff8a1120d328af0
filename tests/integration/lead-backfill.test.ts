import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillLeads } from "~/db/migrations/0008-lead-inbox.server";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases";
import { insertProjectRows } from "../support/fixtures";

describe.each(DIALECTS)("migration 0006 fills the leads of existing contacts [%s]", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    // Before migration 0012, when one person could have several contacts in a project.
    database = await createTestDatabase(dialect, { upTo: "0011-wall-message-choice" });
  });
  afterAll(() => database.destroy());

  it("merges each project's contacts by e-mail, with first and last activity, actions and the signal's event", async () => {
    const { db } = database;
    const project = await insertProjectRows(db);
    const other = await insertProjectRows(db);
    const contact = (id: string, projectId: string, name: string, email: string, intent: "Intro" | "Supporter" | "Subscriber", at: string, subscribed = false) =>
      db
        .insertInto("contacts")
        .values({ id, project_id: projectId, name, email, intent, subscribed, role_tags: [], linkedin_url: null, note: null, user_id: null, created_at: at })
        .execute();
    await contact("c1", project.id, "Ada", "ada@example.com", "Intro", "2026-01-01T10:00:00.000Z", true);
    await contact("c2", project.id, "Ada L.", "ada@example.com", "Supporter", "2026-01-03T10:00:00.000Z");
    await contact("c3", project.id, "Bo", "bo@example.com", "Subscriber", "2026-01-02T10:00:00.000Z", true);
    await contact("c4", other.id, "Ada elsewhere", "ada@example.com", "Intro", "2026-01-04T10:00:00.000Z");
    await db
      .insertInto("signals")
      .values({
        id: "s1",
        project_id: project.id,
        contact_id: "c2",
        signal_tier_id: null,
        range_label: "Angel",
        range_min: 5_000,
        range_max: 25_000,
        amount: 5_000,
        event_source: "Expo",
        is_public: true,
        message: null,
        user_id: null,
        created_at: "2026-01-03T10:00:00.000Z",
      })
      .execute();

    await backfillLeads(db.withoutPlugins(), dialect === "sqlite");
    // The leads table as migration 0008 made it (0028 replaced its event_source with a source).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table shape the current schema type no longer has
    const leads = await (db as unknown as Kysely<any>)
      .selectFrom("leads")
      .select(["project_id", "email", "name", "first_seen_at", "last_activity_at", "did_intro", "did_subscribe", "did_signal", "event_source", "status", "note"])
      .orderBy("project_id")
      .orderBy("email")
      .execute();
    const mine = leads.filter((lead) => lead.project_id === project.id).map(({ project_id: _p, ...lead }) => lead);
    expect(mine).toEqual([
      {
        email: "ada@example.com",
        name: "Ada L.",
        first_seen_at: "2026-01-01T10:00:00.000Z",
        last_activity_at: "2026-01-03T10:00:00.000Z",
        did_intro: true,
        did_subscribe: true,
        did_signal: true,
        event_source: "Expo",
        status: "new",
        note: null,
      },
      {
        email: "bo@example.com",
        name: "Bo",
        first_seen_at: "2026-01-02T10:00:00.000Z",
        last_activity_at: "2026-01-02T10:00:00.000Z",
        did_intro: false,
        did_subscribe: true,
        did_signal: false,
        event_source: null,
        status: "new",
        note: null,
      },
    ]);
    expect(leads.filter((lead) => lead.project_id === other.id).map((lead) => [lead.name, lead.did_intro])).toEqual([["Ada elsewhere", true]]);
  });
});
