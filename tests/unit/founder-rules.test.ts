import { describe, expect, it } from "vitest";
import { csvFileName, neutralizeFormula } from "~/modules/analytics/contacts-csv";
import { conversionRate } from "~/modules/analytics/conversion";
import { deriveSlug } from "~/modules/projects/project-form";
import { qrDownloadName } from "~/modules/qr/qr-form";

describe("deriveSlug", () => {
  it.each([
    ["Harbor Cold Chain", "harbor-cold-chain"],
    ["  --Hello, World!--  ", "hello-world"],
    ["AI ✨ for   Clinics 2.0", "ai-for-clinics-2-0"],
    ["Ünïcødé Café", "unic-de-cafe"],
    ["!!!", ""],
  ])("%j → %j", (title, slug) => {
    expect(deriveSlug(title)).toBe(slug);
  });

  it("keeps slugs within 80 characters without a trailing hyphen", () => {
    const slug = deriveSlug(`${"word ".repeat(40)}`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith("-")).toBe(false);
  });
});

describe("conversionRate", () => {
  it("is actions over unique viewers as a percentage with one decimal", () => {
    expect(conversionRate(1, 3)).toBe(33.3);
    expect(conversionRate(2, 3)).toBe(66.7);
    expect(conversionRate(5, 5)).toBe(100);
    expect(conversionRate(7, 4)).toBe(175);
  });

  it("is 0 with no unique viewers", () => {
    expect(conversionRate(4, 0)).toBe(0);
  });
});

describe("CSV cells", () => {
  it.each(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])("neutralises %j, which a spreadsheet would run", (value) => {
    expect(neutralizeFormula(value)).toBe(`'${value}`);
  });

  it("leaves ordinary text alone (quoting commas, quotes and newlines is csv-stringify's job)", () => {
    expect(neutralizeFormula('a, "b"\nc')).toBe('a, "b"\nc');
    expect(neutralizeFormula("ada@example.com")).toBe("ada@example.com");
  });

  it("names the file after the project, spaces as hyphens", () => {
    expect(csvFileName("Harbor Cold Chain")).toBe("Harbor-Cold-Chain-contacts.csv");
    expect(csvFileName('a/b:"c"')).toBe("abc-contacts.csv");
  });
});

describe("QR download names", () => {
  it("is {slug}-{label with spaces as hyphens}-qr.{ext}", () => {
    expect(qrDownloadName("harbor", "Booth A  East", "png")).toBe("harbor-Booth-A-East-qr.png");
    expect(qrDownloadName("harbor", "Badge", "svg")).toBe("harbor-Badge-qr.svg");
  });
});
