import { expect, it } from "vitest";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { validate } from "~/modules/forms/validation";
import {
  LEAD_NOT_FOUND_MESSAGE,
  leadTemperatureSchema,
  leadTriageSchema,
  NOTE_TOO_LONG_MESSAGE,
  UNKNOWN_STATUS_MESSAGE,
  UNKNOWN_TEMPERATURE_MESSAGE,
  type LeadFilters,
} from "~/modules/leads/lead-forms";
import type { LeadTemperature } from "~/modules/formats/lead-triage";
import { exportLeadVCards, leadVCard } from "~/modules/leads/capture/lead-vcards.server";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { iterateLeads } from "~/modules/leads/inbox/lead-exports.server";
import { countNewLeads, openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { setLeadTemperature, updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { QUESTION_MESSAGES } from "~/modules/leads/inbox/qualifying-answer";
import { qualifyingQuestionSchema } from "~/modules/leads/inbox/qualifying-question";
import { saveQualifyingQuestion } from "~/modules/leads/inbox/qualifying-question.server";
import { loadLeadSettings } from "~/modules/leads/inbox/lead-settings.server";
import { addWebhookEndpoint, type WebhookPayload } from "~/modules/webhooks/webhooks.server";
import { recordScans } from "~/modules/scans/scans.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { ROLE_DESCRIPTIONS } from "~/modules/access/roles";
import { acceptTeamInvitation, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { parseCsv } from "../support/founder-e2e";
import { createProject, createUser, minutesAgo, sentAt, testMailLinks } from "../support/fixtures";

const anonymous = { userId: null };
const ANY: LeadFilters = { action: null, event: null, status: null, q: null, after: null };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

type Db = TestDatabase["db"];

// The visitor's actions below happen now, or at `at` when a test reads them back in the order they happened: each
// such action gets its own minute (`minutesAgo`), so two are never made in one millisecond.

function intro(db: Db, projectId: string, fields: { name: string; email: string; note?: string; roleTags?: string[]; linkedinUrl?: string; answer?: string }, at?: Date) {
  return submitIntro(db, testMailLinks, projectId, parse(introSchema, { note: "Let's talk", ...fields }), { ...anonymous, ...sentAt(at) });
}

function subscribe(db: Db, projectId: string, fields: { name: string; email: string }, at?: Date) {
  return subscribeToUpdates(db, testMailLinks, projectId, parse(subscribeSchema, { consent: "on", ...fields }), { ...anonymous, ...sentAt(at) });
}

/** A signal from a visitor who came through `qrCodeId` (their page load is recorded first, as the door does). */
async function signal(
  db: Db,
  projectId: string,
  tierId: string,
  fields: { name: string; email: string; message?: string; answer?: string },
  qrCodeId: string | null = null,
  at?: Date,
) {
  const viewerFingerprint = `viewer-${fields.email}`;
  if (qrCodeId) await recordScans(db, [{ projectId, qrCodeId, viewerFingerprint }], undefined, at);
  const visitor = qrCodeId ? { userId: null, identity: { viewerFingerprint, addressHash: null } } : anonymous;
  return recordSignal(db, testMailLinks, projectId, parse(signalSchema, { tierId, showName: "on", ...fields }), { ...visitor, ...sentAt(at) });
}

describeEachDialect("lead inbox", (getDb) => {
  it("merges a person's contacts by e-mail into one lead, newest activity first, with what each did", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const expo = await createQrCode(db, project.ownerId, project.id, { label: "Booth 4", eventTag: "Expo" });
    await intro(db, project.id, { name: "Ada", email: "Ada@Example.com", note: "Two buyers", roleTags: ["Angel", "Operator"], linkedinUrl: "https://linkedin.com/in/ada" }, minutesAgo(3));
    await signal(db, project.id, project.tiers[0]!.id, { name: "Bo Chen", email: "bo@example.com", message: "Ping me" }, expo.id, minutesAgo(2));
    await subscribe(db, project.id, { name: "Ada L.", email: "ADA@example.com" }, minutesAgo(1));

    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect(inbox.total).toBe(2);
    expect(inbox.leads.map((lead) => [lead.name, lead.email, lead.actions, lead.event])).toEqual([
      ["Ada L.", "ada@example.com", ["intro", "subscription"], { kind: "unknown", name: "Not attributed" }],
      ["Bo Chen", "bo@example.com", ["signal"], { kind: "code", name: "Booth 4 · Expo" }],
    ]);
    const ada = inbox.leads[0]!;
    expect(ada.status).toBe("new");
    expect(ada.following).toBe(true);
    expect(ada.linkedinUrl).toBe("https://linkedin.com/in/ada");
    expect(ada.activity).toEqual([
      { kind: "subscription", at: null },
      { kind: "intro", at: expect.any(String), roleTags: ["Angel", "Operator"], linkedinUrl: "https://linkedin.com/in/ada", note: "Two buyers" },
    ]);
    expect(inbox.leads[1]!.activity).toEqual([
      expect.objectContaining({ kind: "signal", rangeLabel: "Angel", rangeMin: 5_000, rangeMax: 25_000, message: "Ping me", isPublic: true }),
    ]);
    expect(inbox.events).toEqual([
      { source: `qr:${expo.id}`, name: "Booth 4 · Expo" },
      { source: "direct", name: "Direct link" },
      { source: "unknown", name: "Not attributed" },
    ]);
  });

  it("filters by action, event, status and name or e-mail (case-insensitive, LIKE characters literal)", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const expo = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "Expo" });
    const demo = await createQrCode(db, project.ownerId, project.id, { label: "Demo Day", eventTag: null });
    await signal(db, project.id, project.tiers[0]!.id, { name: "Ada Lovelace", email: "ada@example.com" }, expo.id, minutesAgo(3));
    await signal(db, project.id, project.tiers[1]!.id, { name: "Bo_Chen", email: "bo@example.com" }, demo.id, minutesAgo(2));
    await intro(db, project.id, { name: "Cy 100%", email: "cy@sample.org" }, minutesAgo(1));

    const names = async (filters: Partial<LeadFilters>) =>
      (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, ...filters })).leads.map((lead) => lead.name).sort();
    expect(await names({ action: "signal" })).toEqual(["Ada Lovelace", "Bo_Chen"]);
    expect(await names({ action: "intro" })).toEqual(["Cy 100%"]);
    expect(await names({ event: `qr:${expo.id}` })).toEqual(["Ada Lovelace"]);
    expect(await names({ event: `qr:${demo.id}` })).toEqual(["Bo_Chen"]);
    expect(await names({ event: "direct" })).toEqual([]);
    expect(await names({ event: "unknown" })).toEqual(["Cy 100%"]);
    expect(await names({ q: "LOVE" })).toEqual(["Ada Lovelace"]);
    expect(await names({ q: "sample.org" })).toEqual(["Cy 100%"]);
    expect(await names({ q: "_" })).toEqual(["Bo_Chen"]);
    expect(await names({ q: "%" })).toEqual(["Cy 100%"]);

    const bo = (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, q: "bo@" })).leads[0]!;
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: bo.id, status: "meeting", note: null });
    expect(await names({ status: "meeting" })).toEqual(["Bo_Chen"]);
    expect(await names({ status: "new", action: "signal" })).toEqual(["Ada Lovelace"]);
  });

  it("pages with a keyset: every lead exactly once, newest first, even with equal activity times", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const sameTime = "2026-11-20T10:00:00.000Z";
    await db
      .insertInto("leads")
      .values(
        Array.from({ length: 23 }, (_, index) => ({
          id: crypto.randomUUID(),
          project_id: project.id,
          email: `p${index}@example.com`,
          name: `Person ${index}`,
          first_seen_at: sameTime,
          last_activity_at: index < 10 ? sameTime : `2026-11-2${index % 2}T09:00:${String(index).padStart(2, "0")}.000Z`,
          did_signal: true,
          note: null,
          triaged_at: null,
        })),
      )
      .execute();
    const seen: string[] = [];
    const order: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const inbox = await openLeadInbox(db, project.ownerId, project.id, { ...ANY, after }, { pageSize: 5 });
      seen.push(...inbox.leads.map((lead) => lead.email ?? ""));
      order.push(...inbox.leads.map((lead) => lead.lastActivityAt));
      after = inbox.nextCursor;
      if (!after) break;
    }
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect([...order].sort().reverse()).toEqual(order);
    // A cursor that is not one of ours starts from the top rather than failing.
    const garbled = await openLeadInbox(db, project.ownerId, project.id, { ...ANY, after: "not-a-cursor" }, { pageSize: 5 });
    expect(garbled.leads).toHaveLength(5);
  });

  it("keeps status and note, validates them, and refuses a lead of another project without changing anything", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db, { ownerId: project.ownerId });
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    await intro(db, other.id, { name: "Eve", email: "eve@example.com" });
    const [ada] = (await openLeadInbox(db, project.ownerId, project.id, ANY)).leads;
    const [eve] = (await openLeadInbox(db, project.ownerId, other.id, ANY)).leads;

    const input = parse(leadTriageSchema, { leadId: ada!.id, status: "contacted", note: "  Call <script>alert(1)</script> Tue  " });
    await updateLeadTriage(db, project.ownerId, project.id, input);
    const saved = (await openLeadInbox(db, project.ownerId, project.id, ANY)).leads[0]!;
    expect(saved).toMatchObject({ status: "contacted", note: "Call <script>alert(1)</script> Tue" });

    expect(validate(leadTriageSchema, { leadId: ada!.id, status: "contacted", note: "x".repeat(2_001) })).toMatchObject({
      ok: false,
      fieldErrors: { note: NOTE_TOO_LONG_MESSAGE },
    });
    expect(validate(leadTriageSchema, { leadId: ada!.id, status: "won", note: "" })).toMatchObject({ ok: false, fieldErrors: { status: UNKNOWN_STATUS_MESSAGE } });
    expect(validate(leadTriageSchema, { leadId: ada!.id, status: "passed", note: "x".repeat(2_000) })).toMatchObject({ ok: true });

    const crossProject = await updateLeadTriage(db, project.ownerId, project.id, { leadId: eve!.id, status: "passed", note: "hijack" }).catch((e: unknown) => e);
    expect(crossProject).toMatchObject({ code: "not_found", message: LEAD_NOT_FOUND_MESSAGE });
    expect((await openLeadInbox(db, project.ownerId, other.id, ANY)).leads[0]).toMatchObject({ status: "new", note: null });

    // A later action by the same person keeps the founder's triage.
    await subscribe(db, project.id, { name: "Ada", email: "ada@example.com" });
    expect((await openLeadInbox(db, project.ownerId, project.id, ANY)).leads[0]).toMatchObject({ status: "contacted", note: "Call <script>alert(1)</script> Tue" });
  });

  it("counts new leads since the owner last looked, per project, the same on My Projects as in the inbox at the same moment", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    // The founder's looks and the visitors' actions each at their own minute, in this order.
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" }, minutesAgo(120));
    await signal(db, project.id, project.tiers[0]!.id, { name: "Bo", email: "bo@example.com" }, null, minutesAgo(119));
    const firstLook = minutesAgo(118);
    expect(await countNewLeads(db, project.ownerId, firstLook)).toEqual({ [project.id]: 2 });
    const first = await openLeadInbox(db, project.ownerId, project.id, ANY, { now: firstLook });
    expect(first.newSinceLastVisit).toBe(2);
    // The inbox still says 2 new while the founder is at it (its first sitting): so does My Projects.
    expect(await countNewLeads(db, project.ownerId, firstLook)).toEqual({ [project.id]: 2 });
    await intro(db, project.id, { name: "Cy", email: "cy@example.com" }, minutesAgo(117));
    await subscribe(db, project.id, { name: "Ada", email: "ada@example.com" }, minutesAgo(116));
    const lastLook = minutesAgo(115);
    expect(await countNewLeads(db, project.ownerId, lastLook)).toEqual({ [project.id]: 3 });
    // Still the first sitting (a note saved, the next page): the same leads are new.
    const sameSitting = await openLeadInbox(db, project.ownerId, project.id, ANY, { now: lastLook });
    expect(sameSitting.previousVisitAt).toBeNull();
    expect(sameSitting.newSinceLastVisit).toBe(3);
    expect(await countNewLeads(db, project.ownerId, lastLook)).toEqual({ [project.id]: 3 });
    // Half an hour after the last look the sitting is over: nothing is new until another lead comes.
    const afterSitting = minutesAgo(115 - 40);
    expect(await countNewLeads(db, project.ownerId, afterSitting)).toEqual({});
    // Di comes after the last look.
    await intro(db, project.id, { name: "Di", email: "di@example.com" }, minutesAgo(70));
    // An hour after the last look: a new sitting, counting from the last look of the one before, in both places.
    const secondAt = minutesAgo(115 - 60);
    expect(await countNewLeads(db, project.ownerId, secondAt)).toEqual({ [project.id]: 1 });
    const second = await openLeadInbox(db, project.ownerId, project.id, ANY, { now: secondAt });
    expect(second.previousVisitAt).not.toBeNull();
    expect(second.newSinceLastVisit).toBe(1);
    expect(await countNewLeads(db, project.ownerId, secondAt)).toEqual({ [project.id]: 1 });
    expect(second.leads.filter((lead) => lead.firstSeenAt > second.previousVisitAt!).map((lead) => lead.name)).toEqual(["Di"]);
    const again = await openLeadInbox(db, project.ownerId, project.id, ANY, { now: new Date(secondAt.getTime() + 100_000) });
    expect(again.previousVisitAt).toBe(second.previousVisitAt);
    const intruder = await createUser(db);
    expect(await countNewLeads(db, intruder)).toEqual({});
  });

  it("writes vCards 3.0 with RFC 6350 escaping, folding and UTF-8, one per lead or for the filtered list", async () => {
    const { db } = getDb();
    const project = await createProject(db, { title: "Harbor; Cold, Chain" });
    const expo = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "Expo, Berlin" });
    await intro(db, project.id, {
      name: "Zoë O'Brien-Łukasz",
      email: "zoe@example.com",
      note: "Line one; with semicolon\nLine two, with comma \\ and backslash. 日本語のメモ",
      roleTags: ["Angel"],
      linkedinUrl: "https://www.linkedin.com/in/zoe",
    }, minutesAgo(2));
    await signal(db, project.id, project.tiers[0]!.id, { name: "Bo Chen", email: "bo@example.com", message: "END:VCARD\nBEGIN:VCARD" }, expo.id, minutesAgo(1));
    const [bo, zoe] = (await openLeadInbox(db, project.ownerId, project.id, ANY)).leads;
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: zoe!.id, status: "contacted", note: "Met; liked it" });

    const card = await leadVCard(db, project.ownerId, project.id, zoe!.id);
    expect(card.fileName).toBe("Zoë-O-Brien-Łukasz.vcf");
    const lines = card.body.split("\r\n");
    expect(lines[0]).toBe("BEGIN:VCARD");
    expect(lines[1]).toBe("VERSION:3.0");
    expect(card.body.endsWith("END:VCARD\r\n")).toBe(true);
    for (const line of lines) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
    const unfolded = card.body.replace(/\r\n /g, "");
    expect(unfolded).toContain("N:O'Brien-Łukasz;Zoë;;;\r\n");
    expect(unfolded).toContain("FN:Zoë O'Brien-Łukasz\r\n");
    expect(unfolded).toContain("EMAIL;TYPE=INTERNET:zoe@example.com\r\n");
    expect(unfolded).toContain("URL:https://www.linkedin.com/in/zoe\r\n");
    expect(unfolded).toContain("Line one\\; with semicolon\\nLine two\\, with comma \\\\ and backslash. 日本語のメモ");
    expect(unfolded).toContain("My note: Met\\; liked it");
    expect(unfolded).toContain("CATEGORIES:Harbor\\; Cold\\, Chain\r\n");
    // Folding never splits a UTF-8 sequence: every physical line decodes on its own.
    for (const line of lines) expect(Buffer.from(Buffer.from(line, "utf8").toString("utf8"), "utf8").equals(Buffer.from(line, "utf8"))).toBe(true);

    const boCard = (await leadVCard(db, project.ownerId, project.id, bo!.id)).body.replace(/\r\n /g, "");
    expect(boCard.match(/^BEGIN:VCARD$/gm)).toHaveLength(1);
    expect(boCard).toContain("Met at Booth · Expo\\, Berlin through Harbor\\; Cold\\, Chain");
    expect(boCard).toContain("END:VCARD\\nBEGIN:VCARD");

    const all = await exportLeadVCards(db, project.ownerId, project.id, ANY);
    let text = "";
    for await (const chunk of all.body) text += String(chunk);
    expect(text.match(/^BEGIN:VCARD\r$/gm)).toHaveLength(2);
    const signalsOnly = await exportLeadVCards(db, project.ownerId, project.id, { ...ANY, action: "signal" });
    let filtered = "";
    for await (const chunk of signalsOnly.body) filtered += String(chunk);
    expect(filtered.match(/^FN:/gm)).toEqual(["FN:"]);
    expect(filtered).toContain("FN:Bo Chen");

    const other = await createProject(db);
    await expect(leadVCard(db, other.ownerId, other.id, zoe!.id)).rejects.toMatchObject({ code: "not_found" });
  });
});


describeEachDialect("lead inbox input that no database could hold", (getDb) => {
  it("ignores a NUL in a filter or cursor and answers 'not found' for such a lead id", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    const { readLeadFilters } = await import("~/modules/leads/lead-forms");
    const filters = readLeadFilters(new URLSearchParams({ q: "a\u0000", event: "x\u0000", after: Buffer.from("2026-01-01T00:00:00.000Z|\u0000").toString("base64url") }));
    expect(filters).toMatchObject({ q: null, event: null });
    expect((await openLeadInbox(db, project.ownerId, project.id, filters)).leads).toHaveLength(1);
    await expect(leadVCard(db, project.ownerId, project.id, "lead\u0000")).rejects.toMatchObject({ code: "not_found" });
  });
});

describeEachDialect("one lead by its address (where founder alerts link)", (getDb) => {
  it("shows only the lead `?lead=` names, and nothing for another project's lead or an id that cannot be one", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" }, minutesAgo(2));
    await intro(db, project.id, { name: "Bo", email: "bo@example.com" }, minutesAgo(1));
    await intro(db, other.id, { name: "Zoe", email: "zoe@example.com" });
    const { readLeadFilters } = await import("~/modules/leads/lead-forms");
    const leadOf = (projectId: string, email: string) =>
      db.selectFrom("leads").select("id").where("project_id", "=", projectId).where("email", "=", email).executeTakeFirstOrThrow();
    const ada = await leadOf(project.id, "ada@example.com");
    const zoe = await leadOf(other.id, "zoe@example.com");

    const one = await openLeadInbox(db, project.ownerId, project.id, readLeadFilters(new URLSearchParams({ lead: ada.id })));
    expect(one.leads.map((lead) => lead.name)).toEqual(["Ada"]);
    expect(one.total).toBe(2);
    expect((await openLeadInbox(db, project.ownerId, project.id, readLeadFilters(new URLSearchParams({ lead: zoe.id })))).leads).toEqual([]);
    expect((await openLeadInbox(db, project.ownerId, project.id, readLeadFilters(new URLSearchParams({ lead: "x' or 1=1 --" })))).leads).toEqual([]);
    // Another founder cannot read it through the link.
    await expect(openLeadInbox(db, other.ownerId, project.id, readLeadFilters(new URLSearchParams({ lead: ada.id })))).rejects.toMatchObject({ code: "not_found" });
  });
});

describeEachDialect("the response clock", (getDb) => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 9, 0) + minutes * 60_000);
  const introAt = (db: Db, projectId: string, name: string, minutes: number) =>
    submitIntro(db, testMailLinks, projectId, parse(introSchema, { name, email: `${name.toLowerCase()}@example.com`, note: "Hello" }), {
      userId: null,
      sent: { at: at(minutes) },
    });

  it("starts at a lead's first action and stops at the founder's first status change, not at a note", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await introAt(db, project.id, "Ada", 0);
    await introAt(db, project.id, "Bo", 5);
    const ada = async () => (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, q: "ada@" })).leads[0]!;
    expect((await ada()).firstResponseAt).toBeNull();

    // A private note tells Ada nothing: she is still waiting.
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: (await ada()).id, status: "new", note: "Call her" }, at(10));
    expect((await ada()).firstResponseAt).toBeNull();
    // Contacted 18 minutes after her intro: that is the answer, and a later change does not move it.
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: (await ada()).id, status: "contacted", note: "Call her" }, at(18));
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: (await ada()).id, status: "meeting", note: null }, at(60));
    expect((await ada()).firstResponseAt).toBe(at(18).toISOString());
    expect((await ada()).firstSeenAt).toBe(at(0).toISOString());

    const inbox = await openLeadInbox(db, project.ownerId, project.id, ANY);
    expect(inbox.unanswered).toBe(1);

    // Two hours in, analytics: Ada answered within the hour; Bo, waiting 115 minutes, was not; the day is not over for him.
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id, at(120));
    expect(analytics.responseTimes).toEqual([
      { source: "unknown", name: "Not attributed", leads: 2, withinHour: { answered: 1, of: 2 }, withinDay: { answered: 1, of: 1 }, waiting: 1, medianMs: 18 * 60_000 },
    ]);
  });

  it("carries each person's status, temperature, founder's note and time to answer in the CSV, after the spec's columns", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await introAt(db, project.id, "Ana", 0);
    await introAt(db, project.id, "Bo", 5);
    const leadOf = async (q: string) => (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, q })).leads[0]!;
    const ana = await leadOf("ana@");
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: ana.id, status: "meeting", note: "=Coffee, Thursday" }, at(18));
    await setLeadTemperature(db, project.ownerId, project.id, parse(leadTemperatureSchema, { leadId: ana.id, temperature: "hot" }));

    const csv = await exportContactsCsv(db, project.ownerId, project.id);
    let text = "";
    for await (const chunk of csv.body) text += String(chunk);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header!.slice(0, 7)).toEqual(["Name", "Email", "Intent", "Role Tags", "LinkedIn", "Note", "Created At"]);
    const columns = ["Status", "Temperature", "Founder note", "First response at", "Minutes to first response"];
    expect(header!.slice(12, 17)).toEqual(columns);
    const byName = Object.fromEntries(rows.map((row) => [row[0], row.slice(12, 17)]));
    // The note is the founder's own, neutralised like every other cell a spreadsheet would run.
    expect(byName).toEqual({
      Ana: ["Meeting", "Hot", "'=Coffee, Thursday", at(18).toISOString(), "18"],
      Bo: ["New", "", "", "", ""],
    });
  });

  it("lists the unanswered, longest waiting first, a page at a time, each exactly once", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    // Created out of order; later activity must not reorder the waiting list.
    for (const [name, minutes] of [["Cy", 20], ["Ada", 0], ["Di", 30], ["Bo", 10], ["Eve", 40]] as const) await introAt(db, project.id, name, minutes);
    await introAt(db, project.id, "Ada", 50);
    const inbox = await openLeadInbox(db, project.ownerId, project.id, { ...ANY, view: "unanswered" });
    const di = inbox.leads.find((lead) => lead.name === "Di")!;
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: di.id, status: "passed", note: null }, at(60));

    const names: string[] = [];
    let after: string | null = null;
    do {
      const page = await openLeadInbox(db, project.ownerId, project.id, { ...ANY, view: "unanswered", after }, { pageSize: 2 });
      names.push(...page.leads.map((lead) => lead.name));
      expect(page.unanswered).toBe(4);
      after = page.nextCursor;
    } while (after);
    expect(names).toEqual(["Ada", "Bo", "Cy", "Eve"]);
    // The whole inbox still reads newest activity first.
    expect((await openLeadInbox(db, project.ownerId, project.id, ANY)).leads.map((lead) => lead.name)).toEqual(["Ada", "Eve", "Di", "Cy", "Bo"]);
  });
});

describeEachDialect("hot, warm or cold", (getDb) => {
  it("sorts hottest first, each temperature newest first (or longest waiting first), a page at a time, each lead once", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const temperatures: Record<string, LeadTemperature | null> = { Ada: "cold", Bo: "hot", Cy: null, Di: "warm", Eve: "hot", Fay: null };
    for (const [index, name] of Object.keys(temperatures).entries()) {
      await intro(db, project.id, { name, email: `${name.toLowerCase()}@example.com` }, minutesAgo(10 - index));
    }
    const leads = (await openLeadInbox(db, project.ownerId, project.id, ANY)).leads;
    for (const lead of leads) {
      const temperature = temperatures[lead.name];
      if (temperature) await setLeadTemperature(db, project.ownerId, project.id, parse(leadTemperatureSchema, { leadId: lead.id, temperature }));
    }
    const pagedNames = async (filters: Partial<LeadFilters>) => {
      const names: string[] = [];
      let after: string | null = null;
      do {
        const page = await openLeadInbox(db, project.ownerId, project.id, { ...ANY, ...filters, after }, { pageSize: 2 });
        names.push(...page.leads.map((lead) => lead.name));
        after = page.nextCursor;
      } while (after);
      return names;
    };
    expect(await pagedNames({ sort: "temperature" })).toEqual(["Eve", "Bo", "Di", "Ada", "Fay", "Cy"]);
    // Within the unanswered view: hottest first, then the longest waiting.
    expect(await pagedNames({ sort: "temperature", view: "unanswered" })).toEqual(["Bo", "Eve", "Di", "Ada", "Cy", "Fay"]);
    // The vCards download follows the same order.
    const exported: string[] = [];
    for await (const batch of iterateLeads(db, project.id, { ...ANY, sort: "temperature" })) exported.push(...batch.map((lead) => lead.name));
    expect(exported).toEqual(["Eve", "Bo", "Di", "Ada", "Fay", "Cy"]);
  });

  it("marks a lead in one step, filters by it, clears it, and refuses another project's lead without changing anything", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    await intro(db, project.id, { name: "Bo", email: "bo@example.com" });
    await intro(db, other.id, { name: "Cy", email: "cy@example.com" });
    const leadsOf = async (filters: Partial<LeadFilters> = {}) => (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, ...filters })).leads;
    const ada = (await leadsOf({ q: "ada@" }))[0]!;
    expect(ada.temperature).toBeNull();

    const input = (value: unknown, leadId = ada.id) => parse(leadTemperatureSchema, { leadId, temperature: value });
    await setLeadTemperature(db, project.ownerId, project.id, input("hot"));
    expect((await leadsOf({ temperature: "hot" })).map((lead) => lead.name)).toEqual(["Ada"]);
    expect(await leadsOf({ temperature: "cold" })).toEqual([]);
    // A temperature is the founder's private call, not an answer: Ada is still waiting.
    expect((await leadsOf({ q: "ada@" }))[0]).toMatchObject({ temperature: "hot", firstResponseAt: null });

    await setLeadTemperature(db, project.ownerId, project.id, input("none"));
    expect((await leadsOf({ q: "ada@" }))[0]!.temperature).toBeNull();

    expect(validate(leadTemperatureSchema, { leadId: ada.id, temperature: "lukewarm" })).toMatchObject({ ok: false, fieldErrors: { temperature: UNKNOWN_TEMPERATURE_MESSAGE } });
    const cy = (await openLeadInbox(db, other.ownerId, other.id, ANY)).leads[0]!;
    await expect(setLeadTemperature(db, project.ownerId, project.id, input("cold", cy.id))).rejects.toMatchObject({ code: "not_found" });
    await expect(setLeadTemperature(db, other.ownerId, project.id, input("cold"))).rejects.toMatchObject({ code: "not_found" });
    expect((await openLeadInbox(db, other.ownerId, other.id, ANY)).leads[0]!.temperature).toBeNull();
    expect((await leadsOf({ q: "ada@" }))[0]!.temperature).toBeNull();
  });
});

describeEachDialect("one qualifying question", (getDb) => {
  const question = (input: Record<string, unknown>) => validate(qualifyingQuestionSchema, input);

  it("checks the founder's question: text or two to six different answers, each bounded; empty removes it", () => {
    expect(question({ prompt: "", kind: "choice", options: [] })).toEqual({ ok: true, data: null });
    expect(question({ prompt: " What do you invest in? ", kind: "text" })).toEqual({ ok: true, data: { prompt: "What do you invest in?", options: [], required: false } });
    expect(question({ prompt: "Stage?", kind: "choice", options: ["Seed", "", "Series A", ""], required: "on" })).toEqual({
      ok: true,
      data: { prompt: "Stage?", options: ["Seed", "Series A"], required: true },
    });
    expect(question({ prompt: "x".repeat(201), kind: "text" })).toMatchObject({ ok: false, fieldErrors: { prompt: QUESTION_MESSAGES.promptTooLong } });
    expect(question({ prompt: "Stage?", kind: "choice", options: ["Seed", ""] })).toMatchObject({ ok: false, fieldErrors: { options: QUESTION_MESSAGES.tooFewOptions } });
    expect(question({ prompt: "Stage?", kind: "choice", options: ["Seed", "seed"] })).toMatchObject({ ok: false, fieldErrors: { options: QUESTION_MESSAGES.duplicateOption } });
    expect(question({ prompt: "Stage?", kind: "choice", options: ["1", "2", "3", "4", "5", "6", "7"] })).toMatchObject({
      ok: false,
      fieldErrors: { options: QUESTION_MESSAGES.tooManyOptions },
    });
    expect(question({ prompt: "Stage?", kind: "choice", options: ["Seed", "y".repeat(61)] })).toMatchObject({ ok: false, fieldErrors: { "options.1": QUESTION_MESSAGES.optionTooLong } });
    expect(question({ prompt: "Stage?", kind: "poll" })).toMatchObject({ ok: false, fieldErrors: { kind: QUESTION_MESSAGES.unknownKind } });
  });

  it("asks intro and signal senders, refuses a missing or unoffered answer without writing anything, and keeps the answer with the lead", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const intruder = await createUser(db);
    const stage = { prompt: "What stage do you invest in?", options: ["Pre-seed", "Seed", "Series A"], required: true };
    await expect(saveQualifyingQuestion(db, intruder, project.id, stage)).rejects.toMatchObject({ code: "not_found" });
    await saveQualifyingQuestion(db, project.ownerId, project.id, stage);
    expect((await loadLeadSettings(db, project.ownerId, project.id)).question).toEqual(stage);
    await addWebhookEndpoint(db, project.ownerId, project.id, { url: "http://127.0.0.1:9/hook" }, { allowPrivateTargets: true });

    await expect(intro(db, project.id, { name: "Ada", email: "ada@example.com" })).rejects.toMatchObject({
      code: "invalid_input",
      fieldErrors: { answer: QUESTION_MESSAGES.answerRequired },
    });
    await expect(intro(db, project.id, { name: "Ada", email: "ada@example.com", answer: "Growth" })).rejects.toMatchObject({
      fieldErrors: { answer: QUESTION_MESSAGES.unknownOption },
    });
    expect(await db.selectFrom("leads").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
    expect(await db.selectFrom("intros").select("id").where("project_id", "=", project.id).execute()).toEqual([]);

    await intro(db, project.id, { name: "Ada", email: "ada@example.com", answer: "Seed" }, minutesAgo(3));
    await signal(db, project.id, project.tiers[0]!.id, { name: "Bo", email: "bo@example.com", answer: "Series A" }, null, minutesAgo(2));
    // A subscription asks nothing and leaves Ada's answer standing.
    await subscribe(db, project.id, { name: "Ada", email: "ada@example.com" }, minutesAgo(1));

    const leadsOf = async (filters: Partial<LeadFilters> = {}) => (await openLeadInbox(db, project.ownerId, project.id, { ...ANY, ...filters })).leads;
    expect(Object.fromEntries((await leadsOf()).map((lead) => [lead.name, lead.answer]))).toEqual({
      Ada: { question: stage.prompt, answer: "Seed" },
      Bo: { question: stage.prompt, answer: "Series A" },
    });
    expect((await leadsOf({ answer: "Seed" })).map((lead) => lead.name)).toEqual(["Ada"]);
    expect((await openLeadInbox(db, project.ownerId, project.id, ANY)).question).toEqual(stage);

    // The CSV's column before 'Met in person', 'Phone' and the reading, the vCard's note and the webhook payload carry it.
    const csv = await exportContactsCsv(db, project.ownerId, project.id);
    let text = "";
    for await (const chunk of csv.body) text += String(chunk);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header!.slice(-5)).toEqual(["Qualifying answer", "Met in person", "Phone", "Pages read", "Seconds read"]);
    expect(Object.fromEntries(rows.map((row) => [row[0], row.at(-5)]))).toEqual({ Ada: "Seed", Bo: "Series A" });
    const vcards = await exportLeadVCards(db, project.ownerId, project.id, ANY);
    let cards = "";
    for await (const chunk of vcards.body) cards += String(chunk);
    expect(cards.replace(/\r\n /g, "")).toContain("What stage do you invest in? Seed");
    const payloads = await db.selectFrom("webhook_deliveries").select("payload").where("project_id", "=", project.id).execute();
    const answers = payloads.map((row) => JSON.parse(row.payload) as WebhookPayload).map((payload) => [payload.type, payload.action.kind === "subscription" ? null : payload.action.answer]);
    expect(answers).toEqual(
      expect.arrayContaining([
        ["lead.intro", { question: stage.prompt, answer: "Seed" }],
        ["lead.signal", { question: stage.prompt, answer: "Series A" }],
        ["lead.subscription", null],
      ]),
    );

    // Optional free text, then no question at all: nothing is refused, and an answer to nothing is not kept.
    await saveQualifyingQuestion(db, project.ownerId, project.id, { prompt: "Who should we meet?", options: [], required: false });
    await intro(db, project.id, { name: "Cy", email: "cy@example.com" });
    await saveQualifyingQuestion(db, project.ownerId, project.id, null);
    await intro(db, project.id, { name: "Di", email: "di@example.com", answer: "Seed" });
    expect((await leadsOf({ q: "cy@" }))[0]!.answer).toBeNull();
    expect((await leadsOf({ q: "di@" }))[0]!.answer).toBeNull();
  });
});

describeEachDialect("a viewer reads leads without their e-mail addresses", (getDb) => {
  async function joined(db: TestDatabase["db"], project: { id: string; ownerId: string }, role: "staff" | "viewer") {
    const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const id = await createUser(db, { email });
    await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role }));
    const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
    await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!);
    return id;
  }

  it("the inbox a viewer's page loads has no address, and searching by one finds nobody; staff and the owner see it", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const address = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada Lovelace", email: address, note: "Hello" }), anonymous);
    const viewer = await joined(db, project, "viewer");
    const staff = await joined(db, project, "staff");

    const seen = await openLeadInbox(db, viewer, project.id, ANY);
    expect(seen.leads.map((lead) => [lead.name, lead.email])).toEqual([["Ada Lovelace", null]]);
    expect(JSON.stringify(seen)).not.toContain(address);
    expect((await openLeadInbox(db, viewer, project.id, { ...ANY, q: "ada-" })).leads).toEqual([]);
    expect((await openLeadInbox(db, viewer, project.id, { ...ANY, q: "lovelace" })).leads).toHaveLength(1);
    await expect(leadVCard(db, viewer, project.id, seen.leads[0]!.id)).rejects.toMatchObject({ code: "forbidden" });

    for (const member of [staff, project.ownerId]) {
      const inbox = await openLeadInbox(db, member, project.id, { ...ANY, q: "ada-" });
      expect(inbox.leads.map((lead) => lead.email)).toEqual([address]);
    }
    expect(ROLE_DESCRIPTIONS.viewer).toBe("Reads analytics and leads without their contact addresses; no export");
  });
});
