import { PRODUCT_NAME } from "~/product";
import { formatAmountRange } from "~/modules/formats/amount";
import { plural, pluralWord } from "~/modules/formats/counts";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import type { UnsubscribeLinks } from "./mail-links.server";
import type { MailAttachment } from "~/db/schema";
import type { SignalDetails } from "~/modules/signals/signal-form";
import type { OutgoingMail } from "./outbox.server";
import { compose, unsubscribeHeaders, type Block } from "./letter.server";

/**
 * The e-mails to the project's team: alerts, the daily digest and summary, the morning-after report, a paused
 * webhook, the test e-mail.
 */
export type IntroAlertInput = {
  to: string;
  projectTitle: string;
  visitorName: string;
  visitorEmail: string;
  roleTags: string[];
  linkedinUrl: string | null;
  /** The event of the QR code they came through; null for the plain link or an unknown source. */
  eventSource: string | null;
  blurb: string;
  /** This person in the founder's lead inbox. */
  leadUrl: string;
};

/** To the founder for each intro request, with the blurb ready to forward. Replies go to the visitor. */
export function introAlertMail(input: IntroAlertInput): OutgoingMail {
  const details = [
    `E-mail: ${input.visitorEmail}`,
    ...(input.roleTags.length ? [`Roles: ${input.roleTags.join(", ")}`] : []),
    ...(input.linkedinUrl ? [`LinkedIn: ${input.linkedinUrl}`] : []),
    ...(input.eventSource ? [`Met at: ${input.eventSource}`] : []),
  ];
  const { text, html } = compose({
    heading: `${input.visitorName} requested an intro`,
    blocks: [
      { kind: "p", text: `${input.visitorName} asked for an intro through the ${input.projectTitle} pitch page.` },
      { kind: "list", items: details },
      { kind: "p", text: "Forwardable intro blurb:" },
      { kind: "quote", text: input.blurb },
      { kind: "p", text: `Reply to this e-mail to answer ${input.visitorName} directly.` },
      { kind: "link", label: `Open ${input.visitorName} in your leads`, url: input.leadUrl },
    ],
    footer: [{ kind: "p", text: `You received this because you own ${input.projectTitle} on ${PRODUCT_NAME}.` }],
  });
  return {
    kind: "intro-alert",
    to: input.to,
    subject: `New intro request for ${input.projectTitle}: ${input.visitorName}`,
    text,
    html,
    headers: { "Reply-To": input.visitorEmail },
  };
}

export type SignalAlertInput = SignalDetails & {
  to: string;
  projectTitle: string;
  visitorName: string;
  visitorEmail: string;
  eventSource: string | null;
  /** This person in the founder's lead inbox. */
  leadUrl: string;
};

/** To the founder for each new signal of interest. */
export function signalAlertMail(input: SignalAlertInput): OutgoingMail {
  const range = formatAmountRange(input.rangeMin, input.rangeMax);
  const { text, html } = compose({
    heading: `New interest signal: ${input.rangeLabel}`,
    blocks: [
      { kind: "p", text: `${input.visitorName} signaled non-binding interest in ${input.projectTitle}.` },
      {
        kind: "list",
        items: [
          `Interest level: ${input.rangeLabel} (${range})`,
          `E-mail: ${input.visitorEmail}`,
          ...(input.eventSource ? [`Met at: ${input.eventSource}`] : []),
          input.isPublic
            ? input.message
              ? input.messagePublic
                ? "Shown on your Recognition Wall, with their message"
                : "Shown on your Recognition Wall; their message is for you only"
              : "Shown on your Recognition Wall"
            : "Private: counted, not shown on the wall",
        ],
      },
      ...(input.message ? ([{ kind: "p", text: "Their message:" }, { kind: "quote", text: input.message }] satisfies Block[]) : []),
      { kind: "p", text: "A signal is not a commitment; follow up off-platform." },
      { kind: "link", label: `Open ${input.visitorName} in your leads`, url: input.leadUrl },
    ],
    footer: [{ kind: "p", text: `You received this because you own ${input.projectTitle} on ${PRODUCT_NAME}.` }],
  });
  return {
    kind: "signal-alert",
    to: input.to,
    subject: `New interest signal for ${input.projectTitle}: ${input.rangeLabel}`,
    text,
    html,
    headers: { "Reply-To": input.visitorEmail },
  };
}

export type DigestInput = {
  to: string;
  name: string;
  projectTitle: string;
  updates: { body: string; createdAt: string }[];
  pitchUrl: string;
  unsubscribe: UnsubscribeLinks;
  timeZone: string;
};

/** The Friday digest: every update since the last one, oldest first. */
// Building a DateTimeFormat costs more than the rest of a digest; a digest run writes one per subscriber.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone });
    dayFormats.set(timeZone, format);
  }
  return format;
}

export function digestMail(input: DigestInput): OutgoingMail {
  const day = dayFormat(input.timeZone);
  const count = input.updates.length;
  const { text, html } = compose({
    heading: `What ${input.projectTitle} shipped this week`,
    blocks: [
      { kind: "p", text: `Hi ${input.name},` },
      { kind: "p", text: `${count === 1 ? "One update" : `${count} updates`} from ${input.projectTitle} since the last digest:` },
      { kind: "list", items: input.updates.map((update) => `${day.format(new Date(update.createdAt))}: ${update.body}`) },
      { kind: "link", label: `Visit ${input.projectTitle}`, url: input.pitchUrl },
    ],
    footer: [
      { kind: "p", text: `You received this weekly digest because you follow ${input.projectTitle}. Unsubscribe with one click:` },
      { kind: "link", label: "Unsubscribe", url: input.unsubscribe.pageUrl },
    ],
  });
  return { kind: "digest", to: input.to, subject: `${input.projectTitle}: what shipped this week`, text, html, headers: unsubscribeHeaders(input.unsubscribe) };
}

export type LeadAlertSummaryInput = {
  to: string;
  projectTitle: string;
  /** The day's intros and signals, oldest first, each one line written when it happened. */
  lines: { kind: "intro" | "signal"; summary: string; leadUrl: string | null }[];
  leadsUrl: string;
  /** People still waiting for the founder's first answer (decision 55), the longest waiting first, at most a few. */
  waiting: { name: string; waited: string; leadUrl: string }[];
  /** How many more are waiting than `waiting` lists. */
  moreWaiting: number;
  /** The inbox's unanswered view. */
  unansweredUrl: string;
};

/** To the founder who chose a daily summary instead of one alert per intro or signal. */
export function leadAlertSummaryMail(input: LeadAlertSummaryInput): OutgoingMail {
  const intros = input.lines.filter((line) => line.kind === "intro").length;
  const signals = input.lines.length - intros;
  const counts = [intros ? `${intros} intro ${pluralWord(intros, "request")}` : null, signals ? `${signals} interest ${pluralWord(signals, "signal")}` : null]
    .filter(Boolean)
    .join(" and ");
  const { text, html } = compose({
    heading: `${input.projectTitle}: ${counts}`,
    blocks: [
      { kind: "p", text: `Since your last summary, ${input.projectTitle} received ${counts}:` },
      { kind: "list", items: input.lines.map((line) => (line.leadUrl ? { text: line.summary, link: { label: "Open in your leads", url: line.leadUrl } } : line.summary)) },
      { kind: "link", label: "Open your leads", url: input.leadsUrl },
      ...(input.waiting.length
        ? [
            { kind: "p" as const, text: `Still waiting for your answer, the longest first:` },
            { kind: "list" as const, items: input.waiting.map((person) => ({ text: `${person.name}, waiting ${person.waited}`, link: { label: "Answer", url: person.leadUrl } })) },
            ...(input.moreWaiting ? [{ kind: "p" as const, text: `And ${input.moreWaiting} more.` }] : []),
            { kind: "link" as const, label: "See everyone waiting", url: input.unansweredUrl },
          ]
        : []),
    ],
    footer: [{ kind: "p", text: `You receive one summary a day because you chose it for ${input.projectTitle} on ${PRODUCT_NAME}. Change it under Leads, Lead settings.` }],
  });
  return { kind: "lead-alert-summary", to: input.to, subject: `Daily summary for ${input.projectTitle}: ${counts}`, text, html };
}

export type WebhookPausedInput = { to: string; projectTitle: string; url: string; failingSince: string; timeZone: string; lastError: string; settingsUrl: string };

/**
 * To the founder whose webhook failed for three days on end: it is paused, nothing is lost (new
 * events wait for it), and resuming it on the settings screen sends what waited.
 */
export function webhookPausedMail(input: WebhookPausedInput): OutgoingMail {
  const { text, html } = compose({
    heading: "Your webhook is paused",
    blocks: [
      { kind: "p", text: `Every delivery to this webhook of ${input.projectTitle} has failed since ${formatFounderDateTime(input.failingSince, input.timeZone)}, so we stopped sending to it:` },
      { kind: "quote", text: input.url },
      { kind: "p", text: `The last attempt: ${input.lastError}.` },
      { kind: "p", text: "New intros, subscriptions and signals are kept for it. Once your endpoint answers again, resume it to send them; 'Send a test event' shows what it answers." },
      { kind: "link", label: "Open Lead settings", url: input.settingsUrl },
    ],
    footer: [{ kind: "p", text: `You received this because you own ${input.projectTitle} on ${PRODUCT_NAME}. We send it once per pause.` }],
  });
  return { kind: "webhook-paused", to: input.to, subject: `Webhook paused for ${input.projectTitle}`, text, html };
}

/** 'Send me a test e-mail' on the alerts screen: proof that alerts reach the founder's address. */
export function testMail(input: { to: string; projectTitle: string }): OutgoingMail {
  const { text, html } = compose({
    heading: "Your test e-mail arrived",
    blocks: [
      { kind: "p", text: `You asked for this test message on the alerts screen of ${input.projectTitle}.` },
      { kind: "p", text: "Since it reached you, so will your alerts about new intros and signals, and your visitors' confirmations leave the same way." },
    ],
    footer: [{ kind: "p", text: `Sent once, at your request, to the address you sign in to ${PRODUCT_NAME} with.` }],
  });
  return { kind: "test-mail", to: input.to, subject: `Test e-mail from ${PRODUCT_NAME} (${input.projectTitle})`, text, html };
}

export type MorningReportInput = {
  to: string;
  projectTitle: string;
  /** 'day': the morning after a day with scans; 'week': seven days later, the day and the week after it. */
  kind: "day" | "week";
  /** The event tag or name of the code scanned most in the period. */
  eventName: string;
  /** 'Thursday, November 26' or 'November 19 to November 26', on the owner's clock. */
  period: string;
  totals: { scans: number; peopleWhoActed: number; intros: number; signals: number };
  /** Per code scanned in the period (the most scanned first): its name and its funnel. */
  codes: { name: string; rows: [string, string][] }[];
  /** `reading` (here and below): the person's reading of the deck, "read 9 of 14 pages, 3 min 12 s"; null for none. */
  waiting: { name: string; waited: string; reading: string | null; leadUrl: string }[];
  moreWaiting: number;
  unansweredUrl: string;
  topSignals: { text: string; reading: string | null; leadUrl: string | null }[];
  /** People the team met in person in the period, the hottest first, and how many more there were. */
  metInPerson: { text: string; reading: string | null; leadUrl: string }[];
  moreMetInPerson: number;
  /** The period's line on the deck on the page ("Deck: 12 readers, 4 read to the end, median 2 min 10 s"); null without a deck. */
  deck: string | null;
  analyticsUrl: string;
  settingsUrl: string;
  /** The contacts CSV, as the export downloads it; null when it was too large to attach. */
  csv: MailAttachment | null;
  /** The recipient's role, lower-case ('owner', 'co-founder'). */
  roleLabel: string;
};

const count = (value: number) => value.toLocaleString("en-US");

/** A person's line in the report, with their reading of the deck after it when they read any. */
const withReading = (text: string, reading: string | null) => (reading ? `${text} · ${reading}` : text);

/**
 * To the owner and each co-founder, the morning after a day with scans and again a week later (decision 66): what the period brought, each code's funnel, who still waits for an answer, the top signals, and
 * the contacts CSV attached, so the founder knows what happened without opening the app.
 */
export function morningReportMail(input: MorningReportInput): OutgoingMail {
  const { totals } = input;
  const when = input.kind === "day" ? `Yesterday at ${input.eventName}` : `A week after ${input.eventName}`;
  const scans = plural(totals.scans, "scan");
  const people = `${plural(totals.peopleWhoActed, "person", "people")} acted`;
  const opening =
    input.kind === "day"
      ? `What ${input.eventName} brought ${input.projectTitle} on ${input.period}:`
      : `A week on, what ${input.projectTitle} got from ${input.eventName} and the days after it, ${input.period}:`;
  const blocks: Block[] = [
    { kind: "p", text: opening },
    {
      kind: "stats",
      items: [
        { value: count(totals.scans), label: pluralWord(totals.scans, "scan") },
        { value: count(totals.peopleWhoActed), label: pluralWord(totals.peopleWhoActed, "person acted", "people acted") },
        { value: count(totals.intros), label: pluralWord(totals.intros, "intro") },
        { value: count(totals.signals), label: pluralWord(totals.signals, "signal") },
      ],
    },
    { kind: "link", label: "Open the analytics", url: input.analyticsUrl },
    { kind: "p", text: "Each code scanned: the first line counts this period, the others everything since the code was printed." },
    ...input.codes.map((code): Block => ({ kind: "figures", title: code.name, rows: code.rows })),
  ];
  if (input.deck) blocks.push({ kind: "p", text: input.deck });
  if (input.waiting.length) {
    blocks.push(
      { kind: "p", text: "Still waiting for your answer, the longest first:" },
      { kind: "list", items: input.waiting.map((person) => ({ text: withReading(`${person.name}, waiting ${person.waited}`, person.reading), link: { label: "Answer", url: person.leadUrl } })) },
    );
    if (input.moreWaiting) blocks.push({ kind: "p", text: `And ${input.moreWaiting} more.` });
    blocks.push({ kind: "link", label: "See everyone waiting", url: input.unansweredUrl });
  } else {
    blocks.push({ kind: "p", text: "Nobody is waiting for an answer from you." });
  }
  if (input.topSignals.length) {
    blocks.push(
      { kind: "p", text: "The largest interest signals of this period:" },
      {
        kind: "list",
        items: input.topSignals.map((signal) => {
          const text = withReading(signal.text, signal.reading);
          return signal.leadUrl ? { text, link: { label: "Open the lead", url: signal.leadUrl } } : text;
        }),
      },
    );
  }
  if (input.metInPerson.length) {
    blocks.push(
      { kind: "p", text: "Met in person this period, the hottest first:" },
      { kind: "list", items: input.metInPerson.map((person) => ({ text: withReading(person.text, person.reading), link: { label: "Open the lead", url: person.leadUrl } })) },
    );
    if (input.moreMetInPerson) blocks.push({ kind: "p", text: `And ${input.moreMetInPerson} more met in person.` });
  }
  blocks.push({
    kind: "p",
    text: input.csv
      ? `Your contacts, and the people you met in person, are attached as ${input.csv.filename}, the same file as the CSV export on the analytics page.`
      : "Your contacts are too many to attach: download them as CSV on the analytics page.",
  });
  const { text, html } = compose({
    heading: when,
    blocks,
    footer: [
      {
        kind: "p",
        text: `You receive this report as ${input.roleLabel} of ${input.projectTitle} on ${PRODUCT_NAME}: it goes to the owner and co-founders, who may export the contacts it carries. Turn it off for this project in Lead settings.`,
      },
      { kind: "link", label: "Lead settings", url: input.settingsUrl },
    ],
  });
  return { kind: "morning-report", to: input.to, subject: `${when}: ${scans}, ${people} — ${input.projectTitle}`, text, html, attachments: input.csv ? [input.csv] : null };
}
