// One clock, the founder's (decision 53): a founder in America/Denver and one in Asia/Kolkata, each in a browser
// whose own zone is UTC, set their zone on My Projects and read the lead inbox, the QR codes page and the daily chart
// for scans and a lead around midnight UTC. Fixtures go in through the domain functions, at fixed instants.
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { recordScans } from "~/modules/scans/scans.server";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { testMailLinks } from "../support/fixtures";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { collectPageErrors, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();
let database: AppDatabase;

beforeAll(() => {
  database = openDatabase({ dialect: "sqlite", file: path.join(e2e.app.dataDir, "app.sqlite") });
});

afterAll(async () => {
  await database?.close();
});

// Around midnight UTC on 20/21 November 2026, more than 48 hours before the run, so they fall in the daily chart.
const SCANS = ["2026-11-20T18:20:00.000Z", "2026-11-20T18:40:00.000Z", "2026-11-20T23:50:00.000Z", "2026-11-21T00:10:00.000Z"];
const QR_CREATED = "2026-11-20T20:00:00.000Z";
const LEAD_AT = "2026-11-21T02:00:00.000Z";

async function seed(ownerId: string, tag: string) {
  const project = await insertProject(e2e.app.dataDir, { ownerId, title: `Clock ${tag}`, qrCodes: [{ label: "Door", eventTag: "Demo Day" }] });
  const [qrCodeId] = project.qrCodeIds as [string];
  const { db } = database;
  await db.updateTable("qr_codes").set({ created_at: QR_CREATED }).where("id", "=", qrCodeId).execute();
  for (const at of SCANS) await recordScans(db, [{ projectId: project.id, qrCodeId, viewerFingerprint: `${tag}-${at}` }], undefined, new Date(at));
  const intro = validate(introSchema, { name: "Mira Sol", email: `mira-${tag}@example.com`, note: "At the door" });
  if (!intro.ok) throw new Error("fixture intro invalid");
  await submitIntro(db, testMailLinks, project.id, intro.data, { userId: null });
  // The intro happened at LEAD_AT: its rows say so.
  await db.updateTable("intros").set({ created_at: LEAD_AT }).where("project_id", "=", project.id).execute();
  await db.updateTable("contacts").set({ created_at: LEAD_AT }).where("project_id", "=", project.id).execute();
  await db.updateTable("leads").set({ first_seen_at: LEAD_AT, awaiting_since: LEAD_AT, last_activity_at: LEAD_AT }).where("project_id", "=", project.id).execute();
  return project;
}

async function chooseZone(page: Page, timeZone: string) {
  await page.goto(`${e2e.app.url}/my-projects`);
  await waitForHydration(page);
  expect(await page.getByText("Not set yet: dates and charts show UTC.").count()).toBe(1);
  await page.getByLabel("Time zone", { exact: true }).selectOption(timeZone);
  await page.getByRole("button", { name: "Save time zone" }).click();
  await page.getByRole("status").filter({ hasText: `Dates now show in ${timeZone} time.` }).waitFor();
}

/** The daily chart's numbers, from the table assistive technology reads: day label → total. */
async function dailyTotals(page: Page): Promise<Record<string, string>> {
  await page.getByRole("button", { name: "Earlier" }).click();
  const rows = page.locator("figure table tbody tr");
  const totals: Record<string, string> = {};
  for (const row of await rows.all()) totals[(await row.locator("th").textContent())!.trim()] = (await row.locator("td").last().textContent())!.trim();
  return totals;
}

describe.each([
  { timeZone: "America/Denver", qrCreated: "Nov 20, 2026", leadDay: "Nov 20, 2026", days: { "Nov 20": "4" } },
  { timeZone: "Asia/Kolkata", qrCreated: "Nov 21, 2026", leadDay: "Nov 21, 2026", days: { "Nov 20": "1", "Nov 21": "3" } },
])("a founder in $timeZone, browsing from a UTC browser", ({ timeZone, qrCreated, leadDay, days }) => {
  it("reads the QR page's dates, the inbox and the daily chart on their own clock", { timeout: 120_000 }, async () => {
    const email = uniqueEmail(`clock-${timeZone.split("/")[1]!.toLowerCase()}`);
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE, timezoneId: "UTC" });
    const project = await seed(ownerId, timeZone.replace("/", "-"));
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await chooseZone(page, timeZone);
      expect(errors, "My Projects").toEqual([]);

      await page.goto(`${e2e.app.url}/project/${project.id}/qr-codes`);
      await waitForHydration(page);
      expect(await page.locator(`time[datetime="${QR_CREATED}"]`).first().textContent()).toBe(qrCreated);
      expect(errors, "QR codes").toEqual([]);

      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      const lead = page.getByRole("listitem").filter({ hasText: "Mira Sol" }).first();
      // '5 days ago' for the latest activity, and the intro's own date.
      expect(await lead.locator(`time[datetime="${LEAD_AT}"]`).allTextContents()).toContain(leadDay);
      expect(errors, "Leads").toEqual([]);

      await page.goto(`${e2e.app.url}/project/${project.id}/analytics`);
      await waitForHydration(page);
      expect(await dailyTotals(page)).toEqual(days);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
