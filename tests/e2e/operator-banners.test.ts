// The operator's set-up said to the one who can act on it (decision 88): on a server without SMTP_URL and with the
// default PUBLIC_URL, the owner sees one banner per screen, holding both warnings where both apply, and dismisses it
// for a day (with JavaScript or without); staff and co-founders never see it; a lead opened from an alert comes first.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { founderPost } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { cookieHeader, locationOf, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

const MAIL = "E-mail is not sent";
const QR_ADDRESS = "QR codes will not open on phones";

let projectId = "";
let ownerContext: BrowserContext;

beforeAll(async () => {
  const email = uniqueEmail("banner-owner");
  const signedIn = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });

  ownerContext = signedIn.context;

  const ownerId = signedIn.user.id;
  ({ id: projectId } = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Banners", qrCodes: [{ label: "Booth" }] }));
}, 60_000);

afterAll(async () => {
  await ownerContext?.close();
});

/** A member who joined the project the way a person does: invited by the owner, then posting the link's token. */
async function memberContext(role: "co-founder" | "staff"): Promise<BrowserContext> {
  const email = uniqueEmail(`banner-${role}`);
  const { context } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
  const invited = await founderPost(e2e.app, await cookieHeader(ownerContext), `/project/${projectId}/team`, { intent: "invite", email, role });
  expect(invited.status).toBe(200);
  const mail = await e2e.db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
  const joined = await founderPost(e2e.app, await cookieHeader(context), "/team/join", { token });
  expect(locationOf(joined, e2e.app.url).pathname).toBe(`/project/${projectId}/leads`);
  return context;
}

async function open(page: Page, pathname: string): Promise<void> {
  await page.goto(`${e2e.app.url}${pathname}`);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
}

const banners = (page: Page) => page.getByRole("region", { name: "Server set-up" });

describe("the owner", () => {
  it("sees one banner on QR codes holding both warnings, dismisses it, and it stays away for a day on every screen", { timeout: 90_000 }, async () => {
    const page = await ownerContext.newPage();
    try {
      await open(page, `/project/${projectId}/qr-codes`);
      await waitForHydration(page);
      expect(await banners(page).count()).toBe(1);
      const banner = banners(page);
      expect(await banner.getByRole("alert", { name: QR_ADDRESS }).count()).toBe(1);
      expect(await banner.getByRole("alert", { name: MAIL }).count()).toBe(1);
      expect(await page.getByRole("alert", { name: MAIL }).count()).toBe(1);
      const dismiss = banner.getByRole("button", { name: "Dismiss for a day" });
      expect((await dismiss.boundingBox())!.width).toBeGreaterThan(0);
      await page.screenshot({ path: "/tmp/banner-qr-390.png", fullPage: false });

      // The banner goes at the tap; the dismissal is kept once the server's answer has set its cookie.
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/operator-banner/dismiss"));
      await dismiss.click();
      await expect.poll(() => banners(page).count()).toBe(0);
      await answered;
      await expect.poll(async () => (await ownerContext.cookies()).some((cookie) => cookie.name === "operator_banner_dismissed")).toBe(true);
      expect(new URL(page.url()).pathname).toBe(`/project/${projectId}/qr-codes`);

      for (const pathname of [`/project/${projectId}/qr-codes`, `/project/${projectId}/leads`, `/project/${projectId}/updates`, `/project/${projectId}/team`, "/dashboard"]) {
        await open(page, pathname);
        expect(await banners(page).count(), pathname).toBe(0);
      }
      const dismissed = (await ownerContext.cookies()).find((cookie) => cookie.name === "operator_banner_dismissed")!;
      const hours = (dismissed.expires * 1000 - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23);
      expect(hours).toBeLessThanOrEqual(24);
    } finally {
      await page.close();
      await ownerContext.clearCookies({ name: "operator_banner_dismissed" });
    }
  });

  it("dismisses it without JavaScript, back on the same screen, at 1280 px", { timeout: 60_000 }, async () => {
    const email = uniqueEmail("banner-nojs");
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP, javaScriptEnabled: false });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Without Script" });
    const page = await context.newPage();
    try {
      await open(page, `/project/${project.id}/updates`);
      expect(await banners(page).getByRole("alert", { name: MAIL }).count()).toBe(1);
      await page.screenshot({ path: "/tmp/banner-updates-1280.png" });
      await banners(page).getByRole("button", { name: "Dismiss for a day" }).click();
      await page.waitForURL(`${e2e.app.url}/project/${project.id}/updates`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await banners(page).count()).toBe(0);
      // Only what was dismissed is hidden: the QR codes screen still says QR codes will not open on phones.
      await open(page, `/project/${project.id}/qr-codes`);
      expect(await banners(page).getByRole("alert", { name: QR_ADDRESS }).count()).toBe(1);
      expect(await banners(page).getByRole("alert", { name: MAIL }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("sees no banner above a lead opened from an alert", { timeout: 60_000 }, async () => {
    const page = await ownerContext.newPage();
    try {
      await open(page, `/project/${projectId}/leads`);
      expect(await banners(page).count()).toBe(1);
      await open(page, `/project/${projectId}/leads?lead=from-an-alert`);
      expect(await banners(page).count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});

describe("members who cannot act on it", () => {
  for (const role of ["co-founder", "staff"] as const) {
    it(`a ${role} sees no operator banner on any screen`, { timeout: 90_000 }, async () => {
      const context = await memberContext(role);
      const page = await context.newPage();
      try {
        const screens = ["qr-codes", "leads", "updates", "team", ...(role === "co-founder" ? ["leads/settings"] : [])];
        for (const screen of screens) {
          await open(page, `/project/${projectId}/${screen}`);
          expect(await banners(page).count(), screen).toBe(0);
          expect(await page.getByRole("alert", { name: MAIL }).count(), screen).toBe(0);
          expect(await page.getByRole("alert", { name: QR_ADDRESS }).count(), screen).toBe(0);
        }
        await open(page, "/dashboard");
        expect(await page.getByRole("alert", { name: QR_ADDRESS }).count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  }
});
