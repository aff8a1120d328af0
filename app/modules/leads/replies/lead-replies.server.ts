import type { Kysely } from "kysely";
import type { Database, LeadStatus } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import { isRecordId } from "~/modules/http/id-shape";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectAction, ProjectRole } from "~/modules/access/roles";
import { zonedInstant } from "~/modules/time/zoned-slots";
import { LEAD_NOT_FOUND_MESSAGE, NO_EMAIL_TO_REPLY_MESSAGE } from "~/modules/leads/lead-forms";
import { meetingInviteIcs } from "./meeting-invite.server";
import { enforceReplyLimits } from "~/modules/leads/outreach-limits.server";
import { isMetOnly, replyMail, replyReasonOf } from "./reply-mail.server";
import {
  DEFAULT_REPLY_TEMPLATE,
  fillTemplate,
  firstNameOf,
  MEETING_IN_PAST_MESSAGE,
  type LeadCallInput,
  type LeadReplyInput,
  type ReplyTemplateInput,
  type TemplateValues,
} from "./reply-form";

/** The signed-in founder who replies: their address is the reply's Reply-To and the invitation's organizer. */
export type ReplyingFounder = { id: string; name: string; email: string; timeZone: string };

export const LEAD_REPLY_MAIL_KIND = "lead-reply";

type ProjectLinks = { id: string; title: string; slug: string; deck_url: string | null; calendly_url: string | null; role: ProjectRole };

async function projectWithLinks(db: Kysely<Database>, userId: string, projectId: string, action: ProjectAction): Promise<ProjectLinks> {
  const project = await requireProjectRole(db, userId, projectId, action);
  const links = await db.selectFrom("projects").select(["id", "title", "slug", "deck_url", "calendly_url"]).where("id", "=", project.id).executeTakeFirstOrThrow();
  return { ...links, role: project.role };
}

async function ownedLead(db: Kysely<Database>, projectId: string, leadId: string) {
  const lead = isRecordId(leadId)
    ? await db.selectFrom("leads").select(["id", "name", "email", "status", "did_intro", "did_signal", "did_subscribe"]).where("id", "=", leadId).where("project_id", "=", projectId).executeTakeFirst()
    : undefined;
  if (!lead) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  return lead;
}

/** A lead to write to: refused (`conflict`) while it has no e-mail, a person met without one (decision 92). */
async function replyableLead(db: Kysely<Database>, projectId: string, leadId: string) {
  const lead = await ownedLead(db, projectId, leadId);
  const email = lead.email;
  if (email === null) throw new DomainError("conflict", NO_EMAIL_TO_REPLY_MESSAGE);
  return { ...lead, email };
}

async function readTemplate(db: Kysely<Database>, projectId: string): Promise<{ template: ReplyTemplateInput; custom: boolean }> {
  const row = await db.selectFrom("project_reply_templates").select(["subject", "body"]).where("project_id", "=", projectId).executeTakeFirst();
  return row ? { template: row, custom: true } : { template: DEFAULT_REPLY_TEMPLATE, custom: false };
}

/** The project's follow-up template for its editor, with the links it would fill in. */
export async function loadReplyTemplate(db: Kysely<Database>, links: MailLinks, ownerId: string, projectId: string) {
  const project = await projectWithLinks(db, ownerId, projectId, "settings");
  const { template, custom } = await readTemplate(db, project.id);
  return {
    project: { id: project.id, title: project.title },
    projectRole: project.role,
    template,
    custom,
    links: { pitch: links.pitchUrl(project.slug), deck: project.deck_url, booking: project.calendly_url },
  };
}

/** Saves the project's template (placeholders already checked by `replyTemplateSchema`). */
export async function saveReplyTemplate(db: Kysely<Database>, ownerId: string, projectId: string, input: ReplyTemplateInput, now = new Date()) {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  const values = { subject: input.subject, body: input.body, updated_at: now.toISOString() };
  await db
    .insertInto("project_reply_templates")
    .values({ project_id: project.id, ...values })
    .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
    .execute();
}

/** The composer for one lead: the template filled in for them, and where its mail goes. */
export async function openReplyComposer(db: Kysely<Database>, links: MailLinks, founder: ReplyingFounder, projectId: string, leadId: string) {
  const project = await projectWithLinks(db, founder.id, projectId, "triage");
  const lead = await replyableLead(db, project.id, leadId);
  const { template } = await readTemplate(db, project.id);
  const values: TemplateValues = {
    first_name: firstNameOf(lead.name),
    project_title: project.title,
    pitch_link: links.pitchUrl(project.slug),
    deck_link: project.deck_url,
    booking_link: project.calendly_url,
    founder_name: founder.name,
  };
  return {
    project: { id: project.id, title: project.title, role: project.role },
    lead,
    subject: fillTemplate(template.subject, values),
    body: fillTemplate(template.body, values),
    timeZone: founder.timeZone,
  };
}

/** Reply without an invitation: a lead that is new (or passed) has now been contacted; a meeting stays a meeting. */
function statusAfterReply(current: LeadStatus, withInvite: boolean): LeadStatus {
  if (withInvite) return "meeting";
  return current === "meeting" ? "meeting" : "contacted";
}

function meetingOf(input: LeadReplyInput, timeZone: string, now: Date): { startsAt: Date; minutes: number } | null {
  if (!input.proposeMeeting) return null;
  const [year, month, day] = (input.meetingDate ?? "").split("-").map(Number);
  const [hour, minute] = (input.meetingTime ?? "").split(":").map(Number);
  const startsAt = zonedInstant(year!, month!, day!, hour!, minute!, timeZone);
  if (startsAt.getTime() <= now.getTime()) throw new DomainError("invalid_input", MEETING_IN_PAST_MESSAGE, { meetingDate: MEETING_IN_PAST_MESSAGE });
  return { startsAt, minutes: Number(input.meetingMinutes) };
}

/**
 * Sends the founder's reply to a lead through the outbox (from MAIL_FROM, Reply-To the founder, naming who wrote it
 * and why the lead gets it), with a calendar invitation when a meeting is proposed, and in the same transaction
 * records it in the lead's history, moves the lead to Contacted (Meeting with an invitation) and sets its first
 * response if unset (decision 55). A lead of another project, or a project of another founder, is 'not found' (checked
 * first), a meeting not in the future is refused, and so is a reply past the account's or the project's limits
 * (decision 77): nothing is sent or recorded.
 */
export async function sendLeadReply(
  db: Kysely<Database>,
  links: MailLinks,
  founder: ReplyingFounder,
  projectId: string,
  leadId: string,
  input: LeadReplyInput,
  now = new Date(),
): Promise<{ followUpId: string; mailId: string; status: LeadStatus }> {
  return db.transaction().execute(async (trx) => {
    const project = await projectWithLinks(trx, founder.id, projectId, "triage");
    const lead = await replyableLead(trx, project.id, leadId);
    const meeting = meetingOf(input, founder.timeZone, now);
    const toMetOnly = isMetOnly(lead);
    await enforceReplyLimits(trx, { authorId: founder.id, projectId: project.id, timeZone: founder.timeZone }, toMetOnly, now);
    const followUpId = crypto.randomUUID();
    const meetingLine = meeting
      ? `Proposed meeting: ${formatFounderDateTime(meeting.startsAt.toISOString(), founder.timeZone)} (${founder.timeZone}), ${meeting.minutes} minutes. The invitation is attached.`
      : null;
    const text = meetingLine ? `${input.body}\n\n${meetingLine}` : input.body;
    const calendarIcs = meeting
      ? meetingInviteIcs({
          uid: `${followUpId}@pitchqr`,
          stampedAt: now,
          startsAt: meeting.startsAt,
          minutes: meeting.minutes,
          timeZone: founder.timeZone,
          summary: `${project.title}: ${lead.name} and ${founder.name}`,
          description: `${input.subject}\n${links.pitchUrl(project.slug)}`,
          organizer: { name: founder.name, email: founder.email },
          attendee: { name: lead.name, email: lead.email },
        })
      : null;
    const reason = await replyReasonOf(trx, project.id, lead);
    const mail = replyMail({ kind: LEAD_REPLY_MAIL_KIND, to: lead.email, subject: input.subject, text, founder, projectTitle: project.title, reason, calendarIcs });
    const mailId = await enqueueMail(trx, mail, now);
    await trx
      .insertInto("lead_follow_ups")
      .values({
        id: followUpId,
        project_id: project.id,
        lead_id: lead.id,
        kind: "reply",
        author_id: founder.id,
        subject: input.subject,
        body: text,
        meeting_starts_at: meeting?.startsAt.toISOString() ?? null,
        meeting_minutes: meeting?.minutes ?? null,
        meeting_time_zone: meeting ? founder.timeZone : null,
        mail_id: mailId,
        to_met_only: toMetOnly,
        created_at: now.toISOString(),
      })
      .execute();
    const status = statusAfterReply(lead.status, meeting !== null);
    await markResponded(trx, lead.id, now, status);
    return { followUpId, mailId, status };
  });
}

/**
 * 'Log a call': a line in the lead's history that counts as the founder's response (decision 55); a new lead has now
 * been contacted.
 */
export async function logLeadCall(db: Kysely<Database>, founderId: string, projectId: string, input: LeadCallInput, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const project = await requireProjectRole(trx, founderId, projectId, "triage");
    const lead = await ownedLead(trx, project.id, input.leadId);
    await trx
      .insertInto("lead_follow_ups")
      .values({
        id: crypto.randomUUID(),
        project_id: project.id,
        lead_id: lead.id,
        kind: "call",
        author_id: founderId,
        subject: null,
        body: input.note,
        meeting_starts_at: null,
        meeting_minutes: null,
        meeting_time_zone: null,
        mail_id: null,
        created_at: now.toISOString(),
      })
      .execute();
    await markResponded(trx, lead.id, now, lead.status === "new" ? "contacted" : lead.status);
  });
}

/** The lead heard from the founder: its status, and the response clock stopped if it was running (decision 55). */
async function markResponded(trx: Kysely<Database>, leadId: string, now: Date, status: LeadStatus) {
  await trx
    .updateTable("leads")
    .set((eb) => ({ status, triaged_at: now.toISOString(), first_response_at: eb.fn.coalesce("first_response_at", eb.val(now.toISOString())) }))
    .where("id", "=", leadId)
    .execute();
}
