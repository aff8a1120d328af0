import { z } from "zod/mini";
import { checkbox, optionalText, requiredText } from "~/modules/forms/fields";

/**
 * Replying from a lead (decision 57): the project's follow-up template, the composer it fills, and a
 * logged call. One schema per form, run by the browser and the server.
 */

export const REPLY_SUBJECT_MAX_LENGTH = 200;
export const REPLY_MAX_LENGTH = 10_000;
export const MEETING_MIN_MINUTES = 15;
export const MEETING_MAX_MINUTES = 8 * 60;
export const MEETING_LENGTHS = [15, 30, 45, 60, 90, 120] as const;
export const CALL_NOTE_MAX_LENGTH = 2_000;

/** What a template may name, each filled in for the lead and the project. */
export const TEMPLATE_PLACEHOLDERS = ["first_name", "project_title", "pitch_link", "deck_link", "booking_link", "founder_name"] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

export const REPLY_TOO_LONG_MESSAGE = `A reply must be at most ${REPLY_MAX_LENGTH.toLocaleString("en-US")} characters`;
export const SUBJECT_TOO_LONG_MESSAGE = `The subject must be at most ${REPLY_SUBJECT_MAX_LENGTH} characters`;
export const SUBJECT_REQUIRED_MESSAGE = "Write a subject";
export const REPLY_REQUIRED_MESSAGE = "Write your reply";
export const MEETING_DATE_MESSAGE = "Choose the meeting's date";
export const MEETING_TIME_MESSAGE = "Choose the meeting's start time";
export const MEETING_LENGTH_MESSAGE = `A meeting lasts from ${MEETING_MIN_MINUTES} minutes to ${MEETING_MAX_MINUTES / 60} hours`;
export const MEETING_IN_PAST_MESSAGE = "The meeting must start in the future";
export const CALL_NOTE_TOO_LONG_MESSAGE = `A call note must be at most ${CALL_NOTE_MAX_LENGTH.toLocaleString("en-US")} characters`;

const PLACEHOLDER_PATTERN = /\{([^{}\s]{0,40})\}/g;

/** The `{names}` a text uses that the template does not know. */
export function unknownPlaceholders(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(match[1] ?? "")) unknown.add(`{${match[1]}}`);
  }
  return [...unknown];
}

export function unknownPlaceholderMessage(unknown: string[]): string {
  return `Unknown placeholder ${unknown.join(", ")}: use ${TEMPLATE_PLACEHOLDERS.map((name) => `{${name}}`).join(", ")}`;
}

const templateText = (max: number, tooLong: string, required: string) =>
  requiredText(max, tooLong, required).check(
    z.superRefine((value: string, ctx) => {
      const unknown = unknownPlaceholders(value);
      if (unknown.length) ctx.issues.push({ code: "custom", message: unknownPlaceholderMessage(unknown), input: value });
    }),
  );

/** The project's follow-up template (plain text), with placeholders checked. */
export const replyTemplateSchema = z.object({
  subject: templateText(REPLY_SUBJECT_MAX_LENGTH, SUBJECT_TOO_LONG_MESSAGE, SUBJECT_REQUIRED_MESSAGE),
  body: templateText(REPLY_MAX_LENGTH, REPLY_TOO_LONG_MESSAGE, REPLY_REQUIRED_MESSAGE),
});
export type ReplyTemplateInput = z.infer<typeof replyTemplateSchema>;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The composer: subject and text (already filled from the template, so placeholders are not read again), and an
 * optional meeting on the founder's clock: date, start time and length. Whether it is in the future is the server's
 * call, against its own clock and the founder's zone.
 */
export const leadReplySchema = z
  .object({
    subject: requiredText(REPLY_SUBJECT_MAX_LENGTH, SUBJECT_TOO_LONG_MESSAGE, SUBJECT_REQUIRED_MESSAGE),
    body: requiredText(REPLY_MAX_LENGTH, REPLY_TOO_LONG_MESSAGE, REPLY_REQUIRED_MESSAGE),
    proposeMeeting: checkbox,
    meetingDate: z.optional(z.string().check(z.trim(), z.maxLength(10, MEETING_DATE_MESSAGE))),
    meetingTime: z.optional(z.string().check(z.trim(), z.maxLength(5, MEETING_TIME_MESSAGE))),
    meetingMinutes: z.optional(z.string().check(z.trim(), z.maxLength(3, MEETING_LENGTH_MESSAGE))),
  })
  .check(
    z.superRefine((reply, ctx) => {
      if (!reply.proposeMeeting) return;
      if (!DATE_PATTERN.test(reply.meetingDate ?? "") || Number.isNaN(Date.parse(`${reply.meetingDate}T00:00:00Z`))) {
        ctx.issues.push({ code: "custom", message: MEETING_DATE_MESSAGE, input: reply.meetingDate, path: ["meetingDate"] });
      }
      if (!TIME_PATTERN.test(reply.meetingTime ?? "")) ctx.issues.push({ code: "custom", message: MEETING_TIME_MESSAGE, input: reply.meetingTime, path: ["meetingTime"] });
      const minutes = Number(reply.meetingMinutes);
      if (!/^\d+$/.test(reply.meetingMinutes ?? "") || minutes < MEETING_MIN_MINUTES || minutes > MEETING_MAX_MINUTES) {
        ctx.issues.push({ code: "custom", message: MEETING_LENGTH_MESSAGE, input: reply.meetingMinutes, path: ["meetingMinutes"] });
      }
    }),
  );
export type LeadReplyInput = z.infer<typeof leadReplySchema>;

/** 'Log a call' on a lead: an optional note. */
export const leadCallSchema = z.object({
  leadId: z.string("Lead not found in this project").check(z.minLength(1, "Lead not found in this project"), z.maxLength(64, "Lead not found in this project")),
  note: optionalText(CALL_NOTE_MAX_LENGTH, CALL_NOTE_TOO_LONG_MESSAGE),
});
export type LeadCallInput = z.infer<typeof leadCallSchema>;

/** The default follow-up template of a project that has not written its own. */
export const DEFAULT_REPLY_TEMPLATE: ReplyTemplateInput = {
  subject: "{project_title}: following up",
  body: [
    "Hi {first_name},",
    "",
    "Thanks for your interest in {project_title}. Here is our pitch: {pitch_link}",
    "Our deck: {deck_link}",
    "Book a time that suits you: {booking_link}",
    "",
    "Best,",
    "{founder_name}",
  ].join("\n"),
};

export type TemplateValues = Record<TemplatePlaceholder, string | null>;

/**
 * A template filled in. A line naming a link the project does not have (no deck, no booking link) is left out
 * rather than sent with a hole in it.
 */
export function fillTemplate(text: string, values: TemplateValues): string {
  return text
    .split("\n")
    .filter((line) => ![...line.matchAll(PLACEHOLDER_PATTERN)].some((match) => values[match[1] as TemplatePlaceholder] === null))
    .map((line) => line.replace(PLACEHOLDER_PATTERN, (whole, name: string) => values[name as TemplatePlaceholder] ?? whole))
    .join("\n");
}

/** The first word of a name, for the greeting ('Ada' of 'Ada Lovelace'); the whole name when it has one word. */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}

/** 'Open in my mail app': the same text as a `mailto:` link. */
export function mailtoHref(to: string, subject: string, body: string): string {
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
