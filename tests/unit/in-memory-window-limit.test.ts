import { describe, expect, it } from "vitest";
import { InMemoryWindowLimit } from "~/modules/rate-limit/address-window.server";

describe("a per-address window counted in memory", () => {
  it("allows the allowance per key and window, then refuses until the next window", () => {
    const limit = new InMemoryWindowLimit({ windowSeconds: 600, max: 3 });
    const start = 600_000 * 1000;
    expect([1, 2, 3, 4].map(() => limit.take("10.0.0.1", start))).toEqual([true, true, true, false]);
    expect(limit.take("10.0.0.2", start)).toBe(true);
    expect(limit.secondsLeft(start + 100_000)).toBe(500);
    expect(limit.take("10.0.0.1", start + 600_000)).toBe(true);
  });
});
