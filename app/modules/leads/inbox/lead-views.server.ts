import type { Kysely } from "kysely";
import type { Database, LeadStatus } from "~/db/schema";
import { nameSource } from "~/modules/analytics/sources.server";
import type { SourceName } from "~/modules/analytics/source-names";
import type { LeadTemperature } from "~/modules/formats/lead-triage";
import { capturesOf } from "~/modules/leads/capture/lead-captures.server";
import type { LeadAction } from "~/modules/leads/lead-forms";
import type { SignalDetails } from "~/modules/signals/signal-form";
import type { LeadReading } from "~/modules/deck-reading/reading-text";
import type { QualifyingAnswer } from "./qualifying-answer";

export type LeadActivityItem =
  | { kind: "intro"; at: string; roleTags: string[]; linkedinUrl: string | null; note: string | null }
  /** `at` is null when they followed from an earlier contact (an intro or signal), whose row keeps no date for it. */
  | { kind: "subscription"; at: string | null }
  | ({ kind: "signal"; at: string } & SignalDetails)
  /** A team member's reply (decision 57), as sent, with the meeting it proposed. */
  | { kind: "reply"; at: string; by: LeadActor; subject: string; body: string; meeting: { startsAt: string; minutes: number; timeZone: string } | null }
  /** A call a team member logged, with its optional note. */
  | { kind: "call"; at: string; by: LeadActor; note: string | null }
  /** A team member changed the lead's status, temperature or note (decision 61); `value` is the new one. */
  | { kind: "change"; at: string; by: LeadActor; field: "status" | "temperature" | "note"; value: string | null }
  /** Met in person and added by a team member at the booth or from the inbox (decision 62). */
  | { kind: "met"; at: string; event: string; addedBy: string; note: string | null; linkedinUrl: string | null };

/** Who on the team did something to a lead: their name, and whether it is the person looking (they read "You"). */
export type LeadActor = { name: string; you: boolean };

/** A lead with their address, as an export (vCards) needs it. */
export type LeadWithAddress = {
  id: string;
  name: string;
  /** Null for a person met in person without an e-mail (decision 92), until the team adds one. */
  email: string | null;
  /** The phone number the newest capture that has one was given (decision 92). */
  phone: string | null;
  firstSeenAt: string;
  lastActivityAt: string;
  actions: LeadAction[];
  /** Where they came from (their first attributed action), named as the CSV and the funnel name it (decision 54). */
  event: SourceName;
  /** Whether any of their contacts still follows updates (they may have unsubscribed since). */
  following: boolean;
  linkedinUrl: string | null;
  status: LeadStatus;
  note: string | null;
  /** The founder's first response (a status change, a reply or a logged call), null while they wait: the response clock. */
  firstResponseAt: string | null;
  /**
   * Since when they wait for the founder: their first action, or when a person met in person was marked as awaiting
   * a follow-up; null for someone only met in person, who waits for nobody (decision 84).
   */
  awaitingSince: string | null;
  temperature: LeadTemperature | null;
  /** Their latest answer to the project's qualifying question, with the question as asked. */
  answer: QualifyingAnswer | null;
  /** What they did, and what the founder sent or logged, newest first. */
  activity: LeadActivityItem[];
};

/** A lead as the inbox shows it: no address for a member whose role may not see it (a viewer), so the page never has it. */
export type LeadView = LeadWithAddress & {
  /** Whether the lead has an e-mail to reply to, also for a role that is not shown it. */
  hasEmail: boolean;
  /** What they read of the deck on the page now; null when they read none of it. */
  reading: LeadReading | null;
};

export type LeadRow = {
  id: string;
  email: string | null;
  name: string;
  first_seen_at: string;
  last_activity_at: string;
  did_intro: boolean;
  did_subscribe: boolean;
  did_signal: boolean;
  source: string;
  status: LeadStatus;
  note: string | null;
  first_response_at: string | null;
  awaiting_since: string | null;
  temperature: LeadTemperature | null;
  question: string | null;
  answer: string | null;
  /** Their reading time in milliseconds, selected only when the inbox is sorted by it (the next page's cursor). */
  reading_ms?: number | string | null;
};

/** What each lead did, from their contact, its intros and its signals, newest first. */
async function activityOf(db: Kysely<Database>, projectId: string, emails: string[]) {
  const byEmail = new Map<string, { activity: LeadActivityItem[]; following: boolean; linkedinUrl: string | null }>();
  if (emails.length === 0) return byEmail;
  const contacts = await db
    .selectFrom("contacts")
    .select(["id", "email", "intent", "subscribed", "linkedin_url", "created_at"])
    .where("project_id", "=", projectId)
    .where("email", "in", emails)
    .execute();
  const contactIds = contacts.map((contact) => contact.id);
  if (contactIds.length === 0) return byEmail;
  const [intros, signals] = await Promise.all([
    db
      .selectFrom("intros")
      .select(["id", "contact_id", "role_tags", "linkedin_url", "note", "created_at"])
      .where("contact_id", "in", contactIds)
      .execute(),
    db
      .selectFrom("signals")
      .select(["id", "contact_id", "range_label", "range_min", "range_max", "message", "is_public", "message_public", "created_at"])
      .where("contact_id", "in", contactIds)
      .execute(),
  ]);
  const entryOf = new Map<string, { activity: LeadActivityItem[]; following: boolean; linkedinUrl: string | null }>();
  for (const contact of contacts) {
    const entry = { activity: [] as LeadActivityItem[], following: Boolean(contact.subscribed), linkedinUrl: contact.linkedin_url };
    // A contact created by subscribing dates the subscription; a later one has no date of its own.
    if (contact.intent === "Subscriber") entry.activity.push({ kind: "subscription", at: contact.created_at });
    byEmail.set(contact.email, entry);
    entryOf.set(contact.id, entry);
  }
  for (const intro of intros) {
    entryOf.get(intro.contact_id)?.activity.push({ kind: "intro", at: intro.created_at, roleTags: intro.role_tags, linkedinUrl: intro.linkedin_url, note: intro.note });
  }
  for (const signal of signals) {
    entryOf.get(signal.contact_id)?.activity.push({
      kind: "signal",
      at: signal.created_at,
      rangeLabel: signal.range_label,
      rangeMin: Number(signal.range_min),
      rangeMax: signal.range_max === null ? null : Number(signal.range_max),
      message: signal.message,
      isPublic: Boolean(signal.is_public),
      messagePublic: Boolean(signal.message_public),
    });
  }
  for (const entry of byEmail.values()) entry.activity.sort((a, b) => (b.at ?? "").localeCompare(a.at ?? ""));
  return byEmail;
}

function actorOf(author: { id: string | null; name: string | null; email: string | null }, viewerId: string | null): LeadActor {
  return { name: author.name || author.email || "A former member", you: author.id !== null && author.id === viewerId };
}

/** What the team sent or logged for each lead (decision 57), and who changed its triage (decision 61), by lead id. */
async function followUpsOf(db: Kysely<Database>, leadIds: string[], viewerId: string | null): Promise<Map<string, LeadActivityItem[]>> {
  const byLead = new Map<string, LeadActivityItem[]>();
  if (leadIds.length === 0) return byLead;
  const [rows, changes] = await Promise.all([
    db
      .selectFrom("lead_follow_ups")
      .leftJoin("users", "users.id", "lead_follow_ups.author_id")
      .select([
        "lead_follow_ups.lead_id",
        "lead_follow_ups.kind",
        "lead_follow_ups.subject",
        "lead_follow_ups.body",
        "lead_follow_ups.meeting_starts_at",
        "lead_follow_ups.meeting_minutes",
        "lead_follow_ups.meeting_time_zone",
        "lead_follow_ups.created_at",
        "users.id as author_id",
        "users.name as author_name",
        "users.email as author_email",
      ])
      .where("lead_follow_ups.lead_id", "in", leadIds)
      .execute(),
    db
      .selectFrom("lead_events")
      .leftJoin("users", "users.id", "lead_events.actor_id")
      .select(["lead_events.lead_id", "lead_events.kind", "lead_events.value", "lead_events.created_at", "users.id as author_id", "users.name as author_name", "users.email as author_email"])
      .where("lead_events.lead_id", "in", leadIds)
      .orderBy("lead_events.created_at")
      .orderBy("lead_events.kind")
      .orderBy("lead_events.id")
      .execute(),
  ]);
  const add = (leadId: string, item: LeadActivityItem) => byLead.set(leadId, [...(byLead.get(leadId) ?? []), item]);
  for (const row of changes) {
    const by = actorOf({ id: row.author_id, name: row.author_name, email: row.author_email }, viewerId);
    add(row.lead_id, { kind: "change", at: row.created_at, by, field: row.kind, value: row.value });
  }
  for (const row of rows) {
    const by = actorOf({ id: row.author_id, name: row.author_name, email: row.author_email }, viewerId);
    const item: LeadActivityItem =
      row.kind === "call"
        ? { kind: "call", at: row.created_at, by, note: row.body }
        : {
            kind: "reply",
            at: row.created_at,
            by,
            subject: row.subject ?? "",
            body: row.body ?? "",
            meeting:
              row.meeting_starts_at && row.meeting_minutes !== null
                ? { startsAt: row.meeting_starts_at, minutes: Number(row.meeting_minutes), timeZone: row.meeting_time_zone ?? "UTC" }
                : null,
          };
    add(row.lead_id, item);
  }
  return byLead;
}

export async function toLeadViews(
  db: Kysely<Database>,
  projectId: string,
  rows: LeadRow[],
  codeNames: ReadonlyMap<string, string>,
  viewerId: string | null,
): Promise<LeadWithAddress[]> {
  const ids = rows.map((row) => row.id);
  const [activity, followUps, captures] = await Promise.all([
    activityOf(db, projectId, rows.flatMap((row) => (row.email === null ? [] : [row.email]))),
    followUpsOf(db, ids, viewerId),
    capturesOf(db, projectId, ids, codeNames),
  ]);
  return rows.map((row) => {
    const done = row.email === null ? undefined : activity.get(row.email);
    const met = captures.get(row.id) ?? [];
    const sent = [
      ...(followUps.get(row.id) ?? []),
      ...met.map((capture): LeadActivityItem => ({ kind: "met", at: capture.at, event: capture.event, addedBy: capture.addedBy, note: capture.note, linkedinUrl: capture.linkedinUrl })),
    ];
    const items = sent.length ? [...(done?.activity ?? []), ...sent].sort((a, b) => (b.at ?? "").localeCompare(a.at ?? "")) : (done?.activity ?? []);
    if (row.did_subscribe && !items.some((item) => item.kind === "subscription")) items.unshift({ kind: "subscription", at: null });
    const actions: LeadAction[] = [];
    if (row.did_intro) actions.push("intro");
    if (row.did_subscribe) actions.push("subscription");
    if (row.did_signal) actions.push("signal");
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: met.find((capture) => capture.phone)?.phone ?? null,
      firstSeenAt: row.first_seen_at,
      lastActivityAt: row.last_activity_at,
      actions,
      event: nameSource(row.source, codeNames),
      following: done?.following ?? false,
      linkedinUrl: done?.linkedinUrl ?? met.find((capture) => capture.linkedinUrl)?.linkedinUrl ?? null,
      status: row.status,
      note: row.note,
      firstResponseAt: row.first_response_at,
      awaitingSince: row.awaiting_since,
      temperature: row.temperature,
      answer: row.question !== null && row.answer !== null ? { question: row.question, answer: row.answer } : null,
      activity: items,
    };
  });
}
