/** What the pitch page's form action answers a form submitted with JavaScript (`via=fetch`). */
export type VisitorIntent = "intro" | "subscribe" | "signal";

const INTENTS: readonly VisitorIntent[] = ["intro", "subscribe", "signal"];

/** A posted `intent` field; anything unknown is an intro, as the forms have always answered. */
export function visitorIntentOf(value: unknown): VisitorIntent {
  return INTENTS.includes(value as VisitorIntent) ? (value as VisitorIntent) : "intro";
}

export type VisitorActionResult =
  | { intent: VisitorIntent; ok: true; message: string; blurb?: string }
  | {
      intent: VisitorIntent;
      ok: false;
      formError: string;
      fieldErrors: Record<string, string>;
      /** What was submitted, so a page rendered without JavaScript can refill the form. */
      values?: Record<string, string | string[]>;
    };

/** The spec's success toasts. */
export const SUBSCRIBED_MESSAGE = "You're on the list—weekly Friday digest, unsub anytime.";
export const SIGNAL_RECORDED_MESSAGE = "Signal of interest recorded!";
export const INTRO_SENT_MESSAGE = "Intro request sent!";

/** The spec's fallback messages when the server gives none. */
export const FAILURE_MESSAGES: Record<VisitorIntent, string> = {
  intro: "Failed to submit. Please try again.",
  subscribe: "Failed to subscribe. Please try again.",
  signal: "Failed to record signal",
};
