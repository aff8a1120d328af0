import { z } from "zod/mini";
import { LEAD_STATUSES, LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import { optionalText } from "~/modules/forms/fields";
import { isStorableText } from "~/modules/forms/storable-text";
import { visitorEmail } from "~/modules/forms/visitor-fields";


export const LEAD_ACTIONS = ["intro", "subscription", "signal"] as const;
export type LeadAction = (typeof LEAD_ACTIONS)[number];
export const LEAD_ACTION_LABELS: Record<LeadAction, string> = { intro: "Intro", subscription: "Subscription", signal: "Signal" };

/** A webhook's `sourceEvent` when nothing tells where the person came from (no QR attribution). */
export const UNKNOWN_EVENT = "unknown";

export const NOTE_MAX_LENGTH = 2_000;
export const NOTE_TOO_LONG_MESSAGE = `Note must be at most ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters`;
export const UNKNOWN_STATUS_MESSAGE = "Choose New, Contacted, Meeting or Passed";
export const LEAD_NOT_FOUND_MESSAGE = "Lead not found in this project";

/** The triage form on each lead, run by the browser and the server. An empty note clears it. */
export const leadTriageSchema = z.object({
  leadId: z.string(LEAD_NOT_FOUND_MESSAGE).check(z.minLength(1, LEAD_NOT_FOUND_MESSAGE), z.maxLength(64, LEAD_NOT_FOUND_MESSAGE)),
  status: z.enum(LEAD_STATUSES, UNKNOWN_STATUS_MESSAGE),
  note: optionalText(NOTE_MAX_LENGTH, NOTE_TOO_LONG_MESSAGE),
});
export type LeadTriageInput = z.infer<typeof leadTriageSchema>;

/** 'Awaiting my follow-up' on a person only met in person: starts their response clock (decision 84). */
export const leadAwaitingSchema = z.object({
  leadId: z.string(LEAD_NOT_FOUND_MESSAGE).check(z.minLength(1, LEAD_NOT_FOUND_MESSAGE), z.maxLength(64, LEAD_NOT_FOUND_MESSAGE)),
});
export type LeadAwaitingInput = z.infer<typeof leadAwaitingSchema>;

export const UNKNOWN_TEMPERATURE_MESSAGE = "Choose hot, warm or cold";
export const NO_EMAIL_TO_REPLY_MESSAGE = "This person was met without an e-mail: add their e-mail to reply";
export const EMAIL_TAKEN_MESSAGE = "Another lead in this inbox already has this e-mail: open that lead to reply";

/** 'Add an e-mail to reply' on a person met without one (decision 92): the address the replies go to. */
export const leadEmailSchema = z.object({
  leadId: z.string(LEAD_NOT_FOUND_MESSAGE).check(z.minLength(1, LEAD_NOT_FOUND_MESSAGE), z.maxLength(64, LEAD_NOT_FOUND_MESSAGE)),
  email: visitorEmail,
});
export type LeadEmailInput = z.infer<typeof leadEmailSchema>;

/** One tap on a lead's Hot, Warm or Cold (the one already chosen sends `none`), run by the browser and the server. */
export const leadTemperatureSchema = z.object({
  leadId: z.string(LEAD_NOT_FOUND_MESSAGE).check(z.minLength(1, LEAD_NOT_FOUND_MESSAGE), z.maxLength(64, LEAD_NOT_FOUND_MESSAGE)),
  temperature: z.enum([...LEAD_TEMPERATURES, "none"], UNKNOWN_TEMPERATURE_MESSAGE),
});
export type LeadTemperatureInput = z.infer<typeof leadTemperatureSchema>;

const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined) => ((values as readonly string[]).includes(value ?? "") ? (value as T[number]) : null)),
  );

const optionalQueryText = (max: number) =>
  z.pipe(
    z.optional(z.string()),
    // Text no database could hold (a NUL, say) filters nothing rather than reaching a query.
    z.transform((value: string | undefined) => (value && isStorableText(value) ? value.trim().slice(0, max) || null : null)),
  );

/** The inbox's views besides the default (newest activity first). */
export const LEAD_VIEWS = ["unanswered"] as const;

/**
 * The inbox's orders besides the view's own: `temperature` puts hot, then warm, then cold, then unmarked leads first;
 * `reading` puts those who spent most time reading the deck on the page now first.
 */
export const LEAD_SORTS = ["temperature", "reading"] as const;
export const LEAD_SORT_LABELS: Record<(typeof LEAD_SORTS)[number], string> = { temperature: "Hottest first", reading: "Most reading time" };

/** `read=deck`: only the leads who read any of the deck on the page now. */
export const LEAD_READ_FILTERS = ["deck"] as const;

/** The longest search the inbox reads: longer text is cut, and the search box stops there. */
export const LEAD_SEARCH_MAX_LENGTH = 100;

/**
 * The inbox's filters, read from the URL (`?action=signal&event=Expo&status=new&q=ada&after=…`). A value that is not
 * one of the choices means 'any': a stale or hand-edited link shows the whole inbox rather than an error.
 */
export const leadFilterSchema = z.object({
  action: optionalChoice(LEAD_ACTIONS),
  status: optionalChoice(LEAD_STATUSES),
  temperature: z.optional(optionalChoice(LEAD_TEMPERATURES)),
  event: optionalQueryText(100),
  q: optionalQueryText(LEAD_SEARCH_MAX_LENGTH),
  after: optionalQueryText(200),
  /** `unanswered`: only the leads still waiting for a first response, the longest waiting first. */
  view: z.optional(optionalChoice(LEAD_VIEWS)),
  /** `temperature`: hottest first; `reading`: most reading time first; each in the view's own order. */
  sort: z.optional(optionalChoice(LEAD_SORTS)),
  /** `deck`: only those who read the deck on the page now. */
  read: z.optional(optionalChoice(LEAD_READ_FILTERS)),
  /** Only those who gave this answer to the project's qualifying question (a choice question's answers). */
  answer: z.optional(optionalQueryText(60)),
  /** One lead, as a founder alert links to it (`?lead={id}`): the inbox shows that lead alone. */
  lead: z.optional(optionalQueryText(64)),
});
export type LeadFilters = z.infer<typeof leadFilterSchema>;

export function readLeadFilters(search: URLSearchParams): LeadFilters {
  const parsed = z.safeParse(leadFilterSchema, Object.fromEntries(search));
  return parsed.success ? parsed.data : { action: null, status: null, event: null, q: null, after: null };
}

/** The query string for a set of filters (without empty ones), for links and the vCards download. */
export function leadFilterQuery(filters: Partial<LeadFilters>): string {
  const params = new URLSearchParams();
  for (const key of ["lead", "view", "sort", "read", "action", "event", "status", "temperature", "answer", "q", "after"] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}
