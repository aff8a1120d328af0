// Issue 27, item 1 (decision 50), on the built app in Chromium with a real SMTP server: a staff phone typing in 15
// walk-ups one every 15 s is never held or refused; a script that opens the page and sends 30 forms has all 30 held,
// none a lead, none mailed; the founder reads the held list on a phone and accepts one, which becomes a lead with
// its original time and gets its mail.
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { insertProject, newVisitor, openPitchDialog, visitorUserAgent, withWritableDatabase } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForEnhancement, waitForHydration } from "./support";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <no-reply@pitchqr.test>" }) });

const HELD_ANSWER = "Thanks — we'll check this and pass it on to the founders.";

/**
 * Lets `seconds` pass for the limits without waiting: the server has no clock to set, so every mark its checks compare
 * the present with (allowance windows, the door's page loads, held forms) moves that far into the past.
 */
function letTimePass(seconds: number): void {
  const back = `-${seconds} seconds`;
  withWritableDatabase(e2e.app.dataDir, (db) => {
    db.prepare("update form_rate_limits set window_started_at = window_started_at - ?").run(seconds * 1000);
    db.prepare("update scans set scanned_at = strftime('%Y-%m-%dT%H:%M:%fZ', scanned_at, ?)").run(back);
    db.prepare("update held_submissions set received_at = strftime('%Y-%m-%dT%H:%M:%fZ', received_at, ?)").run(back);
  });
}

const mailTo = (address: string) => smtp.received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.includes(address)));

describe("forms held for review", () => {
  it("never holds a staff phone's 15 walk-ups, holds a 30-form flood whole, and lets the founder accept one", { timeout: 600_000 }, async () => {
    const founderEmail = uniqueEmail("held");
    const founder = await signedInContext(e2e.browser, e2e.app.url, founderEmail, { viewport: PHONE });
    const { id: ownerId } = e2e.db.prepare("select id from users where email = ?").get(founderEmail) as { id: string };
    const project = await insertProject(e2e.app.dataDir, {
      ownerId,
      title: "Held Review",
      tiers: [{ label: "Angel", min: 5_000, max: 25_000 }],
      qrCodes: [{ label: "Booth", eventTag: "Demo Day" }],
    });
    const pitch = `${e2e.app.url}/pitch/${project.slug}?qr=${project.qrCodeIds[0]}`;
    const count = (sql: string) => (e2e.db.prepare(sql).get(project.id) as { n: number }).n;
    const leads = () => count("select count(*) as n from leads where project_id = ?");
    const held = () => count("select count(*) as n from held_submissions where project_id = ?");

    // The staff phone: one page load, then a walk-up typed in every 15 seconds.
    const staff = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    await staff.page.goto(pitch);
    await waitForEnhancement(staff.page);
    for (let index = 0; index < 15; index += 1) {
      letTimePass(15);
      const intro = await openPitchDialog(staff.page, "Request Intro");
      await intro.getByLabel("Name", { exact: true }).fill(`Walk-up ${index}`);
      await intro.getByLabel("Email", { exact: true }).fill(`walkup${index}.${project.id.slice(0, 6)}@example.com`);
      await intro.getByLabel("Note", { exact: true }).fill("Met at the booth, wants the deck");
      await intro.getByRole("button", { name: "Request Intro" }).click();
      await intro.getByText("Intro request sent!").waitFor();
      await staff.page.keyboard.press("Escape");
      await intro.waitFor({ state: "hidden" });
    }
    await staff.context.close();
    expect([leads(), held(), count("select count(*) as n from form_refusals where project_id = ?")]).toEqual([15, 0, 0]);

    // The flood: a script opens the page and sends 30 forms from it in a few seconds.
    const flood = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    await flood.page.goto(pitch, { waitUntil: "domcontentloaded" });
    const tag = project.id.slice(0, 6);
    const answers = await flood.page.evaluate(
      async ({ slug, tag }) => {
        const messages: string[] = [];
        for (let index = 0; index < 30; index += 1) {
          const body = new URLSearchParams({ intent: "intro", name: `Flood ${index}`, email: `flood${index}.${tag}@example.com`, note: "Great pitch" });
          const response = await fetch(`/pitch/${slug}/submit`, { method: "POST", body });
          messages.push(`${response.status} ${((await response.json()) as { message?: string }).message}`);
        }
        return messages;
      },
      { slug: project.slug, tag },
    );
    await flood.context.close();
    expect(answers).toEqual(Array.from({ length: 30 }, () => `200 ${HELD_ANSWER}`));
    expect([leads(), held()]).toEqual([15, 30]);

    // Mail: each walk-up got their intro's copy; no flood address got anything.
    await expect.poll(() => Array.from({ length: 15 }, (_, index) => mailTo(`walkup${index}.${tag}@example.com`).length).every((n) => n === 1), { timeout: 30_000 }).toBe(true);
    expect(Array.from({ length: 30 }, (_, index) => mailTo(`flood${index}.${tag}@example.com`).length)).toEqual(Array.from({ length: 30 }, () => 0));

    // The founder, on a phone: the inbox says 30 held for review; the list says who, what, when, where and why.
    const page = await founder.newPage();
    await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "30 held for review" }).click();
    await page.waitForURL(`**/project/${project.id}/leads/held`);
    await waitForHydration(page);
    const cards = page.getByRole("list", { name: "Held for review, newest first" }).locator(":scope > li");
    await expect.poll(() => cards.count()).toBe(30);
    const card = (name: string) => cards.filter({ has: page.getByRole("heading", { name, exact: true }) });
    const first = card("Flood 0");
    await first.getByText(/^Held: Sent \d+(\.\d)? seconds? after the page was opened$/).waitFor();
    expect(await first.textContent()).toContain(`flood0.${tag}@example.com`);
    expect(await first.textContent()).toContain("Great pitch");
    expect(await first.textContent()).toContain("Booth · Demo Day");
    await screenshot(page, "held-for-review-390");

    const { received_at: sentAt } = e2e.db.prepare("select received_at from held_submissions where project_id = ? and name = 'Flood 0'").get(project.id) as { received_at: string };
    await first.getByRole("button", { name: "Accept Flood 0's form" }).click();
    await page.getByRole("status").getByText("Accepted: Flood 0 is now in your leads").waitFor();
    await expect.poll(() => cards.count()).toBe(29);
    expect([leads(), held()]).toEqual([16, 29]);
    const lead = e2e.db.prepare("select first_seen_at from leads where project_id = ? and email = ?").get(project.id, `flood0.${tag}@example.com`) as { first_seen_at: string };
    expect(lead.first_seen_at).toBe(sentAt);
    await expect.poll(() => mailTo(`flood0.${tag}@example.com`).length, { timeout: 30_000 }).toBe(1);

    // Discard one: gone from the list, nothing else changes.
    await card("Flood 1").getByRole("button", { name: "Discard Flood 1's form" }).click();
    await page.getByRole("status").getByText("Discarded").waitFor();
    await expect.poll(() => cards.count()).toBe(28);
    expect([leads(), held()]).toEqual([16, 28]);

    await page.setViewportSize(DESKTOP);
    await screenshot(page, "held-for-review-1280");

    // The analytics page links the same number.
    await page.goto(`${e2e.app.url}/project/${project.id}/analytics`);
    await page.getByRole("region", { name: "How we count" }).getByRole("link", { name: "28 held for review" }).waitFor();
    await founder.close();
  });
});

/** Phone and desktop pictures of the held list, to look at (not compared). */
async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync("tmp/screenshots", { recursive: true });
  await page.screenshot({ path: `tmp/screenshots/${name}.png`, fullPage: false });
}
