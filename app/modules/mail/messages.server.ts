import { PRODUCT_NAME } from "~/product";
import { formatAmountRange } from "~/modules/formats/amount";
import { plural } from "~/modules/formats/counts";
import { formatFounderDateTime } from "~/modules/formats/founder-dates";
import { listedWithAnd } from "~/modules/formats/listing";
import type { UnsubscribeLinks } from "./mail-links.server";
import type { MailAttachment } from "~/db/schema";
import type { OutgoingMail } from "./outbox.server";

/**
 * The product's e-mails, each as plain text plus a simple HTML version of the same words. Everything a visitor
 * typed is escaped in the HTML; header values are made single-line by the outbox.
 */

type Link = { label: string; url: string };
/** A list item is a line of text, optionally with a link under it. */
type ListItem = string | { text: string; link: Link };
/** `figures`: a titled two-column table of labels and numbers; `stats`: a row of headline numbers with their labels. */
type Block =
  | { kind: "p"; text: string }
  | { kind: "quote"; text: string }
  | ({ kind: "link" } & Link)
  | { kind: "list"; items: ListItem[] }
  | { kind: "figures"; title: string; rows: [label: string, value: string][] }
  | { kind: "stats"; items: { value: string; label: string }[] };

type Letter = { heading: string; blocks: Block[]; footer: Block[] };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function blockText(block: Block): string {
  switch (block.kind) {
    case "p":
      return block.text;
    case "quote":
      return block.text
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n");
    case "link":
      return `${block.label}: ${block.url}`;
    case "list":
      return block.items
        .map((item) => (typeof item === "string" ? item : `${item.text}\n${item.link.label}: ${item.link.url}`))
        .map((item) => `- ${item.replace(/\n/g, "\n  ")}`)
        .join("\n");
    case "figures":
      return [block.title, ...block.rows.map(([label, value]) => `  ${label}: ${value}`)].join("\n");
    case "stats":
      return block.items.map((item) => `${item.value} ${item.label}`).join(" · ");
  }
}

function blockHtml(block: Block): string {
  const text = (value: string) => escapeHtml(value).replace(/\n/g, "<br>");
  switch (block.kind) {
    case "p":
      return `<p style="margin:0 0 16px">${text(block.text)}</p>`;
    case "quote":
      return `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #4f46e5;background:#f5f5ff;white-space:normal">${text(block.text)}</blockquote>`;
    case "link":
      return `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(block.label)}</a></p>`;
    case "list":
      return `<ul style="margin:0 0 16px;padding-left:20px">${block.items.map((item) => `<li style="margin:0 0 8px">${listItemHtml(item, text)}</li>`).join("")}</ul>`;
    case "figures":
      return [
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:separate;border-spacing:0;margin:0 0 16px;border:1px solid #e2e8f0;border-radius:8px;font-size:15px">`,
        `<tr><th colspan="2" align="left" style="padding:10px 12px;background:#f1f5f9;border-radius:8px 8px 0 0;font-size:15px;text-align:left">${text(block.title)}</th></tr>`,
        ...block.rows.map(
          ([label, value]) =>
            `<tr><td style="padding:7px 12px;border-top:1px solid #e2e8f0;color:#475569">${text(label)}</td><td align="right" style="padding:7px 12px;border-top:1px solid #e2e8f0;font-weight:600;text-align:right;white-space:nowrap">${text(value)}</td></tr>`,
        ),
        "</table>",
      ].join("");
    case "stats":
      return [
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;margin:0 0 20px;table-layout:fixed"><tr>`,
        ...block.items.map(
          (item) =>
            `<td align="center" valign="top" style="padding:10px 4px;background:#eef2ff;border:4px solid #ffffff;border-radius:10px;text-align:center"><div style="font-size:24px;font-weight:700;line-height:1.2;color:#312e81">${text(item.value)}</div><div style="font-size:12px;line-height:1.3;color:#475569">${text(item.label)}</div></td>`,
        ),
        "</tr></table>",
      ].join("");
  }
}

function listItemHtml(item: ListItem, text: (value: string) => string): string {
  if (typeof item === "string") return text(item);
  return `${text(item.text)}<br><a href="${escapeHtml(item.link.url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(item.link.label)}</a>`;
}

function compose(letter: Letter): { text: string; html: string } {
  const text = [letter.heading, "", ...letter.blocks.map(blockText).flatMap((part) => [part, ""]), "--", ...letter.footer.map(blockText), PRODUCT_NAME].join("\n");
  const html = [
    "<!doctype html>",
    `<html><body style="margin:0;padding:24px;background:#f8fafc;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;font-size:16px;line-height:1.5">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">`,
    `<p style="margin:0 0 8px;font-size:13px;font-weight:700;color:#4f46e5;letter-spacing:.04em;text-transform:uppercase">${escapeHtml(PRODUCT_NAME)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${escapeHtml(letter.heading)}</h1>`,
    ...letter.blocks.map(blockHtml),
    `<div style="margin-top:24px;padding-top:16px;border-top:1px solid #e2e8f0;font-size:13px;color:#64748b">`,
    ...letter.footer.map(blockHtml),
    "</div></div></body></html>",
  ].join("\n");
  return { text, html };
}

/** RFC 8058 one-click unsubscribe: mail programs POST `List-Unsubscribe=One-Click` to the link. */
export function unsubscribeHeaders(links: UnsubscribeLinks): Record<string, string> {
  return { "List-Unsubscribe": `<${links.oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

const NON_BINDING =
  "This signal is non-binding: you have not committed to invest, no payment was made, and no securities are offered or sold. Any investment conversation happens directly with the founder, off-platform.";

export type SignalConfirmationInput = {
  to: string;
  name: string;
  projectTitle: string;
  rangeLabel: string;
  rangeMin: number;
  rangeMax: number | null;
  message: string | null;
  showName: boolean;
  /** The message is on the wall too (only ever with the name). */
  messagePublic: boolean;
  pitchUrl: string;
  unsubscribe: UnsubscribeLinks;
};

/**
 * Exactly what of the signal is public, in two lines: what is on the Recognition Wall (the name as a supporter
 * with the tier, and the message only when chosen too) and what is not (the e-mail address never is).
 */
function wallDisclosure(input: Pick<SignalConfirmationInput, "name" | "rangeLabel" | "message" | "showName" | "messagePublic">): Block[] {
  const shown = !input.showName
    ? "nothing; your signal is only counted, as one more supporter"
    : `your name, '${input.name}', as a supporter, with your tier, '${input.rangeLabel}'${input.messagePublic ? ", and your message" : ""}`;
  const hidden = [
    ...(input.showName ? [] : ["your name", "your tier"]),
    ...(input.message && !input.messagePublic ? ["your message (only the founders read it)"] : []),
    "your e-mail address",
  ];
  return [
    { kind: "p", text: `On the Recognition Wall: ${shown}.` },
    { kind: "p", text: `Not on the wall: ${listedWithAnd(hidden)}.` },
  ];
}


/** To the visitor after a signal: what they signaled, that it is non-binding, and how to unsubscribe. */
export function signalConfirmationMail(input: SignalConfirmationInput): OutgoingMail {
  const range = formatAmountRange(input.rangeMin, input.rangeMax);
  const blocks: Block[] = [
    { kind: "p", text: `Hi ${input.name},` },
    { kind: "p", text: `Thank you for signaling interest in ${input.projectTitle}. Here is what you sent:` },
    {
      kind: "list",
      items: [
        `Interest level: ${input.rangeLabel} (${range})`,
        ...(input.message ? [`Your message: ${input.message}`] : []),
      ],
    },
    ...wallDisclosure(input),
    { kind: "p", text: NON_BINDING },
    { kind: "link", label: `Visit ${input.projectTitle}`, url: input.pitchUrl },
  ];
  const { text, html } = compose({
    heading: `Your interest in ${input.projectTitle} is recorded`,
    blocks,
    footer: [
      { kind: "p", text: `You received this because you signaled interest on the ${input.projectTitle} pitch page. To get no more e-mail about ${input.projectTitle}, unsubscribe with one click:` },
      { kind: "link", label: "Unsubscribe", url: input.unsubscribe.pageUrl },
    ],
  });
  return { kind: "signal-confirmation", to: input.to, subject: `Your interest in ${input.projectTitle} is recorded`, text, html, headers: unsubscribeHeaders(input.unsubscribe) };
}

export type WelcomeInput = { to: string; name: string; projectTitle: string; pitchUrl: string; unsubscribe: UnsubscribeLinks };

/** To a visitor who just followed a project's updates. */
export function welcomeMail(input: WelcomeInput): OutgoingMail {
  const { text, html } = compose({
    heading: `You're following ${input.projectTitle}`,
    blocks: [
      { kind: "p", text: `Hi ${input.name},` },
      {
        kind: "p",
        text: `You're on the list for ${input.projectTitle}. When the founder ships something, you get one digest on Friday with what is new. Weeks without news send nothing.`,
      },
      { kind: "link", label: `Visit ${input.projectTitle}`, url: input.pitchUrl },
    ],
    footer: [
      { kind: "p", text: `You received this because you followed ${input.projectTitle}. Unsubscribe anytime, with one click:` },
      { kind: "link", label: "Unsubscribe", url: input.unsubscribe.pageUrl },
    ],
  });
  return { kind: "welcome", to: input.to, subject: `You're following ${input.projectTitle}`, text, html, headers: unsubscribeHeaders(input.unsubscribe) };
}

export type IntroConfirmationInput = {
  to: string;
  name: string;
  projectTitle: string;
  roleTags: string[];
  linkedinUrl: string | null;
  note: string;
  blurb: string;
  pitchUrl: string;
};

/**
 * To a visitor after an intro request (issue 23): what they asked, the forwardable text to pass on, and what happens
 * next. No tracking of any kind and no unsubscribe link: an intro subscribes nobody to anything.
 */
export function introConfirmationMail(input: IntroConfirmationInput): OutgoingMail {
  const { text, html } = compose({
    heading: `Your intro request to ${input.projectTitle} is sent`,
    blocks: [
      { kind: "p", text: `Hi ${input.name},` },
      { kind: "p", text: `The founders of ${input.projectTitle} have your intro request. Here is what you sent:` },
      {
        kind: "list",
        items: [
          `Your note: ${input.note}`,
          ...(input.roleTags.length ? [`You are: ${input.roleTags.join(", ")}`] : []),
          ...(input.linkedinUrl ? [`LinkedIn: ${input.linkedinUrl}`] : []),
        ],
      },
      { kind: "p", text: "Your forwardable intro text, to send to anyone who should meet the team:" },
      { kind: "quote", text: input.blurb },
      { kind: "p", text: `What happens next: the founders read your request and answer you at this address, directly. ${PRODUCT_NAME} sends you nothing else about it.` },
      { kind: "link", label: `Visit ${input.projectTitle}`, url: input.pitchUrl },
    ],
    footer: [
      {
        kind: "p",
        text: `You received this once because you requested an intro on the ${input.projectTitle} pitch page. You are not subscribed to anything.`,
      },
    ],
  });
  return { kind: "intro-confirmation", to: input.to, subject: `Your intro request to ${input.projectTitle} is sent`, text, html };
}

/** 'Send me a test e-mail' on the alerts screen (issue 23): proof that alerts reach the founder's address. */
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

export type UnsubscribeConfirmationInput = { to: string; projectTitles: string[]; confirmUrl: string };

/**
 * To an address someone typed on /unsubscribe (decision 37): nothing has changed yet; the link asks once more and
 * then stops every project's e-mail to it. No tracking, no project text beyond the titles it is subscribed to.
 */
export function unsubscribeConfirmationMail(input: UnsubscribeConfirmationInput): OutgoingMail {
  const { text, html } = compose({
    heading: "Confirm: stop these e-mails",
    blocks: [
      { kind: "p", text: `Someone, hopefully you, asked ${PRODUCT_NAME} to stop sending e-mail to this address. Nothing has changed yet.` },
      { kind: "p", text: "This address gets e-mail about:" },
      { kind: "list", items: input.projectTitles },
      { kind: "p", text: "To stop all of it, open this link and press Unsubscribe. It works once, for 24 hours." },
      { kind: "link", label: "Confirm unsubscribe", url: input.confirmUrl },
    ],
    footer: [{ kind: "p", text: "If you did not ask for this, ignore this message: you stay subscribed and nothing else happens." }],
  });
  return { kind: "unsubscribe-confirmation", to: input.to, subject: `Confirm: stop e-mails from ${PRODUCT_NAME}`, text, html };
}

export type SavedListInput = { to: string; pitches: { title: string; oneLiner: string; url: string }[]; stopUrl: string };

/** The one line every saved-list mail ends with: why it came, and how to get no more (decision 38). */
function savedListFooter(stopUrl: string): Block[] {
  return [
    { kind: "p", text: `You received this because someone typed this address on ${PRODUCT_NAME}'s saved list. You are not subscribed to anything. Not you, or no more of these?` },
    { kind: "link", label: "Stop saved-list e-mails to this address", url: stopUrl },
  ];
}

/**
 * A visitor's saved pitches, e-mailed once the address confirmed (issue 17, decision 38): each title and one-liner
 * quoted as its founder wrote it, under a link of ours to the pitch, from our own data. No tracking; a link that
 * stops further saved-list mail to the address (and List-Unsubscribe pointing at it).
 */
export function savedListMail(input: SavedListInput): OutgoingMail {
  const count = input.pitches.length === 1 ? "1 pitch" : `${input.pitches.length} pitches`;
  const { text, html } = compose({
    heading: `Your saved pitches (${count})`,
    blocks: [
      { kind: "p", text: "Here is the list you saved on your phone, to read again after the event. Each title and one-liner is quoted as its founder wrote it." },
      ...input.pitches.flatMap((pitch): Block[] => [
        { kind: "quote", text: pitch.oneLiner ? `${pitch.title}\n${pitch.oneLiner}` : pitch.title },
        { kind: "link", label: "Open the pitch", url: pitch.url },
      ]),
    ],
    footer: savedListFooter(input.stopUrl),
  });
  return { kind: "saved-list", to: input.to, subject: `Your saved pitches (${count})`, text, html, headers: { "List-Unsubscribe": `<${input.stopUrl}>` } };
}

export type SavedListConfirmationInput = { to: string; pitchCount: number; confirmUrl: string; stopUrl: string };

/**
 * The first time a browser asks to mail a list to an address (decision 38): whose text is only ours (no title or
 * one-liner of anyone's), asking the address's owner to confirm before the list is sent.
 */
export function savedListConfirmationMail(input: SavedListConfirmationInput): OutgoingMail {
  const count = input.pitchCount === 1 ? "1 saved pitch" : `${input.pitchCount} saved pitches`;
  const { text, html } = compose({
    heading: "Confirm your address to get your saved pitches",
    blocks: [
      { kind: "p", text: `Someone, hopefully you, asked ${PRODUCT_NAME} to e-mail a list of ${count} to this address. Nothing is sent until you confirm.` },
      { kind: "link", label: "Confirm and send my list", url: input.confirmUrl },
      { kind: "p", text: "The link works once, for 24 hours. If you did not ask for this, ignore this message and nothing is sent." },
    ],
    footer: savedListFooter(input.stopUrl),
  });
  return { kind: "saved-list-confirmation", to: input.to, subject: `Confirm your address to get your saved pitches`, text, html, headers: { "List-Unsubscribe": `<${input.stopUrl}>` } };
}

export type IntroAlertInput = {
  to: string;
  projectTitle: string;
  visitorName: string;
  visitorEmail: string;
  roleTags: string[];
  linkedinUrl: string | null;
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

export type SignalAlertInput = {
  to: string;
  projectTitle: string;
  visitorName: string;
  visitorEmail: string;
  rangeLabel: string;
  rangeMin: number;
  rangeMax: number | null;
  message: string | null;
  isPublic: boolean;
  messagePublic: boolean;
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
  const counts = [intros ? `${intros} intro ${intros === 1 ? "request" : "requests"}` : null, signals ? `${signals} interest ${signals === 1 ? "signal" : "signals"}` : null]
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
 * To the founder whose webhook failed for three days on end (issue 28 item 6): it is paused, nothing is lost (new
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

export type TeamInvitationMailInput = { to: string; inviterName: string; projectTitle: string; roleLabel: string; joinUrl: string; days: number };

/** To someone a founder invited to a project's team (decision 61): who, which project, which role, the one link. */
export function teamInvitationMail(input: TeamInvitationMailInput): OutgoingMail {
  const { text, html } = compose({
    heading: `Join ${input.projectTitle}`,
    blocks: [
      { kind: "p", text: `${input.inviterName} invited you to the team of ${input.projectTitle} on ${PRODUCT_NAME}, as ${input.roleLabel}.` },
      { kind: "link", label: "Join the team", url: input.joinUrl },
      { kind: "p", text: `The link works once, for ${input.days} days, for this address only: sign in or sign up with it to join.` },
      { kind: "p", text: "If you do not know who sent it, ignore this e-mail: nothing happens without you." },
    ],
    footer: [{ kind: "p", text: `You received this because ${input.inviterName} entered this address on ${PRODUCT_NAME}.` }],
  });
  return { kind: "team-invitation", to: input.to, subject: `${input.inviterName} invited you to ${input.projectTitle}`, text, html };
}

export type PasswordResetInput = { to: string; name: string; resetUrl: string; expiresInMinutes: number };

/**
 * To a founder who asked for a new password (issue 23): the one link, how long it works, that it works once and
 * signs them out everywhere, and what to do when they did not ask. Nothing else: no tracking, no other links.
 */
export function passwordResetMail(input: PasswordResetInput): OutgoingMail {
  const { text, html } = compose({
    heading: "Reset your password",
    blocks: [
      { kind: "p", text: input.name ? `Hi ${input.name},` : "Hi," },
      { kind: "p", text: `Someone asked to reset the password of your ${PRODUCT_NAME} account. To choose a new one, open this link:` },
      { kind: "link", label: "Choose a new password", url: input.resetUrl },
      {
        kind: "p",
        text: `The link works once, for ${input.expiresInMinutes} minutes. Setting a new password signs your account out on every device.`,
      },
      { kind: "p", text: "If you did not ask for this, ignore this e-mail: your password stays as it is." },
    ],
    footer: [{ kind: "p", text: `You received this because a password reset was requested for this address on ${PRODUCT_NAME}.` }],
  });
  return { kind: "password-reset", to: input.to, subject: `Reset your ${PRODUCT_NAME} password`, text, html };
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
  waiting: { name: string; waited: string; leadUrl: string }[];
  moreWaiting: number;
  unansweredUrl: string;
  topSignals: { text: string; leadUrl: string | null }[];
  analyticsUrl: string;
  settingsUrl: string;
  /** The contacts CSV, as the export downloads it; null when it was too large to attach. */
  csv: MailAttachment | null;
  /** The recipient's role, lower-case ('owner', 'co-founder'). */
  roleLabel: string;
};

const count = (value: number) => value.toLocaleString("en-US");

/**
 * To the owner and each co-founder, the morning after a day with scans and again a week later (issue 30 item 4,
 * decision 66): what the period brought, each code's funnel, who still waits for an answer, the top signals, and
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
        { value: count(totals.scans), label: totals.scans === 1 ? "scan" : "scans" },
        { value: count(totals.peopleWhoActed), label: totals.peopleWhoActed === 1 ? "person acted" : "people acted" },
        { value: count(totals.intros), label: totals.intros === 1 ? "intro" : "intros" },
        { value: count(totals.signals), label: totals.signals === 1 ? "signal" : "signals" },
      ],
    },
    { kind: "link", label: "Open the analytics", url: input.analyticsUrl },
    { kind: "p", text: "Each code scanned: the first line counts this period, the others everything since the code was printed." },
    ...input.codes.map((code): Block => ({ kind: "figures", title: code.name, rows: code.rows })),
  ];
  if (input.waiting.length) {
    blocks.push(
      { kind: "p", text: "Still waiting for your answer, the longest first:" },
      { kind: "list", items: input.waiting.map((person) => ({ text: `${person.name}, waiting ${person.waited}`, link: { label: "Answer", url: person.leadUrl } })) },
    );
    if (input.moreWaiting) blocks.push({ kind: "p", text: `And ${input.moreWaiting} more.` });
    blocks.push({ kind: "link", label: "See everyone waiting", url: input.unansweredUrl });
  } else {
    blocks.push({ kind: "p", text: "Nobody is waiting for an answer from you." });
  }
  if (input.topSignals.length) {
    blocks.push(
      { kind: "p", text: "The largest interest signals of this period:" },
      { kind: "list", items: input.topSignals.map((signal) => (signal.leadUrl ? { text: signal.text, link: { label: "Open the lead", url: signal.leadUrl } } : signal.text)) },
    );
  }
  blocks.push({
    kind: "p",
    text: input.csv
      ? `Your contacts are attached as ${input.csv.filename}, the same file as the CSV export on the analytics page.`
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
