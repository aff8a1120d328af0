import type { Kysely } from "kysely";
import { holdCountLocks } from "~/db/count-lock.server";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import { founderTimeZone } from "~/modules/time/founder-zone";

/** At most `max` rows within the last `windowSeconds`, counted from the rows themselves. */
export type RowLimit = { windowSeconds: number; max: number };

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * Replies to leads (decision 77). A founder answers tens of leads a day, each reply read and edited from the template:
 * one every two minutes for an hour is a busy evening after a demo day. A team shares its project's allowance, so
 * the project's is twice an account's. A reply to someone who never used the pitch page themselves (only met in
 * person, or typed in by the team) goes to an address nobody confirmed, so those have a stricter daily cap.
 */
export const REPLY_LIMITS = {
  perAccountHour: { windowSeconds: HOUR, max: 30 },
  perAccountDay: { windowSeconds: DAY, max: 100 },
  perProjectHour: { windowSeconds: HOUR, max: 60 },
  perProjectDay: { windowSeconds: DAY, max: 200 },
  metOnlyPerAccountDay: { windowSeconds: DAY, max: 20 },
  metOnlyPerProjectDay: { windowSeconds: DAY, max: 40 },
} as const satisfies Record<string, RowLimit>;

/**
 * 'Add a person' (decision 77): a conversation at a booth takes minutes, and typing in a stack of cards afterwards
 * takes half a minute each; one a minute for an hour is more than one person does. A project's team of several at a
 * busy booth stays under its 150.
 */
export const CAPTURE_LIMITS = {
  perAccountHour: { windowSeconds: HOUR, max: 60 },
  perProjectHour: { windowSeconds: HOUR, max: 150 },
} as const satisfies Record<string, RowLimit>;

type Check = {
  rule: RowLimit;
  /** The time of the rule's `max`-th newest row inside its window, if there is one (then the window is full). */
  fullAt: (since: string, offset: number) => Promise<{ created_at: string } | undefined>;
  message: (max: number, window: string, again: string) => string;
};

const windowName = (rule: RowLimit) => (rule.windowSeconds === HOUR ? "the last hour" : "the last 24 hours");

/** The first check whose window is full refuses (`rate_limited`), saying when the next place opens. */
async function enforce(checks: Check[], timeZone: string, now: Date): Promise<void> {
  for (const check of checks) {
    const since = new Date(now.getTime() - check.rule.windowSeconds * 1000).toISOString();
    const row = await check.fullAt(since, check.rule.max - 1);
    if (!row) continue;
    // The place of that row opens when it leaves the window; shown to the minute, rounded up so it is never early.
    const opensAt = new Date(row.created_at).getTime() + check.rule.windowSeconds * 1000;
    const shownAt = Math.ceil(opensAt / 60_000) * 60_000;
    const again = `${formatFounderDateTime(shownAt, timeZone)} (${timeZone})`;
    throw new DomainError("rate_limited", check.message(check.rule.max, windowName(check.rule), again), {}, Math.max(1, Math.ceil((shownAt - now.getTime()) / 1000)));
  }
}

export type ReplySender = { authorId: string; projectId: string; timeZone: string };

/**
 * Refuses a reply past REPLY_LIMITS. Call it inside the transaction that writes the reply's follow-up row, before
 * any other write: it holds the account's and the project's reply counts locked until commit, so replies sent at
 * once from several instances are counted one after the other.
 */
export async function enforceReplyLimits(trx: Kysely<Database>, sender: ReplySender, toMetOnly: boolean, now: Date): Promise<void> {
  await holdCountLocks(trx, [`replies:account:${sender.authorId}`, `replies:project:${sender.projectId}`]);
  const replies = (since: string, offset: number, by: "author_id" | "project_id", metOnly: boolean) => {
    let query = trx
      .selectFrom("lead_follow_ups")
      .select("created_at")
      .where(by, "=", by === "author_id" ? sender.authorId : sender.projectId)
      .where("kind", "=", "reply")
      .where("created_at", ">", since);
    if (metOnly) query = query.where("to_met_only", "=", true);
    return query.orderBy("created_at", "desc").limit(1).offset(offset).executeTakeFirst();
  };
  const L = REPLY_LIMITS;
  const checks: Check[] = [
    {
      rule: L.perAccountHour,
      fullAt: (since, offset) => replies(since, offset, "author_id", false),
      message: (max, window, again) => `You have sent ${max} replies in ${window}, the most one account may send. You can reply again from ${again}.`,
    },
    {
      rule: L.perAccountDay,
      fullAt: (since, offset) => replies(since, offset, "author_id", false),
      message: (max, window, again) => `You have sent ${max} replies in ${window}, the most one account may send. You can reply again from ${again}.`,
    },
    {
      rule: L.perProjectHour,
      fullAt: (since, offset) => replies(since, offset, "project_id", false),
      message: (max, window, again) => `This project's team has sent ${max} replies in ${window}, the most one project may send. You can reply again from ${again}.`,
    },
    {
      rule: L.perProjectDay,
      fullAt: (since, offset) => replies(since, offset, "project_id", false),
      message: (max, window, again) => `This project's team has sent ${max} replies in ${window}, the most one project may send. You can reply again from ${again}.`,
    },
  ];
  if (toMetOnly) {
    checks.push(
      {
        rule: L.metOnlyPerAccountDay,
        fullAt: (since, offset) => replies(since, offset, "author_id", true),
        message: (max, window, again) =>
          `You have sent ${max} replies in ${window} to people who never used your pitch page themselves (met in person or typed in), the most one account may send them. You can reply to them again from ${again}; people who sent a form can be answered now.`,
      },
      {
        rule: L.metOnlyPerProjectDay,
        fullAt: (since, offset) => replies(since, offset, "project_id", true),
        message: (max, window, again) =>
          `This project's team has sent ${max} replies in ${window} to people who never used the pitch page themselves (met in person or typed in), the most one project may send them. You can reply to them again from ${again}; people who sent a form can be answered now.`,
      },
    );
  }
  await enforce(checks, sender.timeZone, now);
}

/**
 * Refuses a capture past CAPTURE_LIMITS, as `enforceReplyLimits` does for replies (inside the capture's transaction,
 * before its writes). The message is in the member's own time zone.
 */
export async function enforceCaptureLimits(trx: Kysely<Database>, userId: string, projectId: string, now: Date): Promise<void> {
  await holdCountLocks(trx, [`captures:account:${userId}`, `captures:project:${projectId}`]);
  const captures = (since: string, offset: number, by: "added_by" | "project_id") =>
    trx
      .selectFrom("lead_captures")
      .select("created_at")
      .where(by, "=", by === "added_by" ? userId : projectId)
      .where("created_at", ">", since)
      .orderBy("created_at", "desc")
      .limit(1)
      .offset(offset)
      .executeTakeFirst();
  const member = await trx.selectFrom("users").select("time_zone").where("id", "=", userId).executeTakeFirst();
  await enforce(
    [
      {
        rule: CAPTURE_LIMITS.perAccountHour,
        fullAt: (since, offset) => captures(since, offset, "added_by"),
        message: (max, window, again) => `You have added ${max} people in ${window}, the most one account may add. You can add more from ${again}.`,
      },
      {
        rule: CAPTURE_LIMITS.perProjectHour,
        fullAt: (since, offset) => captures(since, offset, "project_id"),
        message: (max, window, again) => `This project's team has added ${max} people in ${window}, the most one project may add. You can add more from ${again}.`,
      },
    ],
    founderTimeZone(member?.time_zone),
    now,
  );
}
