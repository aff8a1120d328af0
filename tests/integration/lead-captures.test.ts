import { text } from "node:stream/consumers";
import { expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { MESSAGES } from "~/modules/forms/visitor-limits";
import { validate } from "~/modules/forms/validation";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { UNKNOWN_BOOTH_CODE_MESSAGE } from "~/modules/booth/booth-codes";
import { CAPTURE_KEY_REUSED_MESSAGE, CAPTURE_NOTE_TOO_LONG_MESSAGE, CAPTURE_ONE_WAY_MESSAGE, captureSchema, type CaptureInput } from "~/modules/leads/capture/capture-form";
import { captureLead } from "~/modules/leads/capture/lead-captures.server";
import type { LeadFilters } from "~/modules/leads/lead-forms";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { markAwaitingFollowUp, updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { NOT_FOUND_OR_DENIED } from "~/modules/access/project-access.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, createUser, minutesAgo, testMailLinks } from "../support/fixtures";

const ANY: LeadFilters = { action: null, event: null, status: null, q: null, after: null };

type Db = TestDatabase["db"];

function capture(fields: Record<string, unknown>): CaptureInput {
  const result = validate(captureSchema, { key: crypto.randomUUID(), codeId: "plain", ...fields });
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function boothProject(db: Db) {
  const project = await createProject(db);
  const booth = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "demoday-2026" });
  await db.updateTable("users").set({ name: "Maya Founder" }).where("id", "=", project.ownerId).execute();
  return { ...project, booth };
}

async function countRows(db: Db, table: "leads" | "lead_captures", projectId: string) {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("count")).where("project_id", "=", projectId).executeTakeFirstOrThrow();
  return Number(row.count);
}

describeEachDialect("capture at the booth", (getDb) => {
  it("creates a lead for a person met in person, marked with the booth's code and who added them", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    const input = capture({
      codeId: project.booth.id,
      name: "Jane Booth",
      email: "Jane.Booth@Example.com",
      linkedinUrl: "https://www.linkedin.com/in/jane-booth",
      temperature: "hot",
      note: "Runs a cold-chain fund",
    });

    const result = await captureLead(db, project.ownerId, project.id, input);
    expect(result).toMatchObject({ merged: false, message: "Jane Booth added" });

    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect(inbox.leads).toHaveLength(1);
    const [lead] = inbox.leads;
    expect(lead).toMatchObject({
      id: result.leadId,
      name: "Jane Booth",
      email: "jane.booth@example.com",
      temperature: "hot",
      actions: [],
      linkedinUrl: "https://www.linkedin.com/in/jane-booth",
      event: { kind: "code", name: "Booth · demoday-2026" },
    });
    expect(lead!.activity).toEqual([
      {
        kind: "met",
        at: expect.any(String),
        event: "Booth · demoday-2026",
        addedBy: "Maya Founder",
        note: "Runs a cold-chain fund",
        linkedinUrl: "https://www.linkedin.com/in/jane-booth",
      },
    ]);
    // Meeting them is no question of theirs: they do not wait in 'Unanswered' (nor were they answered).
    expect(inbox.unanswered).toBe(0);
    const stored = await db.selectFrom("lead_captures").select(["added_by", "source", "lead_outcome"]).where("project_id", "=", project.id).execute();
    expect(stored).toEqual([{ added_by: project.ownerId, source: `qr:${project.booth.id}`, lead_outcome: "created" }]);

    // The funnel shows them beside the code's visitors, not among them.
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    const row = analytics.funnel.find((entry) => entry.source === `qr:${project.booth.id}`);
    expect(row).toMatchObject({ metInPerson: 1, people: 0, share: 0, intros: 0 });
    expect(analytics.peopleWhoActed).toBe(0);
    expect(analytics.conversionRate).toBe(0);
  });

  it("counts in the inbox header the people who acted and, apart, the people met in person", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    const intro = validate(introSchema, { name: "Ana Visitor", email: "ana@example.com", note: "Hi" });
    if (!intro.ok) throw new Error(intro.formError);
    await submitIntro(db, testMailLinks, project.id, intro.data, { userId: null, sent: { at: minutesAgo(4) } });
    const other = validate(introSchema, { name: "Bo Visitor", email: "bo@example.com", note: "Hello" });
    if (!other.ok) throw new Error(other.formError);
    await submitIntro(db, testMailLinks, project.id, other.data, { userId: null, sent: { at: minutesAgo(3) } });
    // Ana also met at the booth; two walk-ups met only there.
    await captureLead(db, project.ownerId, project.id, capture({ codeId: project.booth.id, name: "Ana V.", email: "ana@example.com" }), minutesAgo(2));
    await captureLead(db, project.ownerId, project.id, capture({ codeId: project.booth.id, name: "Kenji Watanabe", email: "kenji@example.com" }), minutesAgo(1));
    await captureLead(db, project.ownerId, project.id, capture({ codeId: project.booth.id, name: "Lea Walkup", email: "lea@example.com" }), minutesAgo(1));

    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect({ total: inbox.total, acted: inbox.acted, metInPerson: inbox.metInPerson }).toEqual({ total: 4, acted: 2, metInPerson: 3 });
  });

  it("lists the people met in person in the contacts CSV, after the contacts, with where they were met", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    const intro = validate(introSchema, { name: "Ana Visitor", email: "ana@example.com", note: "Hi" });
    if (!intro.ok) throw new Error(intro.formError);
    await submitIntro(db, testMailLinks, project.id, intro.data, { userId: null, sent: { at: minutesAgo(3) } });
    await captureLead(db, project.ownerId, project.id, capture({ codeId: project.booth.id, name: "Ana V.", email: "ana@example.com", note: "Also met her" }), minutesAgo(2));
    await captureLead(
      db,
      project.ownerId,
      project.id,
      capture({ codeId: project.booth.id, name: "Kenji Watanabe", email: "kenji@example.com", linkedinUrl: "https://www.linkedin.com/in/kenji", temperature: "hot", note: "Wants a pilot" }),
      minutesAgo(1),
    );

    const csv = await exportContactsCsv(db, project.ownerId, project.id);
    expect(csv.count).toBe(2);
    // No cell here holds a comma, a quote or a line break: each line splits on its commas.
    const [header, ...rows] = (await text(csv.body)).slice(1).trimEnd().split("\r\n").map((line) => line.split(","));
    expect(header!.slice(0, 7)).toEqual(["Name", "Email", "Intent", "Role Tags", "LinkedIn", "Note", "Created At"]);
    expect(header!.slice(-4)).toEqual(["Met in person", "Phone", "Pages read", "Seconds read"]);
    const byName = new Map(rows.map((row) => [row[0], Object.fromEntries(header!.map((column, index) => [column, row[index]]))]));
    expect([...byName.keys()]).toEqual(["Ana Visitor", "Kenji Watanabe"]);
    expect(byName.get("Ana Visitor")).toMatchObject({ Intent: "Intro", Note: "Hi", "Met in person": "Booth · demoday-2026: Also met her" });
    expect(byName.get("Kenji Watanabe")).toMatchObject({
      Email: "kenji@example.com",
      Intent: "",
      LinkedIn: "https://www.linkedin.com/in/kenji",
      Source: "Booth · demoday-2026",
      "Event tag": "demoday-2026",
      Temperature: "Hot",
      "Met in person": "Booth · demoday-2026: Wants a pilot",
    });
  });

  it("never counts a capture as an answer: no clock for a person only met in person until marked awaiting, and a visitor met still waits", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    const kenji = await captureLead(db, project.ownerId, project.id, capture({ codeId: project.booth.id, name: "Kenji Watanabe", email: "kenji@example.com", temperature: "hot" }), minutesAgo(30));
    const intro = validate(introSchema, { name: "Ada Visitor", email: "ada@example.com", note: "Hello" });
    if (!intro.ok) throw new Error(intro.formError);
    const introAt = minutesAgo(20);
    await submitIntro(db, testMailLinks, project.id, intro.data, { userId: null, sent: { at: introAt } });
    await captureLead(db, project.ownerId, project.id, capture({ codeId: project.booth.id, name: "Ada V.", email: "ada@example.com" }), minutesAgo(10));

    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    const byName = new Map(inbox.leads.map((lead) => [lead.name, lead]));
    expect(byName.get("Kenji Watanabe")).toMatchObject({ awaitingSince: null, firstResponseAt: null });
    expect(byName.get("Ada Visitor")).toMatchObject({ awaitingSince: introAt.toISOString(), firstResponseAt: null });
    expect(inbox.unanswered).toBe(1);
    expect((await openLeadInbox(db, project.ownerId, project.id, { ...ANY, view: "unanswered" })).leads.map((lead) => lead.name)).toEqual(["Ada Visitor"]);
    // Time to answer: Ada waits 20 minutes, neither late nor answered in time; Kenji is not in it at all.
    const [booth] = (await loadProjectAnalytics(db, project.ownerId, project.id)).responseTimes;
    expect(booth).toMatchObject({ leads: 1, waiting: 1, withinHour: { answered: 0, of: 0 }, medianMs: null });
    // The CSV's 'First response at' and 'Minutes to first response' are empty for both.
    const csvRows = (await text((await exportContactsCsv(db, project.ownerId, project.id)).body)).trimEnd().split("\r\n").slice(1);
    expect(csvRows.map((row) => row.split(",")).map((cells) => [cells[0], cells[15], cells[16]])).toEqual([
      ["Ada Visitor", "", ""],
      ["Kenji Watanabe", "", ""],
    ]);

    // Marked as awaiting a follow-up, Kenji waits from then on, and a status change answers him.
    const markedAt = minutesAgo(5);
    await markAwaitingFollowUp(db, project.ownerId, project.id, kenji.leadId, markedAt);
    expect((await openLeadInbox(db, project.ownerId, project.id, ANY)).unanswered).toBe(2);
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: kenji.leadId, status: "contacted", note: null }, new Date(markedAt.getTime() + 3 * 60_000));
    const answered = (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, lead: kenji.leadId })).leads[0]!;
    expect(Date.parse(answered.firstResponseAt!) - Date.parse(answered.awaitingSince!)).toBe(3 * 60_000);
    // Marking again keeps the clock; another project's lead is not found.
    await markAwaitingFollowUp(db, project.ownerId, project.id, kenji.leadId);
    expect((await openLeadInbox(db, project.ownerId, project.id, { ...ANY, lead: kenji.leadId })).leads[0]!.firstResponseAt).toBe(answered.firstResponseAt);
    const other = await boothProject(db);
    await expect(markAwaitingFollowUp(db, other.ownerId, other.id, kenji.leadId)).rejects.toMatchObject({ code: "not_found" });
  });

  it("merges into the visitor's lead with the same e-mail: updated, not duplicated", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    // The lead's history reads newest first: the intro and each meeting in its own minute, never a tie.
    const intro = validate(introSchema, { name: "Ada Visitor", email: "ada@example.com", note: "Hello" });
    if (!intro.ok) throw new Error(intro.formError);
    await submitIntro(db, testMailLinks, project.id, intro.data, { userId: null, sent: { at: minutesAgo(3) } });
    const before = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect(before.leads).toHaveLength(1);

    const result = await captureLead(
      db,
      project.ownerId,
      project.id,
      capture({ codeId: project.booth.id, name: "Ada V.", email: "ADA@example.com", temperature: "warm", note: "Met at the coffee line" }),
      minutesAgo(2),
    );
    expect(result).toMatchObject({ leadId: before.leads[0]!.id, merged: true, message: "Ada V. added to their lead" });

    const after = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect(after.leads).toHaveLength(1);
    const [lead] = after.leads;
    // The visitor's own name and actions stay; the founder's temperature and the meeting are added.
    expect(lead).toMatchObject({ id: before.leads[0]!.id, name: "Ada Visitor", actions: ["intro"], temperature: "warm" });
    expect(lead!.activity.map((item) => item.kind)).toEqual(["met", "intro"]);
    expect(lead!.activity[0]).toMatchObject({ event: "Booth · demoday-2026", addedBy: "Maya Founder", note: "Met at the coffee line" });
    // The visitor's intro counts as a visitor action; the meeting only as met in person.
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.totalIntros).toBe(1);
    expect(analytics.funnel.find((entry) => entry.source === `qr:${project.booth.id}`)?.metInPerson).toBe(1);
    expect(await countRows(db, "leads", project.id)).toBe(1);

    // Met again by a member who gave no name: named by their e-mail.
    await db.updateTable("users").set({ name: "" }).where("id", "=", project.ownerId).execute();
    const owner = await db.selectFrom("users").select("email").where("id", "=", project.ownerId).executeTakeFirstOrThrow();
    await captureLead(db, project.ownerId, project.id, capture({ codeId: "plain", name: "Ada V.", email: "ada@example.com" }), minutesAgo(1));
    const [again] = (await openLeadInbox(db, project.ownerId, project.id, ANY)).leads;
    expect(again!.activity[0]).toMatchObject({ kind: "met", event: "Direct link", addedBy: owner.email, note: null });
    expect(again!.temperature).toBe("warm");
  });

  it("answers the same key twice with one lead and one capture, and refuses the key with other fields (unprocessable)", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    const input = capture({ codeId: project.booth.id, name: "Replay Person", email: "replay@example.com", note: "Once" });

    const first = await captureLead(db, project.ownerId, project.id, input);
    const again = await captureLead(db, project.ownerId, project.id, { ...input });
    expect(again).toEqual(first);
    // Sent at the same moment (a phone coming back online while another tab syncs): still one.
    const [third, fourth] = await Promise.all([captureLead(db, project.ownerId, project.id, input), captureLead(db, project.ownerId, project.id, input)]);
    expect(third).toEqual(first);
    expect(fourth).toEqual(first);
    expect(await countRows(db, "leads", project.id)).toBe(1);
    expect(await countRows(db, "lead_captures", project.id)).toBe(1);

    const other = { ...input, note: "Another note" };
    await expect(captureLead(db, project.ownerId, project.id, other)).rejects.toMatchObject({ code: "unprocessable", status: 422, message: CAPTURE_KEY_REUSED_MESSAGE });
    const otherPerson = { ...input, email: "someone.else@example.com" };
    await expect(captureLead(db, project.ownerId, project.id, otherPerson)).rejects.toMatchObject({ code: "unprocessable" });
    expect(await countRows(db, "leads", project.id)).toBe(1);
    const notes = await db.selectFrom("lead_captures").select("note").where("project_id", "=", project.id).execute();
    expect(notes).toEqual([{ note: "Once" }]);
  });

  it("refuses bad input and another founder's project, changing nothing", async () => {
    const { db } = getDb();
    const project = await boothProject(db);
    const other = await createProject(db);
    const otherCode = await createQrCode(db, other.ownerId, other.id, { label: "Elsewhere", eventTag: null });

    const refused = (fields: Record<string, unknown>) => validate(captureSchema, { key: crypto.randomUUID(), codeId: "plain", name: "A", email: "a@example.com", ...fields });
    expect(refused({ name: "x".repeat(101) })).toMatchObject({ ok: false, fieldErrors: { name: MESSAGES.nameTooLong } });
    expect(refused({ email: "not-an-address" })).toMatchObject({ ok: false, fieldErrors: { email: "Please enter a valid email address" } });
    expect(refused({ email: "" })).toMatchObject({ ok: false, fieldErrors: { email: CAPTURE_ONE_WAY_MESSAGE } });
    expect(refused({ note: "x".repeat(201) })).toMatchObject({ ok: false, fieldErrors: { note: CAPTURE_NOTE_TOO_LONG_MESSAGE } });
    expect(refused({ note: "two\nlines" })).toMatchObject({ ok: false, fieldErrors: { note: CAPTURE_NOTE_TOO_LONG_MESSAGE } });
    expect(refused({ linkedinUrl: "https://evil.example/in/jane" })).toMatchObject({ ok: false, fieldErrors: { linkedinUrl: expect.stringContaining("LinkedIn") } });
    expect(refused({ temperature: "lukewarm" })).toMatchObject({ ok: false, fieldErrors: { temperature: "Choose hot, warm or cold" } });
    expect(refused({ key: "not-a-uuid" })).toMatchObject({ ok: false, fieldErrors: { key: expect.any(String) } });

    const input = capture({ codeId: otherCode.id, name: "Wrong Code", email: "wrong.code@example.com" });
    await expect(captureLead(db, project.ownerId, project.id, input)).rejects.toMatchObject({ code: "invalid_input", message: UNKNOWN_BOOTH_CODE_MESSAGE });
    const stranger = await createUser(db);
    await expect(captureLead(db, stranger, project.id, capture({ name: "Not Yours", email: "not.yours@example.com" }))).rejects.toMatchObject({ code: "not_found", message: NOT_FOUND_OR_DENIED });
    expect(await countRows(db, "leads", project.id)).toBe(0);
    expect(await countRows(db, "lead_captures", project.id)).toBe(0);
  });
});
