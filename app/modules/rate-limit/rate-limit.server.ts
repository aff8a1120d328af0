import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";

export type RateLimitRule = { windowSeconds: number; max: number; message: string };

/** Public forms: generous for a person, tight for a script. Kept in the database, so it holds across restarts and instances. */
export const PUBLIC_FORM_LIMIT: RateLimitRule = {
  windowSeconds: 10 * 60,
  max: 20,
  message: "Too many submissions from your network. Please wait a few minutes and try again.",
};

/**
 * Counts one hit against `key` in a fixed window, atomically (one upsert, safe across instances), and throws
 * a `rate_limited` error once the window's allowance is used up.
 */
export async function consumeRateLimit(db: Kysely<Database>, key: string, rule: RateLimitRule, now = Date.now()): Promise<void> {
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
    .returning("count")
    .executeTakeFirstOrThrow();
  if (Number(row.count) > rule.max) throw new DomainError("rate_limited", rule.message);
}
