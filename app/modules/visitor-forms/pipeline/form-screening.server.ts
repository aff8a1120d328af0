import type { Transaction } from "kysely";
import type { Database, HoldReason } from "~/db/schema";
import { countInWindow, FASTEST_HUMAN_FORM_MS, HELD_BROWSER_MS, VISITOR_FORM_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { latestHeldFromBrowser } from "~/modules/held/held-submissions.server";
import { pluralWord } from "~/modules/formats/counts";

export type HoldVerdict = { reason: HoldReason; text: string };

/**
 * Counts one form against the limits, inside its transaction, and says why it is to be held, or null (decision 50):
 * the hidden field filled in, sent within seconds of opening the page, a burst from one browser, a limit per browser,
 * network or e-mail address, or a browser whose form was held minutes ago. Every window counts the form whatever
 * the verdict, so a flood is seen however it is answered. The owner's own forms are counted and never held.
 */
export async function screenSubmission(
  trx: Transaction<Database>,
  form: {
    projectId: string;
    browserKey: string;
    clientIp: string;
    email: string;
    /** When this browser's visit to the project's page began (epoch ms), as `pageOpenedAt` says. */
    opened: number | null;
    /** When the form was sent, or filled in on a phone that kept it offline (epoch ms). */
    formAt: number;
    honeypot: string;
    byOwner: boolean;
    now: Date;
  },
): Promise<HoldVerdict | null> {
  const at = form.now.getTime();
  const windows = {
    address: await countInWindow(trx, `form:address:${form.clientIp}`, VISITOR_FORM_LIMITS.perAddress, at),
    burst: await countInWindow(trx, `form:burst:${form.projectId}:${form.browserKey}`, VISITOR_FORM_LIMITS.burstPerBrowser, at),
    browser: await countInWindow(trx, `form:browser:${form.projectId}:${form.browserKey}`, VISITOR_FORM_LIMITS.perBrowser, at),
    email: await countInWindow(trx, `form:email:${form.projectId}:${form.email}`, VISITOR_FORM_LIMITS.perEmail, at),
  };
  if (form.byOwner) return null;
  // "Within" is an upper bound: rounded up, and never "0 seconds" for forms sent in the same instant.
  const within = (windowStartedAt: number) => inWords(Math.max(100, at - windowStartedAt), Math.ceil);
  if (form.honeypot) return { reason: "honeypot", text: "The hidden field only scripts see was filled in" };
  // Another instance's word of a page load (decision 80) can carry a clock slightly ahead of this one's: a page load
  // stamped later than the form, within the window, is the page it was sent from.
  if (form.opened !== null && Math.abs(form.formAt - form.opened) < FASTEST_HUMAN_FORM_MS) {
    // Rounded down: a form held at 2.95 s reads "2.9 seconds", never the 3 s it was held for not reaching.
    return { reason: "speed", text: `Sent ${inWords(form.formAt - form.opened, Math.floor)} after the page was opened` };
  }
  if (windows.burst.count > VISITOR_FORM_LIMITS.burstPerBrowser.max) {
    return { reason: "burst", text: `${windows.burst.count} forms from one browser within ${within(windows.burst.windowStartedAt)}` };
  }
  if (windows.browser.count > VISITOR_FORM_LIMITS.perBrowser.max) {
    return { reason: "browser", text: `${windows.browser.count} forms from one browser within ${within(windows.browser.windowStartedAt)}` };
  }
  if (windows.address.count > VISITOR_FORM_LIMITS.perAddress.max) {
    return { reason: "address", text: `${windows.address.count.toLocaleString("en-US")} forms from one network address within ${within(windows.address.windowStartedAt)}` };
  }
  if (windows.email.count > VISITOR_FORM_LIMITS.perEmail.max) {
    return { reason: "email", text: `${windows.email.count} forms for this e-mail address within ${within(windows.email.windowStartedAt)}` };
  }
  const heldBefore = await latestHeldFromBrowser(trx, form.projectId, form.browserKey, new Date(at - HELD_BROWSER_MS));
  if (heldBefore) return { reason: "held_browser", text: `Sent ${inWords(at - heldBefore.getTime())} after another form from this browser was held` };
  return null;
}

/** "0.4 seconds", "12 seconds", "3 minutes": a span as the founder reads it. */
function inWords(milliseconds: number, round: (tenths: number) => number = Math.round): string {
  const ms = Math.max(0, milliseconds);
  if (ms < 10_000) {
    const seconds = round(ms / 100) / 10;
    if (seconds === 0) return "under 0.1 seconds";
    return `${seconds} ${pluralWord(seconds, "second")}`;
  }
  if (ms < 120_000) return `${Math.round(ms / 1000)} seconds`;
  return `${Math.round(ms / 60_000)} minutes`;
}
