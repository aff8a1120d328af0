// Lead settings on a phone (decision 88): when the morning-after report goes out, yesterday's report in the app, and
// 'Send it to me now' through the outbox, refused with a clear message past three a day.
import { expect, it } from "vitest";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject } from "../support/pitch-e2e";
import { confirmFromOutbox, signedInContext, uniqueEmail } from "../support/sign-up";
import { waitForHydration } from "../support/clients";
import { countRows } from "../support/test-db";

const e2e = setUpAppInBrowser({ env: { DIGEST_HOUR: "8" } });

it("names the hour and zone, previews yesterday's report and sends it to the founder now", { timeout: 90_000 }, async () => {
  const email = uniqueEmail("report-now");
  const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
  await confirmFromOutbox(e2e.db, email);
  const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Mornings", qrCodes: [{ label: "Booth", eventTag: "Demo Day" }] });
  const page = await context.newPage();
  try {
    await page.goto(`${e2e.app.url}/project/${project.id}/leads/settings`);
    await waitForHydration(page);
    const card = page.getByRole("region", { name: "Morning-after report" });
    await card.getByText("It goes out at 08:00 in UTC, the owner's clock, to the owner and co-founders.").waitFor();

    await card.getByRole("link", { name: "Preview yesterday's report" }).click();
    await page.waitForURL(`${e2e.app.url}/project/${project.id}/leads/report`);
    await page.getByRole("heading", { name: "Yesterday's report", level: 1 }).waitFor();
    const subject = `Yesterday at Harbor Mornings: 0 scans, 0 people acted — Harbor Mornings`;
    expect(await page.locator("[data-report-subject]").textContent()).toBe(subject);
    const mail = page.frameLocator(`iframe[title="E-mail preview: ${subject}"]`);
    await mail.getByText("Open the analytics").waitFor();
    await page.screenshot({ path: "/tmp/report-preview-390.png", fullPage: true });

    await page.getByRole("link", { name: "Lead settings" }).first().click();
    await page.waitForURL(/\/leads\/settings/);
    await waitForHydration(page);
    const send = page.getByRole("region", { name: "Morning-after report" }).getByRole("button", { name: "Send it to me now" });
    const status = page.getByRole("region", { name: "Morning-after report" }).getByRole("status");
    for (let sent = 1; sent <= 3; sent += 1) {
      await send.click();
      await expect.poll(() => status.textContent()).toBe(`Yesterday's report is on its way to ${email}`);
      await expect.poll(() => countRows(e2e.db.selectFrom("mail_outbox").where("kind", "=", "morning-report").where("recipient", "=", email))).toBe(sent);
    }
    await send.click();
    await expect.poll(() => status.textContent()).toBe("You had this report sent 3 times today. It still goes out on its own the morning after a day with scans.");
    await page.screenshot({ path: "/tmp/report-card-390.png" });
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: "/tmp/report-card-only-390.png" });
    const sentMail = await e2e.db.selectFrom("mail_outbox").select("subject").where("kind", "=", "morning-report").where("recipient", "=", email).executeTakeFirstOrThrow();
    expect(sentMail.subject).toBe(subject);
  } finally {
    await context.close();
  }
});
