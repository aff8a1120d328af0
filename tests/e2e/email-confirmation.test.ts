// Decision 83, in Chromium with a real SMTP server: a founder who just signed up sees on their screens that their
// address is not confirmed, can send the link again, opens the link the SMTP server received, presses its button,
// and the banner is gone. The banner and the confirmation page pass axe at 390 and 1280 px.
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, formatViolations } from "../support/axe";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { confirmationLinkIn, signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { collectPageErrors, newClientContext, showServerLogsOnFailure, waitForHydration } from "../support/clients";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <pitch@pitchqr.test>" }) });
showServerLogsOnFailure(() => [e2e.app]);

function recipientOf(mail: ParsedMail): string {
  const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
  return to?.value[0]?.address ?? "";
}

/** The confirmation mails the SMTP server received for `address`, once there are `count` of them. */
async function confirmationsTo(address: string, count: number): Promise<ParsedMail[]> {
  const matching = () => smtp.received.filter((mail) => recipientOf(mail) === address && /^Confirm your PitchQR e-mail address$/.test(mail.subject ?? ""));
  await expect.poll(() => matching().length, { timeout: 15_000 }).toBe(count);
  return matching();
}

async function expectNoAxeViolations(page: Parameters<typeof axeViolations>[0], where: string) {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    const violations = await axeViolations(page);
    expect(violations, formatViolations(`${where} at ${viewport.width}px`, violations)).toEqual([]);
  }
  await page.setViewportSize(PHONE);
}

describe("confirming the account's e-mail address", () => {
  it("signs up, sees the banner, sends the link again, confirms with the mailed link, and the banner is gone", { timeout: 90_000 }, async () => {
    // bypassCSP lets the test inject axe-core; the app's policy itself is untouched.
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      const email = uniqueEmail("confirm");
      await signUpThroughPage(page, e2e.app.url, email);
      const [first] = await confirmationsTo(email, 1);
      expect(first!.text).toContain("The link works for 24 hours.");

      await signInThroughPage(page, e2e.app.url, email);
      await page.goto(`${e2e.app.url}/my-projects`);
      await waitForHydration(page);
      const banner = page.getByRole("region", { name: "E-mail address not confirmed" });
      expect(await banner.innerText()).toContain("Confirm your e-mail address to get alerts and reports.");
      expect(await banner.innerText()).toContain(email);
      await page.screenshot({ path: "tmp/confirm-banner-390.png" });

      await banner.getByRole("button", { name: "Send it again" }).click();
      await expect.poll(() => banner.getByRole("status").innerText()).toBe(`We sent a new link to ${email}. It works for 24 hours.`);
      await expectNoAxeViolations(page, "my projects with the banner");
      await page.setViewportSize(DESKTOP);
      await page.screenshot({ path: "tmp/confirm-banner-1280.png" });
      await page.setViewportSize(PHONE);
      const mails = await confirmationsTo(email, 2);

      // The link opens a page that changes nothing; its button confirms.
      await page.goto(confirmationLinkIn(mails[1]!.text ?? ""));
      await waitForHydration(page);
      await expectNoAxeViolations(page, "the confirmation page");
      await page.screenshot({ path: "tmp/confirm-page-390.png" });
      expect(await banner.count()).toBe(0);
      await page.getByRole("button", { name: "Confirm my address" }).click();
      await page.getByText("Your e-mail address is confirmed. Lead alerts and reports will arrive there as you chose them.").waitFor();
      await page.screenshot({ path: "tmp/confirm-done-390.png" });

      await page.getByRole("link", { name: "Go to My Projects" }).click();
      await page.waitForURL(`${e2e.app.url}/my-projects`);
      await waitForHydration(page);
      expect(await banner.count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
