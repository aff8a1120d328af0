import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { unsubscribeContact } from "~/modules/contacts/unsubscribe.server";
import { validate } from "~/modules/forms/validation";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { createTestDatabase, DIALECTS, describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, insertProjectRows, minutesAgo, testMailLinks } from "../support/fixtures";

const anonymous = { userId: null };
/** An anonymous visitor acting `minutes` ago: each action its own minute, so rows read back in creation order never tie. */
const anonymousAt = (minutes: number) => ({ userId: null, sent: { at: minutesAgo(minutes) } });

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function csvLines(database: TestDatabase, ownerId: string, projectId: string): Promise<string[]> {
  const csv = await exportContactsCsv(database.db, ownerId, projectId);
  let text = "";
  for await (const chunk of csv.body) text += chunk.toString();
  return text.trim().split("\r\n").slice(1);
}

describeEachDialect("one contact per address per project", (getDb) => {
  it("writes one contact, one welcome and one subscriber for 20 identical subscriptions at once", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const input = parse(subscribeSchema, { consent: "on", name: "Grace", email: "grace@example.com" });

    // On PostgreSQL these run on separate pooled connections, truly at once; SQLite's one connection takes them in turn.
    const answers = await Promise.all(Array.from({ length: 20 }, () => subscribeToUpdates(db, testMailLinks, project.id, input, anonymous)));

    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(await db.selectFrom("contacts").select(["email", "subscribed"]).where("project_id", "=", project.id).execute()).toEqual([
      { email: "grace@example.com", subscribed: true },
    ]);
    const welcomes = await db.selectFrom("mail_outbox").select("recipient").where("kind", "=", "welcome").where("recipient", "=", "grace@example.com").execute();
    expect(welcomes).toHaveLength(1);
    const stats = await db.selectFrom("project_stats").select("subscribers").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(stats.subscribers).toBe(1);
    const bySource = await db.selectFrom("source_stats").select(["subscribers", "people"]).where("project_id", "=", project.id).where("source", "=", "unknown").executeTakeFirstOrThrow();
    expect(bySource).toEqual({ subscribers: 1, people: 1 });
  });

  it("keeps an intro, a subscription and a signal by one address (any case) on one contact, each action kept", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const intro = await submitIntro(
      db,
      testMailLinks,
      project.id,
      parse(introSchema, { name: "Ada", email: "Ada@Example.com", note: "Two cold-chain buyers", roleTags: ["Angel"], linkedinUrl: "https://www.linkedin.com/in/ada" }),
      anonymousAt(4),
    );
    const subscription = await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Ada L.", email: "ADA@example.com" }), anonymousAt(3));
    const signal = await recordSignal(
      db,
      testMailLinks,
      project.id,
      parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Ada Lovelace", email: "ada@EXAMPLE.com", message: "In!", showName: "on" }),
      anonymousAt(2),
    );
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada Lovelace", email: "ada@example.com", note: "And a distributor", roleTags: ["Operator"] }), anonymousAt(1));

    expect(subscription).toEqual({ created: false });
    const contacts = await db.selectFrom("contacts").selectAll().where("project_id", "=", project.id).execute();
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({
      id: intro.contactId,
      email: "ada@example.com",
      name: "Ada Lovelace",
      intent: "Intro",
      subscribed: true,
      role_tags: ["Operator"],
      note: "And a distributor",
    });
    expect(signal.contactId).toBe(intro.contactId);
    const intros = await db.selectFrom("intros").select(["contact_id", "note", "role_tags"]).where("project_id", "=", project.id).orderBy("created_at").execute();
    expect(intros).toEqual([
      { contact_id: intro.contactId, note: "Two cold-chain buyers", role_tags: ["Angel"] },
      { contact_id: intro.contactId, note: "And a distributor", role_tags: ["Operator"] },
    ]);
    expect(await db.selectFrom("signals").select(["contact_id", "message"]).where("project_id", "=", project.id).execute()).toEqual([{ contact_id: intro.contactId, message: "In!" }]);
    const stats = await db.selectFrom("project_stats").select(["intros", "subscribers", "signals"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(stats).toEqual({ intros: 2, subscribers: 1, signals: 1 });
    // The second intro's confirmation is past the visitor mail cap (3 per project per hour).
    expect(await db.selectFrom("mail_outbox").select("kind").where("recipient", "=", "ada@example.com").orderBy("kind").execute()).toEqual([
      { kind: "intro-confirmation" },
      { kind: "signal-confirmation" },
      { kind: "welcome" },
    ]);

    const inbox = await openLeadInbox(db, project.ownerId, project.id, { action: null, status: null, event: null, q: null, after: null });
    expect(inbox.leads).toHaveLength(1);
    expect(inbox.leads[0]).toMatchObject({ name: "Ada Lovelace", actions: ["intro", "subscription", "signal"], following: true });
    expect(inbox.leads[0]!.activity.map((item) => item.kind).sort()).toEqual(["intro", "intro", "signal", "subscription"]);

    const rows = await csvLines(database, project.ownerId, project.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^Ada Lovelace,ada@example\.com,Intro;Supporter;Subscriber,Operator,,And a distributor,[^,]+,Angel,\$5k-\$25k,In!,Not attributed,,New,,,,,,,,0,0$/);
  });
});

describe.each(DIALECTS)("migration 0012 merges the contacts of one address [%s]", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { upTo: "0011-wall-message-choice" });
  });
  afterAll(() => database.destroy());

  it("keeps every action on the earliest contact, keeps old unsubscribe links working and recounts subscribers", async () => {
    const { db } = database;
    const project = await insertProjectRows(db);
    const other = await insertProjectRows(db);
    const contact = (id: string, projectId: string, name: string, email: string, intent: "Intro" | "Supporter" | "Subscriber", at: string, extra: { subscribed?: boolean; note?: string; roleTags?: string[] } = {}) =>
      db
        .insertInto("contacts")
        .values({
          id,
          project_id: projectId,
          name,
          email,
          intent,
          subscribed: extra.subscribed ?? false,
          role_tags: extra.roleTags ?? [],
          linkedin_url: null,
          note: extra.note ?? null,
          user_id: null,
          created_at: at,
        })
        .execute();
    // As the old code wrote them: an intro, a signal, and two subscriptions that raced, for one person.
    await contact("c-intro", project.id, "Ada", "ada@example.com", "Intro", "2026-01-01T10:00:00.000Z", { note: "Buyers", roleTags: ["Angel"] });
    await contact("c-signal", project.id, "Ada L.", "ada@example.com", "Supporter", "2026-01-02T10:00:00.000Z", { note: "In!" });
    await contact("c-sub-1", project.id, "Ada Lovelace", "ada@example.com", "Subscriber", "2026-01-03T10:00:00.000Z", { subscribed: true });
    await contact("c-sub-2", project.id, "Ada Lovelace", "ADA@example.com", "Subscriber", "2026-01-03T10:00:00.000Z", { subscribed: true });
    await contact("c-bo-1", project.id, "Bo", "bo@example.com", "Subscriber", "2026-01-04T10:00:00.000Z", { subscribed: true });
    await contact("c-bo-2", project.id, "Bo", "bo@example.com", "Subscriber", "2026-01-04T10:00:00.000Z", { subscribed: true });
    await contact("c-other", other.id, "Ada elsewhere", "ada@example.com", "Intro", "2026-01-05T10:00:00.000Z", { note: "Hi" });
    await db
      .insertInto("signals")
      .values({
        id: "s1",
        project_id: project.id,
        contact_id: "c-signal",
        signal_tier_id: null,
        range_label: "Angel",
        range_min: 5_000,
        range_max: 25_000,
        amount: 5_000,
        event_source: null,
        is_public: false,
        message: "In!",
        user_id: null,
        created_at: "2026-01-02T10:00:00.000Z",
      })
      .execute();
    await db.insertInto("project_stats").values([
      { project_id: project.id, intros: 1, subscribers: 4, signals: 1 },
      { project_id: other.id, intros: 1, subscribers: 0, signals: 0 },
    ]).execute();

    await migrateToLatest(db.withoutPlugins());

    const contacts = await db.selectFrom("contacts").select(["id", "project_id", "name", "email", "intent", "subscribed", "role_tags", "note"]).orderBy("created_at").execute();
    expect(contacts).toEqual([
      { id: "c-intro", project_id: project.id, name: "Ada Lovelace", email: "ada@example.com", intent: "Intro", subscribed: true, role_tags: ["Angel"], note: "Buyers" },
      { id: "c-bo-1", project_id: project.id, name: "Bo", email: "bo@example.com", intent: "Subscriber", subscribed: true, role_tags: [], note: null },
      { id: "c-other", project_id: other.id, name: "Ada elsewhere", email: "ada@example.com", intent: "Intro", subscribed: false, role_tags: [], note: "Hi" },
    ]);
    expect(await db.selectFrom("signals").select(["id", "contact_id"]).execute()).toEqual([{ id: "s1", contact_id: "c-intro" }]);
    expect(await db.selectFrom("intros").select(["id", "contact_id", "note", "role_tags"]).orderBy("created_at").execute()).toEqual([
      { id: "c-intro", contact_id: "c-intro", note: "Buyers", role_tags: ["Angel"] },
      { id: "c-other", contact_id: "c-other", note: "Hi", role_tags: [] },
    ]);
    const stats = await db.selectFrom("project_stats").select(["project_id", "intros", "subscribers", "signals"]).execute();
    expect(stats.find((row) => row.project_id === project.id)).toEqual({ project_id: project.id, intros: 1, subscribers: 2, signals: 1 });
    expect(stats.find((row) => row.project_id === other.id)).toEqual({ project_id: other.id, intros: 1, subscribers: 0, signals: 0 });

    // A welcome mailed before the merge carries c-sub-2's id: its link still unsubscribes the merged contact.
    expect(await unsubscribeContact(db, "c-sub-2")).toEqual({ projectTitle: "Harbor Cold Chain", changed: 1 });
    expect(await db.selectFrom("contacts").select("subscribed").where("id", "=", "c-intro").executeTakeFirstOrThrow()).toEqual({ subscribed: false });

    // From now on the database itself refuses a second contact for the address.
    await expect(contact("c-new", project.id, "Ada", "ada@example.com", "Subscriber", "2026-02-01T10:00:00.000Z")).rejects.toThrow();
  });
});
