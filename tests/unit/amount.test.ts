import { describe, expect, it } from "vitest";
import { formatAmount, formatAmountRange } from "~/modules/formats/amount";

describe("formatAmount", () => {
  it("formats millions with one decimal", () => {
    expect(formatAmount(1_000_000)).toBe("$1.0M");
    expect(formatAmount(1_500_000)).toBe("$1.5M");
    expect(formatAmount(1_050_000)).toBe("$1.1M");
    expect(formatAmount(1_049_999)).toBe("$1.0M");
    expect(formatAmount(12_340_000)).toBe("$12.3M");
  });

  it("formats thousands rounded half up to whole thousands", () => {
    expect(formatAmount(1_000)).toBe("$1k");
    expect(formatAmount(25_000)).toBe("$25k");
    expect(formatAmount(2_500)).toBe("$3k");
    expect(formatAmount(2_499)).toBe("$2k");
    expect(formatAmount(999_499)).toBe("$999k");
  });

  it("shows a value that rounds to a thousand thousands as $1.0M", () => {
    expect(formatAmount(999_500)).toBe("$1.0M");
    expect(formatAmount(999_999)).toBe("$1.0M");
  });

  it("formats small amounts in whole dollars", () => {
    expect(formatAmount(999)).toBe("$999");
    expect(formatAmount(0)).toBe("$0");
    expect(formatAmount(12.6)).toBe("$13");
  });
});

describe("formatAmountRange", () => {
  it("joins min and max with a hyphen", () => {
    expect(formatAmountRange(5_000, 25_000)).toBe("$5k-$25k");
    expect(formatAmountRange(250_000, 1_000_000)).toBe("$250k-$1.0M");
  });

  it("shows min+ without a max", () => {
    expect(formatAmountRange(1_000_000, null)).toBe("$1.0M+");
    expect(formatAmountRange(500, undefined)).toBe("$500+");
  });
});
