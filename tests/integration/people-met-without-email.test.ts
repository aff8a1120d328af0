// People met in person without an e-mail (decision 92): a name and any one of e-mail, LinkedIn URL
// or phone save a person; the same LinkedIn profile or phone is one lead; such a lead is answered once an e-mail is
// added; and migration 0054 keeps every lead and capture an earlier release left.
import { text } from "node:stream/consumers";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { isUniqueViolation } from "~/db/normalize.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { captureSchema, type CaptureInput } from "~/modules/leads/capture/capture-form";
import { captureLead } from "~/modules/leads/capture/lead-captures.server";
import { addLeadEmail } from "~/modules/leads/replies/lead-email.server";
import { EMAIL_TAKEN_MESSAGE, leadEmailSchema, NO_EMAIL_TO_REPLY_MESSAGE, type LeadFilters } from "~/modules/leads/lead-forms";
import { openReplyComposer, sendLeadReply, type ReplyingFounder } from "~/modules/leads/replies/lead-replies.server";
import { leadVCard } from "~/modules/leads/capture/lead-vcards.server";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { leadReplySchema } from "~/modules/leads/replies/reply-form";
import { inviteToTeam, acceptTeamInvitation } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { createTestDatabase, describeEachDialect, DIALECTS, type TestDatabase } from "../support/databases";
import { createProject, createUser, insertProjectRows, minutesAgo, testMailLinks } from "../support/fixtures";

type Db = TestDatabase["db"];
const ANY: LeadFilters = { action: null, event: null, status: null, q: null, after: null };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const capture = (fields: Record<string, unknown>): CaptureInput => parse(captureSchema, { key: crypto.randomUUID(), codeId: "plain", ...fields });

async function founderOf(db: Db, id: string): Promise<ReplyingFounder> {
  const user = await db.selectFrom("users").select(["name", "email"]).where("id", "=", id).executeTakeFirstOrThrow();
  return { id, name: user.name, email: user.email, timeZone: "Europe/Berlin" };
}

async function viewerOf(db: Db, project: { id: string; ownerId: string }) {
  const email = `viewer-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role: "viewer" }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!);
  return id;
}

const leadsOf = (db: Db, projectId: string) =>
  db.selectFrom("leads").select(["id", "name", "email", "met_key"]).where("project_id", "=", projectId).orderBy("first_seen_at").execute();

describeEachDialect("people met without an e-mail", (getDb) => {
  it("keeps a person met with only a LinkedIn URL, and one met with only a phone, each shown with how to reach them", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const jane = await captureLead(db, project.ownerId, project.id, capture({ name: "Jane Doe", linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234", temperature: "hot" }), minutesAgo(2));
    const omar = await captureLead(db, project.ownerId, project.id, capture({ name: "Omar Haddad", phone: "+44 7700 900123", note: "Runs a clinic chain" }), minutesAgo(1));
    expect(jane).toMatchObject({ merged: false, message: "Jane Doe added" });
    expect(omar).toMatchObject({ merged: false, message: "Omar Haddad added" });

    expect(await leadsOf(db, project.id)).toEqual([
      { id: jane.leadId, name: "Jane Doe", email: null, met_key: "linkedin:in/jane-doe-1234" },
      { id: omar.leadId, name: "Omar Haddad", email: null, met_key: "phone:447700900123" },
    ]);
    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    const byName = new Map(inbox.leads.map((lead) => [lead.name, lead]));
    expect(byName.get("Jane Doe")).toMatchObject({ email: null, hasEmail: false, linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234", phone: null, temperature: "hot" });
    expect(byName.get("Omar Haddad")).toMatchObject({ email: null, hasEmail: false, linkedinUrl: null, phone: "+44 7700 900123" });
    // Met in person and waiting for nobody, as every capture (decision 84).
    expect(inbox.unanswered).toBe(0);

    // A viewer is told there is no e-mail, and sees no phone.
    const viewer = await viewerOf(db, project);
    const seen = (await openLeadInbox(db, viewer, project.id, ANY)).leads.find((lead) => lead.id === omar.leadId);
    expect(seen).toMatchObject({ hasEmail: false, email: null, phone: null });
  });

  it("is one lead for the same LinkedIn profile met twice, whatever the URL's form, and the e-mail given later joins it", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const first = await captureLead(db, project.ownerId, project.id, capture({ name: "Jane Doe", linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234" }), minutesAgo(5));
    const again = await captureLead(db, project.ownerId, project.id, capture({ name: "Jane D.", linkedinUrl: "http://linkedin.com/in/Jane-Doe-1234/?utm_source=share", temperature: "warm" }), minutesAgo(4));
    expect(again).toMatchObject({ leadId: first.leadId, merged: true, message: "Jane D. added to their lead" });
    // Met a third time with her e-mail too: the same lead, which now has the address.
    const third = await captureLead(db, project.ownerId, project.id, capture({ name: "Jane Doe", email: "jane@example.com", linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234" }), minutesAgo(3));
    expect(third.leadId).toBe(first.leadId);
    expect(await leadsOf(db, project.id)).toEqual([{ id: first.leadId, name: "Jane Doe", email: "jane@example.com", met_key: "linkedin:in/jane-doe-1234" }]);
    const [lead] = (await openLeadInbox(db, project.ownerId, project.id, ANY)).leads;
    expect(lead).toMatchObject({ hasEmail: true, temperature: "warm" });
    expect(lead!.activity.filter((item) => item.kind === "met")).toHaveLength(3);

    // A visitor lead captured with e-mail and LinkedIn takes the key: a LinkedIn-only capture later finds her.
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada Visitor", email: "ada@example.com", note: "Hi" }), { userId: null, sent: { at: minutesAgo(2) } });
    const ada = await captureLead(db, project.ownerId, project.id, capture({ name: "Ada", email: "ada@example.com", linkedinUrl: "https://www.linkedin.com/in/ada-v" }), minutesAgo(1));
    const adaAgain = await captureLead(db, project.ownerId, project.id, capture({ name: "Ada", linkedinUrl: "https://www.linkedin.com/in/ada-v/" }));
    expect(adaAgain).toMatchObject({ leadId: ada.leadId, merged: true });
    // Two phones written differently are one person.
    const omar = await captureLead(db, project.ownerId, project.id, capture({ name: "Omar", phone: "+44 7700 900123" }));
    expect((await captureLead(db, project.ownerId, project.id, capture({ name: "Omar H.", phone: "+44 (7700) 900-123" }))).leadId).toBe(omar.leadId);
    expect(await db.selectFrom("leads").select("id").where("project_id", "=", project.id).execute()).toHaveLength(3);
    // The key is unique per project in the database itself.
    const duplicate = await db
      .insertInto("leads")
      .values({ id: crypto.randomUUID(), project_id: project.id, email: null, met_key: "phone:447700900123", name: "X", first_seen_at: new Date().toISOString(), last_activity_at: new Date().toISOString(), note: null, triaged_at: null, first_response_at: null, awaiting_since: null, temperature: null })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
  });

  it("answers a lead met without an e-mail once the team adds one: refused before, sent after", async () => {
    const { db } = getDb();
    const project = await createProject(db, { title: "Harbor" });
    const owner = await founderOf(db, project.ownerId);
    const { leadId } = await captureLead(db, project.ownerId, project.id, capture({ name: "Jane Doe", linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234", phone: "+49 151 12345678" }));
    const reply = parse(leadReplySchema, { subject: "Good to meet you", body: "Hi Jane" });
    await expect(sendLeadReply(db, testMailLinks, owner, project.id, leadId, reply)).rejects.toMatchObject({ code: "conflict", message: NO_EMAIL_TO_REPLY_MESSAGE });
    await expect(openReplyComposer(db, testMailLinks, owner, project.id, leadId)).rejects.toMatchObject({ code: "conflict" });

    // A viewer may not add it; an address another lead has is refused; neither changes the lead.
    const viewer = await viewerOf(db, project);
    await expect(addLeadEmail(db, viewer, project.id, parse(leadEmailSchema, { leadId, email: "jane@example.com" }))).rejects.toMatchObject({ code: "forbidden" });
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada", email: "ada@example.com", note: "Hi" }), { userId: null });
    await expect(addLeadEmail(db, project.ownerId, project.id, parse(leadEmailSchema, { leadId, email: "ADA@example.com" }))).rejects.toMatchObject({ code: "conflict", message: EMAIL_TAKEN_MESSAGE });
    const stranger = await createUser(db);
    await expect(addLeadEmail(db, stranger, project.id, parse(leadEmailSchema, { leadId, email: "jane@example.com" }))).rejects.toMatchObject({ code: "not_found" });
    expect((await db.selectFrom("leads").select("email").where("id", "=", leadId).executeTakeFirstOrThrow()).email).toBeNull();

    await addLeadEmail(db, project.ownerId, project.id, parse(leadEmailSchema, { leadId, email: " Jane@Example.com " }));
    const [lead] = (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, lead: leadId })).leads;
    expect(lead).toMatchObject({ email: "jane@example.com", hasEmail: true, phone: "+49 151 12345678" });
    await sendLeadReply(db, testMailLinks, owner, project.id, leadId, reply);
    const mails = await db.selectFrom("mail_outbox").select(["recipient", "subject"]).where("kind", "=", "lead-reply").where("recipient", "=", "jane@example.com").execute();
    expect(mails).toEqual([{ recipient: "jane@example.com", subject: "Good to meet you" }]);
    // Adding it again, or another, keeps the one it has.
    await addLeadEmail(db, project.ownerId, project.id, parse(leadEmailSchema, { leadId, email: "jane@example.com" }));
    await expect(addLeadEmail(db, project.ownerId, project.id, parse(leadEmailSchema, { leadId, email: "other@example.com" }))).rejects.toMatchObject({ code: "conflict" });
  });

  it("exports them: an empty Email and their phone in the CSV, a vCard with TEL and no EMAIL", async () => {
    const { db } = getDb();
    const project = await createProject(db, { title: "Harbor" });
    const { leadId } = await captureLead(db, project.ownerId, project.id, capture({ name: "Omar Haddad", phone: "+44 7700 900123", note: "Clinic chain" }));
    const csv = await exportContactsCsv(db, project.ownerId, project.id);
    expect(csv.count).toBe(1);
    const [header, row] = (await text(csv.body)).slice(1).trimEnd().split("\r\n").map((line) => line.split(","));
    expect(header!.slice(0, 7)).toEqual(["Name", "Email", "Intent", "Role Tags", "LinkedIn", "Note", "Created At"]);
    const cells = Object.fromEntries(header!.map((column, index) => [column, row![index]]));
    // A leading + is what a spreadsheet would run as a formula: neutralised like every cell.
    expect(cells).toMatchObject({ Name: "Omar Haddad", Email: "", "Met in person": "Direct link: Clinic chain", Phone: "'+44 7700 900123" });

    const card = await leadVCard(db, project.ownerId, project.id, leadId);
    expect(card.body).toContain("FN:Omar Haddad\r\n");
    expect(card.body).toContain("TEL;TYPE=CELL:+44 7700 900123\r\n");
    expect(card.body).not.toContain("EMAIL");
  });
});

describe.each(DIALECTS)("migration 0054 keeps what an earlier release left [%s]", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { upTo: "0053-accepted-forms" });
  });
  afterAll(() => database.destroy());

  it("keeps every lead, capture, reply and history line, their keys and their foreign keys; e-mails become optional", async () => {
    const { db } = database;
    const project = await insertProjectRows(db);
    const at = minutesAgo(30).toISOString();
    const raw = db.withoutPlugins();
    const leadIds = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [index, id] of leadIds.entries()) {
      await sql`insert into leads (id, project_id, email, name, first_seen_at, last_activity_at, source, status, temperature, awaiting_since)
        values (${id}, ${project.id}, ${`person${index}@example.com`}, ${`Person ${index}`}, ${at}, ${at}, 'direct', 'contacted', 'hot', ${at})`.execute(raw);
    }
    await sql`insert into lead_captures (id, project_id, lead_id, idempotency_key, request_fingerprint, lead_outcome, source, added_by, name, email, linkedin_url, temperature, note, created_at)
      values ('cap-1', ${project.id}, ${leadIds[0]}, 'key-1', 'fp-1', 'created', 'direct', ${project.ownerId}, 'Person 0', 'person0@example.com', 'https://www.linkedin.com/in/p0', 'hot', 'Met', ${at})`.execute(raw);
    await sql`insert into lead_follow_ups (id, project_id, lead_id, kind, author_id, subject, body, created_at) values ('fu-1', ${project.id}, ${leadIds[0]}, 'reply', ${project.ownerId}, 'Hi', 'Body', ${at})`.execute(raw);
    await sql`insert into lead_events (id, project_id, lead_id, actor_id, kind, value, created_at) values ('ev-1', ${project.id}, ${leadIds[1]}, ${project.ownerId}, 'status', 'contacted', ${at})`.execute(raw);
    const snapshot = async () => ({
      leads: await db.selectFrom("leads").select(["id", "email", "name", "status", "temperature", "source", "first_seen_at", "awaiting_since"]).orderBy("id").execute(),
      captures: await db.selectFrom("lead_captures").select(["id", "lead_id", "idempotency_key", "email", "linkedin_url", "note", "created_at"]).execute(),
      followUps: await db.selectFrom("lead_follow_ups").select(["id", "lead_id"]).execute(),
      events: await db.selectFrom("lead_events").select(["id", "lead_id"]).execute(),
    });
    const before = await snapshot();

    await migrateToLatest(raw);

    expect(await snapshot()).toEqual(before);
    expect(await db.selectFrom("leads").select(["met_key"]).execute()).toEqual([{ met_key: null }, { met_key: null }]);
    expect(await db.selectFrom("lead_captures").select(["phone"]).execute()).toEqual([{ phone: null }]);
    // One lead per address, one capture per key, and the checks, as before.
    const insertLead = (fields: { email: string | null; status?: string }) =>
      sql`insert into leads (id, project_id, email, name, first_seen_at, last_activity_at, status) values (${crypto.randomUUID()}, ${project.id}, ${fields.email}, 'New', ${at}, ${at}, ${fields.status ?? "new"})`.execute(raw);
    expect(isUniqueViolation(await insertLead({ email: "person1@example.com" }).catch((error: unknown) => error))).toBe(true);
    await expect(insertLead({ email: "fine@example.com", status: "archived" })).rejects.toThrow();
    await insertLead({ email: null });
    await insertLead({ email: null });
    await expect(
      sql`insert into lead_captures (id, project_id, lead_id, idempotency_key, request_fingerprint, lead_outcome, source, added_by, name, created_at)
        values ('cap-2', ${project.id}, ${leadIds[1]}, 'key-1', 'fp', 'created', 'direct', 'u', 'N', ${at})`.execute(raw),
    ).rejects.toThrow();
    await expect(
      sql`insert into lead_captures (id, project_id, lead_id, idempotency_key, request_fingerprint, lead_outcome, source, added_by, name, created_at)
        values ('cap-3', ${project.id}, 'no-such-lead', 'key-3', 'fp', 'created', 'direct', 'u', 'N', ${at})`.execute(raw),
    ).rejects.toThrow();
    // Deleting a lead still takes its captures, replies and history with it.
    await db.deleteFrom("leads").where("id", "=", leadIds[0]!).execute();
    expect(await db.selectFrom("lead_captures").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("lead_follow_ups").select("id").execute()).toEqual([]);
    await db.deleteFrom("leads").where("id", "=", leadIds[1]!).execute();
    expect(await db.selectFrom("lead_events").select("id").execute()).toEqual([]);
    // The indexes are all there.
    const indexes = new Set(await indexNames(database, dialect));
    for (const name of ["leads_project_activity_idx", "leads_project_first_seen_idx", "leads_project_waiting_idx", "leads_project_awaiting_idx", "leads_project_met_key_unique", "lead_captures_lead_idx", "lead_captures_source_idx", "lead_captures_added_by_idx", "lead_captures_project_idx"]) {
      expect(indexes).toContain(name);
    }
  });
});

async function indexNames(database: TestDatabase, dialect: string): Promise<string[]> {
  const raw = database.db.withoutPlugins();
  const rows =
    dialect === "postgres"
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename in ('leads', 'lead_captures')`.execute(raw)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in ('leads', 'lead_captures')`.execute(raw);
  return rows.rows.map((row) => row.name);
}
