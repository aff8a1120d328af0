import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";

export type RateLimitRule = { windowSeconds: number; max: number; message: string };

/** At most `max` a day (a rolling 24 hours), `message` saying so past it. */
export function dailyLimit(max: number, message: string): RateLimitRule {
  return { windowSeconds: 24 * 60 * 60, max, message };
}

/**
 * The public forms' limits (decision 16, decision 50). Past one of them a form is not refused but held for the
 * founder's review (kept, counted nowhere until accepted), so a limit may err towards holding; none may catch a
 * real person in the ordinary case.
 * - A burst per browser and project: a person sends an intro, a subscription and a signal within seconds at most;
 *   a fourth form within 10 seconds is a script.
 * - Per browser and project over ten minutes: a staff phone typing in one walk-up every 10 to 15 seconds sends 40 to
 *   60; 60 is the line (one form every 10 seconds, sustained).
 * - Per network address, across projects: a hall of several hundred phones behind one NAT. 400 people each sending
 *   two forms within ten minutes is 800; the line is 1,000.
 * - Per target e-mail address and project: one address cannot be flooded with confirmations (a held form mails
 *   nobody).
 */
export const VISITOR_FORM_LIMITS = {
  burstPerBrowser: { windowSeconds: 10, max: 3, message: "Too many submissions from this browser within seconds." },
  perBrowser: { windowSeconds: 10 * 60, max: 60, message: "Too many submissions from this browser. Please wait a few minutes and try again." },
  perAddress: { windowSeconds: 10 * 60, max: 1_000, message: "Too many submissions from your network. Please wait a few minutes and try again." },
  perEmail: { windowSeconds: 60 * 60, max: 5, message: "Too many submissions for this e-mail address. Please try again later." },
} as const satisfies Record<string, RateLimitRule>;

/** A form sent sooner than this after its browser opened the page was not typed by a person (decision 50). */
export const FASTEST_HUMAN_FORM_MS = 3_000;

/**
 * Once one of its forms is held, the same browser's forms are held for this long: a flood is held from its first
 * suspicious form to its last, however fast or slow it goes on (decision 50).
 */
export const HELD_BROWSER_MS = 10 * 60 * 1000;

/**
 * Where storing a held form would itself be the abuse (a script filling the database with 64 KB forms): held rows
 * per network address and per browser an hour. Beyond them a form is refused (429) and only tallied for the
 * founder, as every limit was before decision 50. 300 held an hour from one address is a flood the founder can
 * still read; a browser's 100 is more than any person sends in a day.
 */
export const HELD_FORM_CEILINGS = {
  perAddress: { windowSeconds: 60 * 60, max: 300, message: "Too many submissions from your network. Please wait a while and try again." },
  perBrowser: { windowSeconds: 60 * 60, max: 100, message: "Too many submissions from this browser. Please wait a while and try again." },
} as const satisfies Record<string, RateLimitRule>;

/**
 * At most this many forms wait for review in one project (decision 80): beyond it, a form that would be held is
 * refused with 429 and tallied, so the review stays something a founder can get through.
 */
export const HELD_FORMS_PER_PROJECT = {
  max: 1_000,
  retryAfterSeconds: 60 * 60,
  message: "This page is getting too many submissions right now. Please try again later.",
} as const;

/**
 * Unsubscribe by a typed address (the /unsubscribe form and the JSON endpoint, decision 37): it only mails the
 * address a confirmation link, so these stop one client from mailing many addresses (per network address and per
 * browser) and one address from being mailed again and again (per target address). A venue's visitors never share
 * an allowance with it.
 */
export const UNSUBSCRIBE_REQUEST_LIMITS = {
  perAddress: { windowSeconds: 10 * 60, max: 20, message: "Too many submissions from your network. Please wait a few minutes and try again." },
  perBrowser: { windowSeconds: 60 * 60, max: 10, message: "Too many submissions from this browser. Please wait a while and try again." },
  perEmail: { windowSeconds: 60 * 60, max: 3, message: "Too many requests for this e-mail address. Please try again later." },
} as const satisfies Record<string, RateLimitRule>;

/**
 * "Forgot password?", per target address, counted whether or not the address has an account: a founder
 * asks once or twice, nobody's inbox gets more than three reset mails an hour. Per client address, better-auth's own
 * limiter counts the same requests (auth.server.ts).
 */
/** 'Send it again' for the address confirmation: per account, so a banner cannot be made to flood an inbox. */
export const EMAIL_CONFIRMATION_LIMIT: RateLimitRule = { windowSeconds: 60 * 60, max: 3, message: "We sent three links in the last hour. Open the newest one, or try again later." };

export const PASSWORD_RESET_LIMITS = {
  perEmail: { windowSeconds: 60 * 60, max: 3, message: "Too many reset requests for this address in the last hour. Please try again later." },
} as const satisfies Record<string, RateLimitRule>;

/**
 * Scripted scan counts per network address (decision 16's venue sizing): a hall of several hundred phones behind one
 * NAT, each loading the page a few times in ten minutes, stays well under 2,000; a script counting "viewers" with
 * rotating fingerprints from one address stops there. Counted in each instance's memory (InMemoryWindowLimit).
 */
export const TRACK_SCAN_LIMIT: RateLimitRule = {
  windowSeconds: 10 * 60,
  max: 2_000,
  message: "Too many requests from your network. Please wait a few minutes and try again.",
};

/**
 * The pitch page's save beacon, per network address: sized like track-scan (a hall behind one NAT saving
 * a few pitches each); repeated saves are deduplicated anyway, so this only stops a flood of requests.
 */
export const SAVE_PITCH_LIMIT: RateLimitRule = {
  windowSeconds: 10 * 60,
  max: 2_000,
  message: "Too many requests from your network. Please wait a few minutes and try again.",
};

/**
 * 'E-mail me this list' (decision 38): the mail is the whole action, so past a limit nothing is sent and the
 * visitor is told. Per browser (a person sends their list once or twice a day), per recipient address (nobody's inbox
 * can be flooded), and per network address across browsers (a hall of phones behind one NAT stays under it). An
 * address this browser has not confirmed gets a confirmation instead of the list, and those have ceilings of their
 * own, per network address and across the whole instance, so rotating browsers or addresses buys nothing.
 * The recipient also counts against VISITOR_MAIL_CAPS.acrossProjects, shared with every other visitor mail.
 */
export const SAVED_LIST_MAIL_LIMITS = {
  perBrowser: { windowSeconds: 60 * 60, max: 5, message: "This browser has sent its list several times this hour. Please try again later." },
  perEmail: { windowSeconds: 60 * 60, max: 3, message: "Too many submissions for this e-mail address. Please try again later." },
  perAddress: { windowSeconds: 10 * 60, max: 500, message: "Too many submissions from your network. Please wait a few minutes and try again." },
  confirmationsPerAddress: { windowSeconds: 10 * 60, max: 30, message: "Too many submissions from your network. Please wait a few minutes and try again." },
  confirmationsOverall: { windowSeconds: 10 * 60, max: 300, message: "Lists can't be e-mailed right now. Please try again in a few minutes." },
} as const satisfies Record<string, RateLimitRule>;

/**
 * A founder's 'Send me a test e-mail', per founder: enough to try a few SMTP settings in a row, never a
 * way to hammer the SMTP server (each send opens a connection to it).
 */
export const TEST_MAIL_LIMIT: RateLimitRule = {
  windowSeconds: 10 * 60,
  max: 5,
  message: "You sent 5 test e-mails in the last 10 minutes. Please wait a few minutes and try again.",
};

/**
 * Mails a visitor can make us send to an address they typed (a signal's confirmation, a subscription's welcome),
 * per recipient (decision "visitor-mail-caps"): past a cap the action still succeeds and the founder keeps the
 * lead, but no mail is queued, so nobody can use our forms to flood somebody else's inbox.
 */
export const VISITOR_MAIL_CAPS = {
  perProject: { windowSeconds: 60 * 60, max: 3 },
  acrossProjects: { windowSeconds: 24 * 60 * 60, max: 10 },
} as const satisfies Record<string, Omit<RateLimitRule, "message">>;

/**
 * Counts one hit against `key` in a fixed window, atomically (one upsert, safe across instances), and throws
 * a `rate_limited` error once the window's allowance is used up.
 */
export async function consumeRateLimit(db: Kysely<Database>, key: string, rule: RateLimitRule, now = Date.now()): Promise<void> {
  if (!(await takeFromAllowance(db, key, rule, now))) throw new DomainError("rate_limited", rule.message, {}, retryAfterSeconds(rule));
}

/** Seconds a refused client should wait before trying again: at most one window. */
export function retryAfterSeconds(rule: Pick<RateLimitRule, "windowSeconds">): number {
  return rule.windowSeconds;
}

/**
 * Counts one hit against `key` in a fixed window, atomically (one upsert, safe across instances); resolves
 * whether the hit is still within the window's allowance. Inside a transaction the count commits with it.
 */
export async function takeFromAllowance(
  db: Kysely<Database>,
  key: string,
  rule: Pick<RateLimitRule, "windowSeconds" | "max">,
  now = Date.now(),
): Promise<boolean> {
  return (await countInWindow(db, key, rule, now)).count <= rule.max;
}

/**
 * Counts one hit against `key` in a fixed window, as `takeFromAllowance` does; resolves the window's count with
 * this hit and when the window began (epoch ms), so a limit can say what it saw ("12 forms within 40 seconds").
 */
export async function countInWindow(
  db: Kysely<Database>,
  key: string,
  rule: Pick<RateLimitRule, "windowSeconds">,
  now = Date.now(),
): Promise<{ count: number; windowStartedAt: number }> {
  const windowStart = now - rule.windowSeconds * 1000;
  const row = await db
    .insertInto("form_rate_limits")
    .values({ key, window_started_at: now, count: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql`case when form_rate_limits.window_started_at <= ${windowStart} then 1 else form_rate_limits.count + 1 end`,
        window_started_at: sql`case when form_rate_limits.window_started_at <= ${windowStart} then ${now} else form_rate_limits.window_started_at end`,
      }),
    )
    .returning(["count", "window_started_at"])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), windowStartedAt: Number(row.window_started_at) };
}
