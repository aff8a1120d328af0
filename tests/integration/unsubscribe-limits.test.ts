import { expect, it } from "vitest";
import { unsubscribeEmailLimited } from "~/modules/contacts/unsubscribe.server";
import type { DomainError } from "~/modules/errors.server";
import { UNSUBSCRIBE_API_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { describeEachDialect } from "../support/databases";

const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => "ok",
    (error: DomainError) => `${error.code} after ${error.retryAfterSeconds}s`,
  );

describeEachDialect("unsubscribe by address (the JSON endpoint), limited", (getDb) => {
  it("refuses one client address walking a list of addresses after its allowance, and names the wait", async () => {
    const { db } = getDb();
    const results: string[] = [];
    for (let index = 0; index < 25; index += 1) results.push(await outcome(unsubscribeEmailLimited(db, `walk${index}@example.com`, "198.51.100.7")));
    const allowed = UNSUBSCRIBE_API_LIMITS.perAddress.max;
    expect(results.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => "ok"));
    expect(new Set(results.slice(allowed))).toEqual(new Set([`rate_limited after ${UNSUBSCRIBE_API_LIMITS.perAddress.windowSeconds}s`]));
    await expect(outcome(unsubscribeEmailLimited(db, "walk0@example.com", "198.51.100.8"))).resolves.toBe("ok");
  });

  it("refuses one target address named again and again from many client addresses", async () => {
    const { db } = getDb();
    const results: string[] = [];
    for (let index = 0; index < 12; index += 1) results.push(await outcome(unsubscribeEmailLimited(db, "Target@Example.com", `192.0.2.${index}`)));
    const allowed = UNSUBSCRIBE_API_LIMITS.perEmail.max;
    expect(results.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => "ok"));
    expect(new Set(results.slice(allowed))).toEqual(new Set([`rate_limited after ${UNSUBSCRIBE_API_LIMITS.perEmail.windowSeconds}s`]));
  });
});
