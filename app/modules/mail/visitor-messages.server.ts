import { PRODUCT_NAME } from "~/product";
import { formatAmountRange } from "~/modules/formats/amount";
import { listedWithAnd } from "~/modules/formats/listing";
import type { UnsubscribeLinks } from "./mail-links.server";
import type { OutgoingMail } from "./outbox.server";
import { compose, unsubscribeHeaders, type Block } from "./letter.server";
import { pluralWord } from "~/modules/formats/counts";

/**
 * The e-mails a visitor's own action sends to the address they typed: confirmations, the welcome, the saved
 * list.
 */
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

export type SubscriptionConfirmationInput = { to: string; name: string; projectTitle: string; confirmUrl: string };

/**
 * To an address the project's own team subscribed (typed in for them, decision 79): it gets no update until the
 * person confirms here. Names the project only; nothing the team wrote.
 */
export function subscriptionConfirmationMail(input: SubscriptionConfirmationInput): OutgoingMail {
  const { text, html } = compose({
    heading: `Confirm: follow ${input.projectTitle}?`,
    blocks: [
      { kind: "p", text: `Hi ${input.name},` },
      { kind: "p", text: `The ${input.projectTitle} team added this address to the people who get their updates. Nothing is sent until you confirm.` },
      { kind: "p", text: "To get their updates, open this link and press Confirm. It works once, for 7 days." },
      { kind: "link", label: "Confirm and follow", url: input.confirmUrl },
    ],
    footer: [{ kind: "p", text: "If you don't want their updates, ignore this message: you get nothing more from them." }],
  });
  return { kind: "subscription-confirmation", to: input.to, subject: `Confirm: follow ${input.projectTitle}?`, text, html };
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
 * To a visitor after an intro request: what they asked, the forwardable text to pass on, and what happens
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
 * A visitor's saved pitches, e-mailed once the address confirmed (decision 38): each title and one-liner
 * quoted as its founder wrote it, under a link of ours to the pitch, from our own data. No tracking; a link that
 * stops further saved-list mail to the address (and List-Unsubscribe pointing at it).
 */
export function savedListMail(input: SavedListInput): OutgoingMail {
  const count = `${input.pitches.length} ${pluralWord(input.pitches.length, "pitch", "pitches")}`;
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
  const count = `${input.pitchCount} saved ${pluralWord(input.pitchCount, "pitch", "pitches")}`;
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
