// The investor's list: a visitor saves three pitches of two founders (one through an event's QR code),
// sees 'Saved' on a pitch already in the list, opens `/saved` with no connection (never opened online before),
// and, back online, e-mails the list: the address is asked to confirm, and once confirmed the test's SMTP server
// receives one message with the three plain links; from that browser the next list goes straight out.
// A malformed address and an address past its limit get a message and send nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ParsedMail } from "mailparser";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, PHONE, PLAYWRIGHT_CHROMIUM_FLAGS } from "../support/chromium.js";
import { insertProject, marker, newVisitor, startCuttableProxy, visitorUserAgent, type CuttableProxy } from "../support/pitch-e2e";
import { signedInUser, signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForEnhancement } from "../support/clients";
import { countRows } from "../support/test-db";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let proxy: CuttableProxy;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await proxy?.close();
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <no-reply@pitchqr.test>" }) });

beforeAll(async () => {
  proxy = await startCuttableProxy(e2e.app.port);
});

const mailsTo = (address: string) =>
  smtp.received.filter((mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address === address);

describe("the investor's saved list", () => {
  it("saves three pitches of two founders, lists them offline newest first, and e-mails them in one message", async () => {
    const otherFounder = uniqueEmail("lantern");
    const { id: otherFounderId } = await signedInUser(e2e.app, otherFounder);
    const harbor = await insertProject(e2e.app.dataDir, { title: `Harbor Cold Chain ${marker("h")}`, oneLiner: "Solar vaccine fridges", qrCodes: [{ label: "Booth", eventTag: "Demo Day Berlin" }] });
    const tidal = await insertProject(e2e.app.dataDir, { title: `Tidal Grid ${marker("t")}`, oneLiner: "Batteries for harbours" });
    const lantern = await insertProject(e2e.app.dataDir, { title: `Lantern Labs ${marker("l")}`, oneLiner: "Light for night markets", ownerId: otherFounderId, qrCodes: [{ label: "Badge" }] });
    const titles = async (slug: string) => (await e2e.db.selectFrom("projects").select("title").where("slug", "=", slug).executeTakeFirstOrThrow()).title;

    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    try {
      const saveButton = page.getByRole("button", { name: /^Save/ });
      const save = async (path: string) => {
        await page.goto(`${proxy.url}${path}`);
        await waitForEnhancement(page);
        expect(await saveButton.getAttribute("aria-pressed")).toBe("false");
        await saveButton.click();
        await expect.poll(() => saveButton.getAttribute("aria-pressed")).toBe("true");
        expect(await saveButton.textContent()).toBe("Saved");
        // The server counted it (and named the event): the list marks it.
        await expect.poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem("pitchqr:saved") ?? "[]") as { counted: boolean }[]).every((saved) => saved.counted))).toBe(true);
      };
      await save(`/pitch/${harbor.slug}?qr=${harbor.qrCodeIds[0]}`);
      // The first save keeps `/saved` for offline use, though it was never opened.
      await page.waitForFunction(() => document.documentElement.dataset.savedListOffline === "true", undefined, { timeout: 15_000 });
      await save(`/pitch/${tidal.slug}`);
      await save(`/pitch/${lantern.slug}?qr=${lantern.qrCodeIds[0]}`);

      // A pitch already in the list says so.
      await page.goto(`${proxy.url}/pitch/${harbor.slug}`);
      await waitForEnhancement(page);
      expect(await saveButton.getAttribute("aria-pressed")).toBe("true");
      expect(await saveButton.textContent()).toBe("Saved");

      // The founder's count, per event: one visitor through Demo Day Berlin's code.
      const saves = (projectId: string, source: string) =>
        e2e.db.selectFrom("source_stats").select("saves").where("project_id", "=", projectId).where("source", "=", source).executeTakeFirst().then((row) => row?.saves ?? 0);
      expect(await Promise.all([saves(harbor.id, `qr:${harbor.qrCodeIds[0]}`), saves(tidal.id, "direct"), saves(lantern.id, `qr:${lantern.qrCodeIds[0]}`)])).toEqual([1, 1, 1]);

      // No connection at all: `/saved` opens from the phone.
      await context.setOffline(true);
      proxy.cut();
      const opened = await page.goto(`${proxy.url}/saved`);
      expect(opened?.fromServiceWorker()).toBe(true);
      await page.waitForFunction(() => document.querySelector<HTMLElement>("[data-saved-page]")?.dataset.savedReady === "true", undefined, { timeout: 15_000 });
      const items = page.getByRole("list", { name: "Saved pitches" }).getByRole("listitem");
      await expect.poll(() => items.count()).toBe(3);
      expect(await items.getByRole("heading").allTextContents()).toEqual(await Promise.all([titles(lantern.slug), titles(tidal.slug), titles(harbor.slug)]));
      expect(await items.nth(0).textContent()).toContain("via Badge");
      expect(await items.nth(1).textContent()).toContain("via Direct");
      expect(await items.nth(2).textContent()).toContain("Solar vaccine fridges");
      expect(await items.nth(2).textContent()).toMatch(/Saved (just now|1 minute ago) · via Demo Day Berlin/);
      expect(await items.nth(2).getByRole("link").getAttribute("href")).toBe(`/pitch/${harbor.slug}`);

      // Remove one, then take it back.
      await page.getByRole("button", { name: `Remove ${await titles(tidal.slug)}` }).click();
      await expect.poll(() => items.count()).toBe(2);
      await page.getByRole("button", { name: "Undo" }).click();
      await expect.poll(() => items.count()).toBe(3);

      // Offline, the list cannot be sent: it says so.
      const address = `${marker("investor")}@example.com`;
      const email = page.getByLabel("Email", { exact: true });
      const send = page.getByRole("button", { name: "E-mail me this list" });
      const error = page.getByRole("alert");
      await email.fill(address);
      await send.click();
      await expect.poll(() => error.textContent()).toContain("You're offline");

      proxy.restore();
      await context.setOffline(false);

      // A malformed address: a message, nothing queued.
      const queued = () => countRows(e2e.db.selectFrom("mail_outbox").where("kind", "=", "saved-list"));
      const queuedBefore = await queued();
      await email.fill("not-an-address");
      await send.click();
      await expect.poll(() => error.textContent()).toBe("Please enter a valid email address");
      expect(await email.getAttribute("aria-invalid")).toBe("true");
      expect(await queued()).toBe(queuedBefore);

      // The first time, the address is asked to confirm: the list itself goes nowhere yet (decision 38).
      await email.fill(address);
      await send.click();
      await page.getByText("Check your inbox: open the link we sent to confirm it's your address", { exact: false }).waitFor();
      await expect.poll(() => mailsTo(address).length, { timeout: 20_000, interval: 250 }).toBe(1);
      const confirmation = mailsTo(address)[0]!;
      expect(confirmation.subject).toBe("Confirm your address to get your saved pitches");
      for (const slug of [lantern.slug, tidal.slug, harbor.slug]) expect(confirmation.text).not.toContain(await titles(slug));
      const confirmLink = /(http\S+\/list-mail\/confirm\?token=[A-Za-z0-9_-]+)/.exec(confirmation.text ?? "")?.[1];
      expect(confirmLink).toBeDefined();
      await page.goto(confirmLink!);
      await page.getByText("3 saved pitches to", { exact: false }).waitFor();
      await page.getByRole("button", { name: "Confirm and send my list" }).click();
      await page.getByRole("heading", { name: "Your list is on its way" }).waitFor();

      await expect.poll(() => mailsTo(address).length, { timeout: 20_000, interval: 250 }).toBe(2);
      const mail = mailsTo(address).find((received) => received.subject?.startsWith("Your saved pitches"));
      const text = mail!.text ?? "";
      const links = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
      expect(links.slice(0, 3)).toEqual([lantern.slug, tidal.slug, harbor.slug].map((slug) => `${e2e.app.url}/pitch/${slug}`));
      expect(links[3]).toMatch(/\/list-mail\/stop\?token=/);
      for (const slug of [lantern.slug, tidal.slug, harbor.slug]) expect(text).toContain(await titles(slug));
      const html = String(mail!.html);
      expect(html).not.toMatch(/<img|\?qr=|utm_/i);

      // This browser confirmed the address: the next list goes straight out, until the address's limit (3 an hour).
      await page.goto(`${proxy.url}/saved`);
      await page.waitForFunction(() => document.querySelector<HTMLElement>("[data-saved-page]")?.dataset.savedReady === "true");
      await email.fill(address);
      await send.click();
      await page.getByText("Sent. Check your inbox in a minute.").first().waitFor();
      await expect.poll(() => mailsTo(address).length, { timeout: 20_000, interval: 250 }).toBe(3);
      await send.click();
      await expect.poll(() => mailsTo(address).length, { timeout: 20_000, interval: 250 }).toBe(4);
      const queuedAtLimit = await queued();
      await send.click();
      await expect.poll(() => error.textContent()).toBe("Too many submissions for this e-mail address. Please try again later.");
      expect(await queued()).toBe(queuedAtLimit);
    } finally {
      await context.close();
    }
  });

  it("opens /saved offline when it was opened at once after the first Save, before that Save had kept it", async () => {
    const title = `Harbor Cold Chain ${marker("h")}`;
    const harbor = await insertProject(e2e.app.dataDir, { title, oneLiner: "Solar vaccine fridges" });
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    try {
      await page.goto(`${e2e.app.url}/pitch/${harbor.slug}`);
      await waitForEnhancement(page);
      const saveButton = page.getByRole("button", { name: /^Save/ });
      await saveButton.click();
      await expect.poll(() => saveButton.getAttribute("aria-pressed")).toBe("true");
      // Straight to the list, while the Save is still keeping it.
      await page.goto(`${e2e.app.url}/saved`);
      const savedReady = () => page.waitForFunction(() => document.querySelector<HTMLElement>("[data-saved-page]")?.dataset.savedReady === "true", undefined, { timeout: 15_000 });
      await savedReady();
      // The list says it is kept (as it says after any first visit); without its own keep it would say so at once
      // and the reload below would fail.
      await page.waitForFunction(() => document.documentElement.dataset.offlineReady === "true", undefined, { timeout: 15_000 });

      await context.setOffline(true);
      const reloaded = await page.reload();
      expect(reloaded?.fromServiceWorker()).toBe(true);
      await savedReady();
      const items = page.getByRole("list", { name: "Saved pitches" }).getByRole("listitem");
      expect(await items.getByRole("heading").allTextContents()).toEqual([title]);
    } finally {
      await context.close();
    }
  });

  it("offers no Save in a browser that keeps no site data, where it could keep nothing", async () => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-no-site-data-"));
    fs.mkdirSync(path.join(profile, "Default"));
    // Chromium's own setting "Don't allow sites to save data", as a visitor would set it.
    fs.writeFileSync(path.join(profile, "Default", "Preferences"), JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: PLAYWRIGHT_CHROMIUM_FLAGS, viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.app.url}/pitch/demo-project`);
      await waitForEnhancement(page);
      await page.getByRole("link", { name: "Open on my phone" }).waitFor();
      expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Saved pitches" }).count()).toBe(0);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  it("shows an empty list that explains Save, and no e-mail form", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(`${e2e.app.url}/saved`);
      await page.waitForFunction(() => document.querySelector<HTMLElement>("[data-saved-page]")?.dataset.savedReady === "true");
      await page.getByRole("heading", { name: "Nothing saved yet" }).waitFor();
      expect(await page.getByRole("button", { name: "E-mail me this list" }).isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("keeps /saved shareable only while nobody is signed in: a founder's copy carries their name and is private", async () => {
    const anonymous = await fetch(`${e2e.app.url}/saved`);
    expect(anonymous.headers.get("cache-control")).toBe("public, no-cache");
    expect(await anonymous.text()).toContain("Sign In");

    const email = uniqueEmail("saved-founder");
    const cookie = await signUpAndSignIn(e2e.app.url, email);
    const signedIn = await fetch(`${e2e.app.url}/saved`, { headers: { cookie } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(await signedIn.text()).toContain("Saved pitches");
  });
});
