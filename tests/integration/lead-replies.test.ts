import ICAL from "ical.js";
import pino from "pino";
import { expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { DomainError } from "~/modules/errors.server";
import { LEAD_NOT_FOUND_MESSAGE, type LeadFilters } from "~/modules/leads/lead-forms";
import { loadReplyTemplate, logLeadCall, openReplyComposer, saveReplyTemplate, sendLeadReply, type ReplyingFounder } from "~/modules/leads/replies/lead-replies.server";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import {
  leadReplySchema,
  MEETING_IN_PAST_MESSAGE,
  MEETING_LENGTH_MESSAGE,
  replyTemplateSchema,
  REPLY_TOO_LONG_MESSAGE,
  unknownPlaceholderMessage,
} from "~/modules/leads/replies/reply-form";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createSmtpTransport } from "~/modules/mail/transport.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";
import { startSmtpServer } from "../support/smtp";

type Db = TestDatabase["db"];
const ANY: LeadFilters = { action: null, event: null, status: null, q: null, after: null };
/** After the fixtures' intros (written at the real time), so the history's order is known. */
const NOW = new Date("2030-01-15T09:00:00.000Z");
const logger = pino({ level: "silent" });

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function projectWithLead(db: Db, name = "Ada Lovelace") {
  const ownerEmail = `founder-${crypto.randomUUID()}@example.com`;
  const ownerId = await createUser(db, { email: ownerEmail });
  const project = await createProject(db, { ownerId, title: "Harbor Cold Chain" });
  await db.updateTable("projects").set({ deck_url: "https://deck.example/harbor", calendly_url: null }).where("id", "=", project.id).execute();
  const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name, email, note: "Let's talk" }), { userId: null });
  const lead = (await openLeadInbox(db, ownerId, project.id, ANY)).leads[0]!;
  const founder: ReplyingFounder = { id: ownerId, name: "Grace Hopper", email: ownerEmail, timeZone: "Europe/Berlin" };
  return { project, lead, founder };
}

const reply = (fields: Record<string, string>) => parse(leadReplySchema, { subject: "Hello", body: "Hi Ada", ...fields });

describeEachDialect("replying from a lead", (getDb) => {
  it("fills the project's template for the lead: first name, pitch and deck links, a line without a booking link left out", async () => {
    const { db } = getDb();
    const { project, lead, founder } = await projectWithLead(db);
    const composer = await openReplyComposer(db, testMailLinks, founder, project.id, lead.id);
    expect(composer.subject).toBe("Harbor Cold Chain: following up");
    expect(composer.body).toBe(
      [
        "Hi Ada,",
        "",
        `Thanks for your interest in Harbor Cold Chain. Here is our pitch: https://pitch.example/pitch/${project.slug}`,
        "Our deck: https://deck.example/harbor",
        "",
        "Best,",
        "Grace Hopper",
      ].join("\n"),
    );

    await saveReplyTemplate(db, founder.id, project.id, parse(replyTemplateSchema, { subject: "About {project_title}", body: "Dear {first_name}, book me: {booking_link}\nSee {pitch_link}" }));
    await db.updateTable("projects").set({ calendly_url: "https://cal.example/grace" }).where("id", "=", project.id).execute();
    const custom = await openReplyComposer(db, testMailLinks, founder, project.id, lead.id);
    expect(custom.subject).toBe("About Harbor Cold Chain");
    expect(custom.body).toBe(`Dear Ada, book me: https://cal.example/grace\nSee https://pitch.example/pitch/${project.slug}`);
    expect((await loadReplyTemplate(db, testMailLinks, founder.id, project.id)).custom).toBe(true);
  });

  it("refuses a template with an unknown placeholder, a reply over 10,000 characters and a meeting over 8 hours, with clear messages", () => {
    const template = validate(replyTemplateSchema, { subject: "Hi {firstname}", body: "Hello {first_name} {deck}" });
    expect(template.ok).toBe(false);
    if (!template.ok) {
      expect(template.fieldErrors.subject).toBe(unknownPlaceholderMessage(["{firstname}"]));
      expect(template.fieldErrors.body).toBe(unknownPlaceholderMessage(["{deck}"]));
      expect(template.fieldErrors.body).toContain("use {first_name}, {project_title}, {pitch_link}, {deck_link}, {booking_link}, {founder_name}");
    }
    const long = validate(leadReplySchema, { subject: "Hi", body: "x".repeat(10_001) });
    expect(long.ok ? null : long.fieldErrors.body).toBe(REPLY_TOO_LONG_MESSAGE);
    const marathon = validate(leadReplySchema, { subject: "Hi", body: "Hi", proposeMeeting: "on", meetingDate: "2026-12-03", meetingTime: "10:00", meetingMinutes: "481" });
    expect(marathon.ok ? null : marathon.fieldErrors.meetingMinutes).toBe(MEETING_LENGTH_MESSAGE);
    expect(validate(leadReplySchema, { subject: "Hi", body: "x".repeat(10_000) }).ok).toBe(true);
  });

  it("sends the reply through the outbox with Reply-To the founder and an invitation the calendar reads at the right instant; history, Meeting and first response follow", async () => {
    const { db } = getDb();
    const { project, lead, founder } = await projectWithLead(db);
    const smtp = await startSmtpServer();
    const worker = new MailWorker(db, createSmtpTransport(smtp.url, "PitchQR <pitch@pitchqr.test>"), logger, { clock: () => NOW });
    try {
      const sent = await sendLeadReply(
        db,
        testMailLinks,
        founder,
        project.id,
        lead.id,
        reply({ subject: "Coffee next week?", body: "Hi Ada,\nShall we meet?", proposeMeeting: "on", meetingDate: "2030-01-17", meetingTime: "14:30", meetingMinutes: "45" }),
        NOW,
      );
      expect(sent.status).toBe("meeting");
      // The outbox also holds the fixtures' intro alerts and confirmations.
      expect(await worker.runOnce()).toBeGreaterThanOrEqual(1);
      const mail = smtp.received.find((received) => received.subject === "Coffee next week?");
      expect(mail?.subject).toBe("Coffee next week?");
      expect(mail?.from?.text).toBe('"PitchQR" <pitch@pitchqr.test>');
      expect(mail?.replyTo?.value.map((address) => address.address)).toEqual([founder.email]);
      expect(mail?.text).toContain("Hi Ada,\nShall we meet?");
      expect(mail?.text).toContain("Proposed meeting: Jan 17, 2030, 2:30 PM (Europe/Berlin), 45 minutes.");
      const invitation = mail?.attachments.find((attachment) => attachment.contentType === "text/calendar");
      // The `method=REQUEST` parameter is what mail programs read as 'this is an invitation'.
      expect(invitation?.headers.get("content-type")).toMatchObject({ value: "text/calendar", params: { method: "REQUEST" } });
      const ics = invitation?.content.toString("utf8") ?? "";
      expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
      const calendar = new ICAL.Component(ICAL.parse(ics));
      expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
      for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
      const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
      expect(event.startDate.toJSDate().toISOString()).toBe("2030-01-17T13:30:00.000Z");
      expect(event.endDate.toJSDate().toISOString()).toBe("2030-01-17T14:15:00.000Z");
      expect(event.startDate.zone?.tzid).toBe("Europe/Berlin");
      expect(event.uid).toBe(`${sent.followUpId}@pitchqr`);
      expect(event.organizer).toBe(`mailto:${founder.email}`);
      expect(event.attendees.map((attendee) => attendee.getFirstValue())).toEqual([`mailto:${lead.email}`]);

      const after = (await openLeadInbox(db, founder.id, project.id, { ...ANY, lead: lead.id })).leads[0]!;
      expect(after.status).toBe("meeting");
      expect(after.firstResponseAt).toBe(NOW.toISOString());
      expect(after.activity[0]).toEqual({
        kind: "reply",
        at: NOW.toISOString(),
        by: { name: "Founder", you: true },
        subject: "Coffee next week?",
        body: "Hi Ada,\nShall we meet?\n\nProposed meeting: Jan 17, 2030, 2:30 PM (Europe/Berlin), 45 minutes. The invitation is attached.",
        meeting: { startsAt: "2030-01-17T13:30:00.000Z", minutes: 45, timeZone: "Europe/Berlin" },
      });
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it("a plain reply makes a new lead Contacted and keeps the first response; a later one moves nothing; a logged call is history", async () => {
    const { db } = getDb();
    const { project, lead, founder } = await projectWithLead(db);
    await sendLeadReply(db, testMailLinks, founder, project.id, lead.id, reply({}), NOW);
    const later = new Date(NOW.getTime() + 3_600_000);
    await sendLeadReply(db, testMailLinks, founder, project.id, lead.id, reply({ subject: "Again" }), later);
    await logLeadCall(db, founder.id, project.id, { leadId: lead.id, note: "Voicemail" }, new Date(later.getTime() + 60_000));
    const view = (await openLeadInbox(db, founder.id, project.id, { ...ANY, lead: lead.id })).leads[0]!;
    expect(view.status).toBe("contacted");
    expect(view.firstResponseAt).toBe(NOW.toISOString());
    expect(view.activity.slice(0, 3).map((item) => [item.kind, item.at])).toEqual([
      ["call", new Date(later.getTime() + 60_000).toISOString()],
      ["reply", later.toISOString()],
      ["reply", NOW.toISOString()],
    ]);
    const mails = await db.selectFrom("mail_outbox").select(["recipient", "reply_to", "calendar_ics", "kind"]).where("recipient", "=", lead.email).where("kind", "=", "lead-reply").execute();
    expect(mails).toEqual([
      { recipient: lead.email, reply_to: founder.email, calendar_ics: null, kind: "lead-reply" },
      { recipient: lead.email, reply_to: founder.email, calendar_ics: null, kind: "lead-reply" },
    ]);
  });

  it("a logged call alone counts as the first response", async () => {
    const { db } = getDb();
    const { project, lead, founder } = await projectWithLead(db);
    await logLeadCall(db, founder.id, project.id, { leadId: lead.id, note: null }, NOW);
    const view = (await openLeadInbox(db, founder.id, project.id, { ...ANY, lead: lead.id })).leads[0]!;
    expect([view.status, view.firstResponseAt, view.activity[0]]).toEqual(["contacted", NOW.toISOString(), { kind: "call", at: NOW.toISOString(), by: { name: "Founder", you: true }, note: null }]);
  });

  it("refuses a meeting in the past, and another founder's lead is not found; nothing is sent or recorded", async () => {
    const { db } = getDb();
    const { project, lead, founder } = await projectWithLead(db);
    const other = await projectWithLead(db, "Eve Mallory");
    const past = await sendLeadReply(db, testMailLinks, founder, project.id, lead.id, reply({ proposeMeeting: "on", meetingDate: "2030-01-15", meetingTime: "09:59", meetingMinutes: "30" }), NOW).catch((e: unknown) => e);
    expect(past).toBeInstanceOf(DomainError);
    expect(past).toMatchObject({ code: "invalid_input", message: MEETING_IN_PAST_MESSAGE, fieldErrors: { meetingDate: MEETING_IN_PAST_MESSAGE } });

    const crossProject = await sendLeadReply(db, testMailLinks, founder, project.id, other.lead.id, reply({}), NOW).catch((e: unknown) => e);
    expect(crossProject).toMatchObject({ code: "not_found", message: LEAD_NOT_FOUND_MESSAGE });
    const crossOwner = await sendLeadReply(db, testMailLinks, founder, other.project.id, other.lead.id, reply({}), NOW).catch((e: unknown) => e);
    expect(crossOwner).toMatchObject({ code: "not_found" });
    // Ownership is checked before anything about the input is told.
    const crossOwnerPast = await sendLeadReply(
      db,
      testMailLinks,
      founder,
      other.project.id,
      other.lead.id,
      reply({ proposeMeeting: "on", meetingDate: "2030-01-15", meetingTime: "09:59", meetingMinutes: "30" }),
      NOW,
    ).catch((e: unknown) => e);
    expect(crossOwnerPast).toMatchObject({ code: "not_found" });
    const composer = await openReplyComposer(db, testMailLinks, founder, other.project.id, other.lead.id).catch((e: unknown) => e);
    expect(composer).toMatchObject({ code: "not_found" });
    const call = await logLeadCall(db, founder.id, project.id, { leadId: other.lead.id, note: null }).catch((e: unknown) => e);
    expect(call).toMatchObject({ code: "not_found" });

    expect(await db.selectFrom("lead_follow_ups").select("id").where("lead_id", "in", [lead.id, other.lead.id]).execute()).toEqual([]);
    expect(await db.selectFrom("mail_outbox").select("id").where("recipient", "in", [lead.email, other.lead.email]).where("kind", "=", "lead-reply").execute()).toEqual([]);
    const untouched = (await openLeadInbox(db, other.founder.id, other.project.id, ANY)).leads[0]!;
    expect([untouched.status, untouched.firstResponseAt]).toEqual(["new", null]);
    expect((await openLeadInbox(db, founder.id, project.id, ANY)).leads[0]!.firstResponseAt).toBeNull();
  });
});
