// Decision 50, on the built app in Chromium with a real SMTP server: a staff phone typing in 15
// walk-ups one every 15 s is never held or refused; a script that opens the page and sends 30 forms has all 30 held,
// none a lead, none mailed; the founder reads the held list on a phone and accepts one, which becomes a lead with
// its original time and gets its mail. Decision 80: on a phone the founder pages through 120
// held forms with their true total, sees the refused ones and the 30 days, and discards a flood's hour at once.
import fs from "node:fs";
import path from "node:path";
import { openDatabase as openAppDatabase } from "~/db/client.server";
import type { HoldReason } from "~/db/schema";
import { holdSubmission } from "~/modules/held/held-submissions.server";
import { recordFormRefusal } from "~/modules/rate-limit/form-refusals.server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { insertProject, letLimitsTimePass, newVisitor, openPitchDialog, visitorUserAgent } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForEnhancement, waitForHydration } from "../support/clients";
import { countRows } from "../support/test-db";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <no-reply@pitchqr.test>" }) });

const HELD_ANSWER = "Thanks — we'll check this and pass it on to the founders.";

const letTimePass = (seconds: number) => letLimitsTimePass(e2e.app.dataDir, seconds);

const mailTo = (address: string) => smtp.received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.includes(address)));

describe("forms held for review", () => {
  it("never holds a staff phone's 15 walk-ups, holds a 30-form flood whole, and lets the founder accept one", { timeout: 600_000 }, async () => {
    const founderEmail = uniqueEmail("held");
    const { context: founder, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, founderEmail, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, {
      ownerId,
      title: "Held Review",
      tiers: [{ label: "Angel", min: 5_000, max: 25_000 }],
      qrCodes: [{ label: "Booth", eventTag: "Demo Day" }],
    });
    const pitch = `${e2e.app.url}/pitch/${project.slug}?qr=${project.qrCodeIds[0]}`;
    const leads = () => countRows(e2e.db.selectFrom("leads").where("project_id", "=", project.id));
    const held = () => countRows(e2e.db.selectFrom("held_submissions").where("project_id", "=", project.id));
    const refusals = () => countRows(e2e.db.selectFrom("form_refusals").where("project_id", "=", project.id));

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
    expect(await Promise.all([leads(), held(), refusals()])).toEqual([15, 0, 0]);

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
    expect(await Promise.all([leads(), held()])).toEqual([15, 30]);

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
    // Sent within 3 s of the page, it is held for its speed; on a machine slow enough that it came later, it was
    // accepted, and taken back with the burst the next forms made (decision 95). Either way it waits, saying why.
    await first.getByText(/^Held: (Sent (under )?\d+(\.\d)? seconds? after the page was opened|Accepted at first, then moved here: a later form from this browser was part of a burst)$/).waitFor();
    expect(await first.textContent()).toContain(`flood0.${tag}@example.com`);
    expect(await first.textContent()).toContain("Great pitch");
    expect(await first.textContent()).toContain("Booth · Demo Day");
    await screenshot(page, "held-for-review-390");

    const { received_at: sentAt } = await e2e.db.selectFrom("held_submissions").select("received_at").where("project_id", "=", project.id).where("name", "=", "Flood 0").executeTakeFirstOrThrow();
    await first.getByRole("button", { name: "Accept Flood 0's form" }).click();
    await page.getByRole("status").getByText("Accepted: Flood 0 is now in your leads").waitFor();
    await expect.poll(() => cards.count()).toBe(29);
    expect(await Promise.all([leads(), held()])).toEqual([16, 29]);
    const lead = await e2e.db.selectFrom("leads").select("first_seen_at").where("project_id", "=", project.id).where("email", "=", `flood0.${tag}@example.com`).executeTakeFirstOrThrow();
    expect(lead.first_seen_at).toBe(sentAt);
    await expect.poll(() => mailTo(`flood0.${tag}@example.com`).length, { timeout: 30_000 }).toBe(1);

    // Discard one: gone from the list, nothing else changes.
    await card("Flood 1").getByRole("button", { name: "Discard Flood 1's form" }).click();
    await page.getByRole("status").getByText("Discarded").waitFor();
    await expect.poll(() => cards.count()).toBe(28);
    expect(await Promise.all([leads(), held()])).toEqual([16, 28]);

    await page.setViewportSize(DESKTOP);
    await screenshot(page, "held-for-review-1280");

    // The analytics page links the same number.
    await page.goto(`${e2e.app.url}/project/${project.id}/analytics`);
    await page.getByRole("region", { name: "How we count" }).getByRole("link", { name: "28 held for review" }).waitFor();
    await founder.close();
  });

  it("pages through 120 held forms on a phone with their true total, and discards a flood's hour after confirming its count", { timeout: 300_000 }, async () => {
    const founderEmail = uniqueEmail("held-pages");
    const { context: founder, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, founderEmail, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Held Pages" });
    // A flood's 100 forms within one hour three hours ago, and 20 sent seconds after opening the page a day ago.
    const floodHour = Math.floor((Date.now() - 3 * 3_600_000) / 3_600_000) * 3_600_000;
    await keepHeld(project.id, "burst", floodHour + 60_000, 100, 20_000, "Flood", 3);
    await keepHeld(project.id, "speed", floodHour - 24 * 3_600_000, 20, 60_000, "Quick");

    const page = await founder.newPage();
    await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "120 held for review" }).click();
    await page.waitForURL(`**/project/${project.id}/leads/held`);
    await waitForHydration(page);
    await page.getByText(/^120 forms kept apart from your leads and numbers/).waitFor();
    await page.getByText("Held forms are deleted after 30 days.", { exact: false }).waitFor();
    await page.getByText("3 more refused").waitFor();
    const cards = page.getByRole("list", { name: "Held for review, newest first" }).locator(":scope > li");
    const pager = page.getByRole("navigation", { name: "Held forms pages" }).first();
    await expect.poll(() => pager.textContent()).toContain("1–50 of 120 · page 1 of 3");
    expect(await cards.count()).toBe(50);
    await screenshot(page, "held-pages-390");

    // Older, twice: every form is there, the last page holds the 20 quick ones.
    await pager.getByRole("link", { name: "Older" }).click();
    await expect.poll(() => pager.textContent()).toContain("51–100 of 120 · page 2 of 3");
    await pager.getByRole("link", { name: "Older" }).click();
    await expect.poll(() => pager.textContent()).toContain("101–120 of 120 · page 3 of 3");
    await expect.poll(() => cards.count()).toBe(20);
    expect(await cards.first().textContent()).toContain("Quick 19");
    await pager.getByRole("link", { name: "Newer" }).click();
    await expect.poll(() => pager.textContent()).toContain("51–100 of 120 · page 2 of 3");
    await pager.getByRole("link", { name: "Newer" }).click();
    await expect.poll(() => pager.textContent()).toContain("1–50 of 120 · page 1 of 3");

    // Discard all like this: the card asks first, naming the count and the hour; the 20 others stay.
    const flood = cards.filter({ has: page.getByRole("heading", { name: "Flood 99", exact: true }) });
    await flood.getByRole("link", { name: "Discard all 100 like this" }).click();
    const confirmation = flood.getByRole("group", { name: /^Discard all 100 forms held as a burst from one browser, sent .+\? This can't be undone\.$/ });
    await confirmation.waitFor();
    expect(await page.evaluate(() => window.innerWidth >= document.documentElement.scrollWidth)).toBe(true);
    await screenshot(page, "held-discard-like-390");
    await confirmation.getByRole("button", { name: "Discard 100 forms" }).click();
    await page.getByRole("status").getByText("Discarded 100 forms").waitFor();
    await expect.poll(() => cards.count()).toBe(20);
    await page.getByText(/^20 forms kept apart/).waitFor();
    expect(await countRows(e2e.db.selectFrom("held_submissions").where("project_id", "=", project.id))).toBe(20);

    await page.setViewportSize(DESKTOP);
    await screenshot(page, "held-pages-1280");
    await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
    await page.getByRole("link", { name: "20 held for review" }).waitFor();
    await founder.close();
  });
});

/**
 * Held forms as the visitor pipeline keeps them, in the app's own database: `count` of one reason, `stepMs` apart;
 * and `refused` forms tallied as refused beyond the project's ceiling.
 */
async function keepHeld(projectId: string, reason: HoldReason, from: number, count: number, stepMs: number, tag: string, refused = 0): Promise<void> {
  const { db, close } = openAppDatabase({ dialect: "sqlite", file: path.join(e2e.app.dataDir, "app.sqlite") });
  try {
    await db.transaction().execute(async (trx) => {
      for (let index = 0; index < count; index += 1) {
        const name = `${tag} ${index}`;
        const email = `${tag.toLowerCase()}${index}@example.com`;
        await holdSubmission(trx, {
          projectId,
          intent: "subscribe",
          name,
          email,
          fields: { name, email, consent: "on" },
          reason,
          reasonText: reason === "burst" ? "12 forms from one browser within 9 seconds" : "Sent 0.4 seconds after the page was opened",
          source: "direct",
          userId: null,
          browserKey: `${tag}-${index}`,
          receivedAt: new Date(from + index * stepMs),
        });
      }
    });
    for (let index = 0; index < refused; index += 1) await recordFormRefusal(db, projectId, "project");
  } finally {
    await close();
  }
}

/** Phone and desktop pictures of the held list, to look at (not compared). */
async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync("tmp/screenshots", { recursive: true });
  await page.screenshot({ path: `tmp/screenshots/${name}.png`, fullPage: false });
}
