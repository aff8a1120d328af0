// Part 1: mail a founder can trust. The app runs with an SMTP server of this test's own; a second app
// without SMTP_URL shows the banner that mail is only kept on disk. The founder's 'Send me a test e-mail' shows
// what the SMTP server did (accepted, or refused with its reply); an intro's founder alert links to the lead in
// the inbox, and the visitor gets a confirmation with the forwardable text.
import path from "node:path";
import type { ParsedMail } from "mailparser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../support/app-server";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject, marker, newVisitor, openPitchDialog, postFunction, readThePage, visitorUserAgent } from "../support/pitch-e2e";
import { confirmFromOutbox, signedInContext, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { waitForEnhancement, waitForHydration } from "../support/clients";
import { withAppServer, type TestAppServer } from "../support/with-app-server";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let refusing = false;

beforeAll(async () => {
  smtp = await startSmtpServer({ refuseWith: () => (refusing ? { code: 550, message: "5.1.1 Mailbox unavailable in this test" } : null) });
});

afterAll(async () => {
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <pitch@pitchqr.test>" }) });

const SECTIONS = ["leads", "leads/settings", "updates", "qr-codes"] as const;

function recipientOf(mail: ParsedMail): string {
  const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
  return to?.value[0]?.address ?? "";
}

async function mailTo(address: string, subject: RegExp): Promise<ParsedMail> {
  await expect.poll(() => smtp.received.some((mail) => recipientOf(mail) === address && subject.test(mail.subject ?? "")), { timeout: 15_000 }).toBe(true);
  return smtp.received.find((mail) => recipientOf(mail) === address && subject.test(mail.subject ?? ""))!;
}

/** A founder signed in on `app`, with a project of their own. */
async function founderWithProject(app: TestAppServer, tag: string, viewport = PHONE) {
  const email = uniqueEmail(`mail-${tag}`);
  const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, app, email, { viewport });
  // Its address confirmed (decision 83), so the test e-mail and the alerts go out to it.
  await confirmFromOutbox(app.db, email);
  const project = await insertProject(app.dataDir, { ownerId, title: `Harbor ${tag}`, tiers: [{ label: "Angel", min: 5000, max: 25000 }] });
  return { email, context, project };
}

async function openSection(page: Page, app: AppServer, projectId: string, section: (typeof SECTIONS)[number]) {
  await page.goto(`${app.url}/project/${projectId}/${section}`);
  await waitForHydration(page);
}

describe("the founder's test e-mail", () => {
  it("shows the SMTP server's acceptance, then its refusal with the reply, on a phone", { timeout: 60_000 }, async () => {
    const { email, context, project } = await founderWithProject(e2e.app, "test-mail");
    const page = await context.newPage();
    try {
      await openSection(page, e2e.app, project.id, "leads/settings");
      const send = page.getByRole("button", { name: "Send me a test e-mail" });
      await send.click();
      const delivered = page.locator('[data-test-mail-outcome="delivered"]');
      await delivered.waitFor();
      expect(await delivered.textContent()).toContain(`Delivered to the SMTP server for ${email}`);
      expect(await delivered.textContent()).toMatch(/The server answered:\s*250 /);
      const arrived = await mailTo(email, /^Test e-mail from PitchQR/);
      expect(arrived.text).toContain("Your test e-mail arrived");

      refusing = true;
      await send.click();
      const refused = page.locator('[data-test-mail-outcome="refused"]');
      await refused.waitFor();
      const text = (await refused.textContent()) ?? "";
      expect(text).toContain(`The SMTP server refused the message to ${email}`);
      expect(text).toContain("550");
      expect(text).toContain("Mailbox unavailable in this test");
      expect(await page.locator('[data-test-mail-outcome="delivered"]').count()).toBe(0);
    } finally {
      refusing = false;
      await context.close();
    }
  });
});

describe("the banner that mail reaches nobody", () => {
  const noSmtp = withAppServer();

  it("shows on Leads, Alerts, Updates and QR codes without SMTP_URL, says where mail is kept, and the test e-mail names the file", { timeout: 90_000 }, async () => {
    const folder = path.join(noSmtp.dataDir, "mail");
    expect(noSmtp.logs.join("\n")).toContain(`Mail is kept as .eml files in ${folder}/`);
    const { email, context, project } = await founderWithProject(noSmtp, "no-smtp", DESKTOP);
    const page = await context.newPage();
    try {
      for (const section of SECTIONS) {
        await openSection(page, noSmtp, project.id, section);
        const banner = page.getByRole("alert", { name: "E-mail is not sent" });
        await banner.waitFor();
        const text = (await banner.textContent()) ?? "";
        expect(text, section).toContain(`Mail is kept as .eml files in ${folder}/`);
        expect(text, section).toContain("SMTP_URL");
        expect(text, section).toContain("MAIL_FROM");
      }
      await openSection(page, noSmtp, project.id, "leads/settings");
      await page.getByRole("button", { name: "Send me a test e-mail" }).click();
      const kept = page.locator('[data-test-mail-outcome="kept"]');
      await kept.waitFor();
      expect(await kept.textContent()).toContain(`Not sent: without SMTP_URL the message to ${email} was kept on disk.`);
      expect(await kept.textContent()).toContain(`${folder}/`);
    } finally {
      await context.close();
    }
  });

  it("is absent with SMTP_URL and a real sender, and no page names the SMTP server", { timeout: 60_000 }, async () => {
    expect(e2e.app.logs.join("\n")).not.toContain("Mail is kept as .eml files");
    const { context, project } = await founderWithProject(e2e.app, "with-smtp");
    const page = await context.newPage();
    try {
      for (const section of SECTIONS) {
        await openSection(page, e2e.app, project.id, section);
        await page.getByRole("heading", { level: 1 }).waitFor();
        expect(await page.getByRole("alert", { name: "E-mail is not sent" }).count(), section).toBe(0);
        expect(await page.getByRole("alert", { name: "E-mail may not arrive" }).count(), section).toBe(0);
        expect(await page.content(), section).not.toContain(smtp.url);
      }
    } finally {
      await context.close();
    }
  });
});

describe("an SMTP server that refuses the login", () => {
  let guarded: Awaited<ReturnType<typeof startSmtpServer>>;
  let loginWorks = false;

  beforeAll(async () => {
    guarded = await startSmtpServer({ auth: { accept: () => loginWorks } });
  });

  afterAll(async () => {
    await guarded?.close();
  });

  const app = withAppServer({ env: () => ({ SMTP_URL: guarded.url.replace("smtp://", "smtp://pitch:wrong-password@"), MAIL_FROM: "PitchQR <pitch@pitchqr.test>" }) });

  it("holds the mail, tells the founder on their screens, and delivers it once the login works", { timeout: 90_000 }, async () => {
    const { context, project } = await founderWithProject(app, "smtp-login");
    const page = await context.newPage();
    try {
      const follower = `${marker("held")}@example.com`;
      const subscribed = await postFunction(app.url, "subscribe-updates", { projectId: project.id, contact: { name: "Held Mail", email: follower }, consent: true });
      expect(subscribed.status).toBe(200);
      await expect.poll(() => guarded.auth.attempts, { timeout: 20_000 }).toBeGreaterThan(0);
      // The app logs the refusal once the server's answer reaches it, a moment after the attempt was seen here.
      await expect.poll(() => app.logs.some((line) => line.includes('"level":50') && /login|auth/i.test(line)), { timeout: 20_000 }).toBe(true);

      await openSection(page, app, project.id, "leads");
      const banner = page.getByRole("alert", { name: "E-mail is on hold" });
      await banner.waitFor();
      expect(await banner.textContent()).toContain("No message is lost");
      expect(await page.content()).not.toContain("wrong-password");
      expect(guarded.received).toHaveLength(0);

      loginWorks = true;
      await expect.poll(() => guarded.received.some((mail) => recipientOf(mail) === follower), { timeout: 60_000, interval: 500 }).toBe(true);
      await openSection(page, app, project.id, "leads");
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.getByRole("alert", { name: "E-mail is on hold" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe("an intro request's mail", () => {
  it("links the founder's alert to the lead in the inbox and sends the visitor a confirmation with the forwardable text", { timeout: 90_000 }, async () => {
    const { email: founderEmail, context, project } = await founderWithProject(e2e.app, "intro-alert");
    const visitorEmail = `${marker("intro-visitor")}@example.com`;
    const note = `Two clinics to introduce ${marker("note")}`;
    const visitor = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser), serviceWorkers: "block" });
    try {
      await visitor.page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(visitor.page);
      await readThePage(visitor.page, e2e.app.dataDir);
      const dialog = await openPitchDialog(visitor.page, "Request Intro");
      await dialog.getByLabel("Name", { exact: true }).fill("Vera Visitor");
      await dialog.getByLabel("Email", { exact: true }).fill(visitorEmail);
      await dialog.getByLabel("Note", { exact: true }).fill(note);
      await dialog.getByRole("button", { name: "Request Intro" }).click();
      // The spec's panel, saying what happens next.
      const status = dialog.getByRole("status");
      await status.getByText("Intro request sent!").waitFor();
      expect(await status.textContent()).toContain("The founders see it in their leads and reply to you by e-mail");
      const blurb = await dialog.getByLabel("Your forwardable intro blurb").inputValue();
      expect(blurb).toContain(note);
    } finally {
      await visitor.context.close();
    }

    const confirmation = await mailTo(visitorEmail, /^Your intro request to Harbor intro-alert is sent$/);
    expect(confirmation.text).toContain(`Your note: ${note}`);
    expect(confirmation.text).toContain(`> Intro: Vera Visitor → Harbor intro-alert`);
    expect(confirmation.text).toContain("You are not subscribed to anything.");
    expect(confirmation.html).not.toMatch(/<img|\/unsubscribe/);

    const alert = await mailTo(founderEmail, /^New intro request for Harbor intro-alert: Vera Visitor$/);
    const link = /Open Vera Visitor in your leads: (\S+)/.exec(alert.text ?? "")?.[1];
    expect(link).toBeDefined();
    const leadUrl = new URL(link!);
    expect(leadUrl.origin).toBe(e2e.app.url);
    expect(leadUrl.pathname).toBe(`/project/${project.id}/leads`);
    expect(alert.text).not.toContain("/analytics");

    const page = await context.newPage();
    try {
      await page.goto(leadUrl.href);
      await waitForHydration(page);
      const list = page.getByRole("list", { name: "The lead from your alert" });
      const card = list.locator(":scope > li");
      expect(await card.count()).toBe(1);
      expect(await card.getAttribute("aria-current")).toBe("true");
      await card.getByRole("heading", { name: "Vera Visitor" }).waitFor();
      await page.getByText("The lead from your alert.").waitFor();
      await page.getByRole("link", { name: "Show all leads" }).click();
      await page.waitForURL(`${e2e.app.url}/project/${project.id}/leads`);
    } finally {
      await context.close();
    }
  });
});
