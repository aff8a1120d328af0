import { describe, expect, it } from "vitest";
import { isRetryableConflict } from "~/db/normalize.server";
import { retryOnConflict } from "~/db/retry.server";

const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
const serialization = Object.assign(new Error("could not serialize access"), { code: "40001" });
const unique = Object.assign(new Error("duplicate key"), { code: "23505" });

describe("retryOnConflict", () => {
  it("knows PostgreSQL's deadlock and serialization failures, and nothing else", () => {
    expect([deadlock, serialization, unique, new Error("x"), null, "40P01"].map(isRetryableConflict)).toEqual([true, true, false, false, false, false]);
  });

  it("runs the work again after a lost race, and reports each retry", async () => {
    const failures = [deadlock, serialization];
    const retried: unknown[] = [];
    const result = await retryOnConflict(
      async () => {
        const failure = failures.shift();
        if (failure) throw failure;
        return "committed";
      },
      { onRetry: (error) => retried.push(error) },
    );
    expect(result).toBe("committed");
    expect(retried).toEqual([deadlock, serialization]);
  });

  it("throws any other error at once, and the last conflict when the attempts run out", async () => {
    let runs = 0;
    await expect(retryOnConflict(async () => (runs += 1) && Promise.reject(unique))).rejects.toBe(unique);
    expect(runs).toBe(1);
    runs = 0;
    await expect(retryOnConflict(async () => (runs += 1) && Promise.reject(deadlock), { attempts: 3 })).rejects.toBe(deadlock);
    expect(runs).toBe(3);
  });
});
