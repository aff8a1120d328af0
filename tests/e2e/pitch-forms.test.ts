// The pitch page's three visitor forms (intro, follow updates, signal) in the browser, with and without
// JavaScript, and the spec's JSON functions; what each stores, and that nothing private reaches the public page.
import { HELD_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { contactsByEmail, insertProject, marker, newVisitor, openPitchDialog, postFunction, readThePage, readWallStream } from "../support/pitch-e2e";
import { setUpAppInBrowser } from "../support/e2e-app";
import { countRows } from "../support/test-db";
import { waitForEnhancement } from "../support/clients";

const e2e = setUpAppInBrowser();
/** This file's own published project: the demo's tiers, and a wall with one supporter on it. */
let project: { id: string; slug: string };

/** E-mails, LinkedIn URLs and intro notes submitted in this file: none may ever appear on the public page. */
const privateValues: string[] = [];

beforeAll(async () => {
  project = await insertProject(e2e.app.dataDir, {
    title: "Harbor Cold Chain",
    oneLiner: "Solar cold rooms that keep vaccines potent from port to clinic",
    tiers: [
      { label: "Angel", min: 5_000, max: 25_000 },
      { label: "Syndicate", min: 25_000, max: 100_000 },
      { label: "Lead", min: 250_000, max: 1_000_000 },
      { label: "Strategic", min: 1_000_000, max: null },
    ],
    wall: [{ displayName: "Early Backer", message: "Backed the pilot" }],
  });
});

const pitchUrl = (query = "") => `${e2e.app.url}/pitch/${project.slug}${query}`;

async function openPitch(page: Page): Promise<void> {
  await page.goto(pitchUrl());
  await waitForEnhancement(page);
}

/**
 * A dialog as the server rendered it, for a visitor without JavaScript. Radix names a dialog after its
 * title only once scripts run, so without them it is found by its heading.
 */
const staticDialog = (page: Page, title: string) =>
  page.locator('[role="dialog"]').filter({ has: page.getByRole("heading", { name: title, exact: true }) });

const field = (dialog: Locator, label: string) => dialog.getByLabel(label, { exact: true });

/** The message a form shows above its fields (role=alert). */
async function formAlert(dialog: Locator, message: string): Promise<void> {
  await dialog.getByRole("alert").filter({ hasText: message }).first().waitFor();
}

const wallNames = (page: Page) =>
  page
    .getByRole("list", { name: "Wall entries, newest first" })
    .locator(":scope > li")
    .evaluateAll((items) => items.map((item) => item.querySelector("span.font-semibold")?.textContent ?? ""));

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("the intro dialog on a %s", (label, viewport) => {
  it("validates, stores the intro and shows a forwardable blurb that can be copied; Close resets it", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport, permissions: ["clipboard-read", "clipboard-write"] });
    try {
      await openPitch(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Request Intro");
      await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);

      const submit = dialog.getByRole("button", { name: "Request Intro" });
      await submit.click();
      await formAlert(dialog, "Please fill in all required fields");

      const id = marker(`${label}`);
      const email = `Ada.${id}@Example.COM`;
      await field(dialog, "Name").fill(`Ada ${id}`);
      await field(dialog, "Email").fill("ada-at-example.com");
      await field(dialog, "Note").fill(`Private intro note ${id}`);
      await submit.click();
      await formAlert(dialog, "Please enter a valid email address");

      await field(dialog, "Email").fill(email);
      await field(dialog, "LinkedIn URL").fill("javascript:alert(1)");
      await submit.click();
      await formAlert(dialog, "LinkedIn");
      expect(await field(dialog, "LinkedIn URL").getAttribute("aria-invalid")).toBe("true");
      expect(await contactsByEmail(e2e.db, email)).toEqual([]);

      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(new URL(page.url()).searchParams.get("dialog")).toBeNull();

      await readThePage(page, e2e.app.dataDir);
      const reopened = await openPitchDialog(page, "Request Intro");
      const linkedin = `https://www.linkedin.com/in/ada-${id}`;
      const note = `Private intro note ${id}: I can introduce you to two district health officers.`;
      await field(reopened, "Name").fill(`Ada ${id}`);
      await field(reopened, "Email").fill(email);
      await field(reopened, "LinkedIn URL").fill(linkedin);
      await field(reopened, "Note").fill(note);
      for (const tag of ["Angel", "Operator"]) {
        await reopened.getByText(tag, { exact: true }).click();
        expect(await reopened.getByRole("checkbox", { name: tag }).isChecked()).toBe(true);
      }
      privateValues.push(email.toLowerCase(), linkedin, note);
      await reopened.getByRole("button", { name: "Request Intro" }).click();

      const blurb = reopened.getByLabel("Your forwardable intro blurb");
      await blurb.waitFor();
      const text = await blurb.inputValue();
      expect(text).toContain(`Ada ${id}`);
      expect(text).toContain(note);
      await reopened.getByText("Intro request sent!").waitFor();
      const mailto = await reopened.getByRole("link", { name: "Open in email" }).getAttribute("href");
      expect(mailto).toMatch(/^mailto:\?/);
      expect(decodeURIComponent(mailto ?? "")).toContain(note);

      await reopened.getByRole("button", { name: "Copy" }).click();
      await reopened.getByRole("button", { name: "Copied!" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

      const contacts = await contactsByEmail(e2e.db, email);
      expect(contacts).toHaveLength(1);
      expect(contacts[0]).toMatchObject({
        project_id: project.id,
        name: `Ada ${id}`,
        email: email.toLowerCase(),
        intent: "Intro",
        subscribed: false,
        linkedin_url: linkedin,
        note,
      });
      expect(contacts[0]!.role_tags).toEqual(["Angel", "Operator"]);

      await reopened.getByRole("link", { name: "Close" }).click();
      await reopened.waitFor({ state: "hidden" });
      await readThePage(page, e2e.app.dataDir);
      const fresh = await openPitchDialog(page, "Request Intro");
      expect(await field(fresh, "Name").inputValue()).toBe("");
      expect(await field(fresh, "Note").inputValue()).toBe("");
      expect(await fresh.getByLabel("Your forwardable intro blurb").count()).toBe(0);
      expect(await contactsByEmail(e2e.db, email)).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});

describe("the follow-updates dialog", () => {
  it("requires consent, shows 'Subscribing...' while busy, then the spec's toast, and stores a subscribed contact", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await openPitch(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Follow Updates");
      const email = `${marker("follow")}@example.com`;
      privateValues.push(email);
      await field(dialog, "Name").fill("Grace Follower");
      await field(dialog, "Email").fill(email);
      await dialog.getByRole("button", { name: "Follow Updates" }).click();
      await formAlert(dialog, "Please agree to receive updates.");
      expect(await contactsByEmail(e2e.db, email)).toEqual([]);

      // Hold the submission until the busy label has been seen.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname.startsWith(`/pitch/${project.slug}`),
        async (route) => {
          if (route.request().method() === "POST") await released;
          await route.continue();
        },
      );
      await dialog.getByLabel("I agree to receive project updates by e-mail").check();
      await dialog.getByRole("button", { name: "Follow Updates" }).click();
      await dialog.getByRole("button", { name: "Subscribing..." }).waitFor();
      expect(await dialog.getByRole("button", { name: "Subscribing..." }).isDisabled()).toBe(true);
      release();

      await page.getByText("You're on the list—weekly Friday digest, unsub anytime.").waitFor();
      await dialog.waitFor({ state: "hidden" });
      const contacts = await contactsByEmail(e2e.db, email);
      expect(contacts).toHaveLength(1);
      expect(contacts[0]).toMatchObject({ project_id: project.id, name: "Grace Follower", subscribed: true });
    } finally {
      await context.close();
    }
  });

  it("closes on Escape", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      await openPitch(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Follow Updates");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(new URL(page.url()).searchParams.get("dialog")).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe("the signal dialog", () => {
  const hiddenSupporters = () => countRows(e2e.db.selectFrom("signals").where("project_id", "=", project.id).where("is_public", "=", false));

  it("lists the tiers with their ranges and the non-binding notice, validates, records a public signal and resets", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      await openPitch(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Signal Interest");

      const tiers = await e2e.db.selectFrom("signal_tiers").select("range_label").where("project_id", "=", project.id).orderBy("sort_order").execute();
      expect(tiers.map((tier) => tier.range_label)).toEqual(["Angel", "Syndicate", "Lead", "Strategic"]);
      const options = await dialog.locator("label:has(input[type=radio])").allTextContents();
      expect(options).toHaveLength(4);
      const ranges = ["$5k-$25k", "$25k-$100k", "$250k-$1.0M", "$1.0M+"];
      options.forEach((text, index) => {
        expect(text.startsWith(tiers[index]!.range_label)).toBe(true);
        expect(text).toContain(ranges[index]);
      });
      await dialog.getByText(/non-binding signal of interest\. No payment is made/).waitFor();

      const id = marker("sig");
      const email = `Signal.${id}@Example.com`;
      privateValues.push(email.toLowerCase());
      await dialog.locator("label", { hasText: "Angel" }).first().click();
      // The input stops typing at 100 characters; a script (or an old browser) can still send more.
      await field(dialog, "Name").evaluate((input: HTMLInputElement) => (input.value = "N".repeat(101)));
      await field(dialog, "Email").fill(email);
      await dialog.getByRole("button", { name: "Signal Interest" }).click();
      await formAlert(dialog, "Name must be less than 100 characters");
      expect(await contactsByEmail(e2e.db, email)).toEqual([]);

      const name = `Public Backer ${id}`;
      const message = `Met you at the expo ${id}`;
      privateValues.push(message);
      await field(dialog, "Name").fill(name);
      await field(dialog, "Message").fill(message);
      expect(await dialog.getByLabel("Show my name on the Recognition Wall").isChecked()).toBe(true);
      await dialog.getByRole("button", { name: "Signal Interest" }).click();
      await page.getByText("Signal of interest recorded!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(async () => (await wallNames(page))[0]).toBe(name);
      // The cached anonymous page is renewed: the next visitor gets the new entry in the first response.
      const cached = await fetch(pitchUrl());
      expect(cached.headers.get("x-page-cache")).toBe("hit");
      const cachedHtml = await cached.text();
      expect(cachedHtml).toContain(name);
      // The message is for the founders: 'Also show my message on the wall' was left off.
      expect(cachedHtml).not.toContain(message);

      const contacts = await contactsByEmail(e2e.db, email);
      expect(contacts).toHaveLength(1);
      expect(contacts[0]).toMatchObject({ intent: "Supporter", name, email: email.toLowerCase(), project_id: project.id });
      const signal = await e2e.db.selectFrom("signals").selectAll().where("contact_id", "=", contacts[0]!.id).executeTakeFirst();
      expect(signal).toMatchObject({ range_label: "Angel", range_min: 5_000, range_max: 25_000, amount: 5_000, is_public: true, message, message_public: false });
      const entries = await e2e.db
        .selectFrom("recognition_entries")
        .select(["type", "message", "is_public"])
        .where("project_id", "=", project.id)
        .where("display_name", "=", name)
        .execute();
      expect(entries).toEqual([{ type: "Supporter", message: null, is_public: true }]);

      await readThePage(page, e2e.app.dataDir);
      const again = await openPitchDialog(page, "Signal Interest");
      expect(await field(again, "Name").inputValue()).toBe("");
      expect(await field(again, "Email").inputValue()).toBe("");
      expect(await again.getByLabel("Show my name on the Recognition Wall").isChecked()).toBe(true);
      expect(await again.locator("input[type=radio]:checked").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("keeps a private signal off the wall and counts it as an additional supporter", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await openPitch(page);
      const before = await hiddenSupporters();
      const supporters = (count: number) => `+ ${count} additional ${count === 1 ? "supporter" : "supporters"}`;
      if (before > 0) await page.getByText(supporters(before), { exact: true }).waitFor();
      else expect(await page.getByText(/additional supporter/).count()).toBe(0);

      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Signal Interest");
      const id = marker("quiet");
      const name = `Quiet Backer ${id}`;
      const email = `${id}@example.com`;
      privateValues.push(email);
      await dialog.locator("label", { hasText: "Syndicate" }).first().click();
      await field(dialog, "Name").fill(name);
      await field(dialog, "Email").fill(email);
      await dialog.getByLabel("Show my name on the Recognition Wall").uncheck();
      await dialog.getByRole("button", { name: "Signal Interest" }).click();
      await page.getByText("Signal of interest recorded!").waitFor();

      await page.getByText(supporters(before + 1), { exact: true }).waitFor();
      const cached = await fetch(pitchUrl());
      expect(cached.headers.get("x-page-cache")).toBe("hit");
      const html = await cached.text();
      expect(html).toContain(supporters(before + 1));
      expect(html).not.toContain(name);
      expect(await hiddenSupporters()).toBe(before + 1);
      expect(await page.getByText(name).count()).toBe(0);
      expect(await countRows(e2e.db.selectFrom("recognition_entries").where("display_name", "=", name))).toBe(0);
      const signal = await e2e.db
        .selectFrom("signals")
        .innerJoin("contacts", "contacts.id", "signals.contact_id")
        .select(["signals.is_public", "signals.range_label", "signals.amount"])
        .where("contacts.email", "=", email)
        .executeTakeFirst();
      expect(signal).toEqual({ is_public: false, range_label: "Syndicate", amount: 25_000 });
    } finally {
      await context.close();
    }
  });
});

describe("without JavaScript", () => {
  it("opens the intro form from the address, shows the blurb after a valid post and the spec's message after an invalid one", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, javaScriptEnabled: false });
    try {
      await page.goto(pitchUrl("?dialog=intro"));
      await readThePage(page, e2e.app.dataDir);
      const dialog = staticDialog(page, "Request Intro");
      await dialog.waitFor();

      await field(dialog, "Name").fill("Nora NoScript");
      await field(dialog, "Email").fill("nora-at-example");
      await field(dialog, "Note").fill("A note");
      await dialog.getByRole("button", { name: "Request Intro" }).click();
      await page.waitForLoadState();
      await formAlert(staticDialog(page, "Request Intro"), "Please enter a valid email address");
      // Nothing the visitor typed is lost.
      expect(await field(staticDialog(page, "Request Intro"), "Name").inputValue()).toBe("Nora NoScript");
      expect(await field(staticDialog(page, "Request Intro"), "Email").inputValue()).toBe("nora-at-example");
      expect(await field(staticDialog(page, "Request Intro"), "Note").inputValue()).toBe("A note");

      const id = marker("nojs");
      const email = `nora.${id}@example.com`;
      const note = `No-script intro note ${id}`;
      privateValues.push(email, note);
      const again = staticDialog(page, "Request Intro");
      await field(again, "Name").fill("Nora NoScript");
      await field(again, "Email").fill(email);
      await field(again, "Note").fill(note);
      await again.getByText("Press", { exact: true }).click();
      await again.getByRole("button", { name: "Request Intro" }).click();
      await page.waitForURL((url) => url.searchParams.get("sent") === "1");
      const blurb = page.getByLabel("Your forwardable intro blurb");
      await blurb.waitFor();
      expect(await blurb.inputValue()).toContain("Nora NoScript (Press)");
      expect(await blurb.inputValue()).toContain(note);
      await page.getByText("Intro request sent!").waitFor();
      expect(await contactsByEmail(e2e.db, email)).toMatchObject([{ intent: "Intro", note, role_tags: ["Press"] }]);
    } finally {
      await context.close();
    }
  });

  it("subscribes and shows the success text on the page", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, javaScriptEnabled: false });
    try {
      await page.goto(pitchUrl("?dialog=subscribe"));
      await readThePage(page, e2e.app.dataDir);
      const dialog = staticDialog(page, "Follow Updates");
      const email = `${marker("nojs-follow")}@example.com`;
      privateValues.push(email);
      await field(dialog, "Name").fill("Noel NoScript");
      await field(dialog, "Email").fill(email);
      await dialog.getByRole("button", { name: "Follow Updates" }).click();
      await page.waitForLoadState();
      await formAlert(staticDialog(page, "Follow Updates"), "Please agree to receive updates.");
      expect(await contactsByEmail(e2e.db, email)).toEqual([]);

      const again = staticDialog(page, "Follow Updates");
      await field(again, "Name").fill("Noel NoScript");
      await field(again, "Email").fill(email);
      await again.getByLabel("I agree to receive project updates by e-mail").check();
      await again.getByRole("button", { name: "Follow Updates" }).click();
      await page.waitForURL(pitchUrl());
      // Shown in a <noscript> element, whose text Playwright's text and role selectors skip: found by CSS.
      const notice = page.locator('p[role="status"]', { hasText: "You're on the list—weekly Friday digest, unsub anytime." });
      await notice.waitFor();
      expect(await notice.isVisible()).toBe(true);
      expect(await page.locator('[role="dialog"]').count()).toBe(0);
      expect(await contactsByEmail(e2e.db, email)).toMatchObject([{ subscribed: true, name: "Noel NoScript" }]);
    } finally {
      await context.close();
    }
  });

  it("records a signal and lands on the thank-you page", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP, javaScriptEnabled: false });
    try {
      await page.goto(pitchUrl("?dialog=signal"));
      await readThePage(page, e2e.app.dataDir);
      const dialog = staticDialog(page, "Signal Interest");
      const id = marker("nojs-signal");
      const email = `${id}@example.com`;
      privateValues.push(email);
      await dialog.locator("label", { hasText: "Lead" }).first().click();
      await field(dialog, "Name").fill(`NoScript Backer ${id}`);
      await field(dialog, "Email").fill(email);
      await dialog.getByRole("button", { name: "Signal Interest" }).click();
      await page.waitForURL(`${e2e.app.url}/pledge-success`);
      await page.getByRole("heading", { level: 1, name: "Thank You for Your Support!" }).waitFor();

      const [contact] = await contactsByEmail(e2e.db, email);
      expect(contact).toMatchObject({ intent: "Supporter" });
      expect(await e2e.db.selectFrom("signals").select(["range_label", "amount", "is_public"]).where("contact_id", "=", contact!.id).executeTakeFirst()).toEqual({
        range_label: "Lead",
        amount: 250_000,
        is_public: true,
      });
      expect(await countRows(e2e.db.selectFrom("recognition_entries").where("display_name", "=", `NoScript Backer ${id}`))).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe("the JSON functions", () => {
  const origin = () => e2e.app.url;

  it("submit-intro stores an intro and answers a blurb; a missing note or a javascript: LinkedIn is refused", async () => {
    const id = marker("api");
    const email = `API.${id}@Example.com`;
    const linkedin = `https://www.linkedin.com/in/api-${id}`;
    const note = `API intro note ${id}`;
    privateValues.push(email.toLowerCase(), linkedin, note);
    const ok = await postFunction(e2e.app.url, "submit-intro", {
      projectId: project.id,
      contact: { name: `Api ${id}`, email, linkedinUrl: linkedin },
      note,
      roleTags: ["Press", "PM"],
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { blurb?: string };
    expect(body.blurb).toContain(`Api ${id}`);
    expect(body.blurb).toContain(note);
    expect(await contactsByEmail(e2e.db, email)).toMatchObject([{ intent: "Intro", email: email.toLowerCase(), linkedin_url: linkedin, note, role_tags: ["Press", "PM"] }]);

    const missing = `${marker("missing")}@example.com`;
    const noNote = await postFunction(e2e.app.url, "submit-intro", { projectId: project.id, contact: { name: "No Note", email: missing, linkedinUrl: null }, roleTags: [] });
    expect(noNote.status).toBe(400);
    expect(await noNote.json()).toMatchObject({ error: "Please fill in all required fields" });

    const script = await postFunction(e2e.app.url, "submit-intro", {
      projectId: project.id,
      contact: { name: "Script", email: missing, linkedinUrl: "javascript:alert(1)" },
      note: "n",
      roleTags: [],
    });
    expect(script.status).toBe(400);
    expect(((await script.json()) as { error: string }).error).toMatch(/LinkedIn/);
    expect(await contactsByEmail(e2e.db, missing)).toEqual([]);
  });

  it("subscribe-updates subscribes; handle-unsubscribe changes nothing on its own and answers an unknown address the same way", async () => {
    const email = `${marker("sub")}@example.com`;
    privateValues.push(email);
    const subscribed = await postFunction(e2e.app.url, "subscribe-updates", { projectId: project.id, contact: { name: "Sub Scriber", email }, consent: true });
    expect(subscribed.status).toBe(200);
    expect(await subscribed.json()).toMatchObject({ success: true });
    expect(await contactsByEmail(e2e.db, email)).toMatchObject([{ subscribed: true }]);

    // Whoever names an address proves nothing: the address is mailed a confirmation link (decision 37).
    const known = await postFunction(e2e.app.url, "handle-unsubscribe", { email: email.toUpperCase() });
    expect(known.status).toBe(200);
    const knownBody = await known.json();
    expect(knownBody).toMatchObject({ success: true, confirmationSent: true });
    expect(await contactsByEmail(e2e.db, email)).toMatchObject([{ subscribed: true }]);

    const unknown = await postFunction(e2e.app.url, "handle-unsubscribe", { email: `${marker("nobody")}@example.com` });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(knownBody);
  });

  it("refuses a request from another site's page, and holds a honeypot submission for review, saying so (decision 50)", async () => {
    const evilEmail = `${marker("evil")}@example.com`;
    for (const [name, body] of [
      ["submit-intro", { projectId: project.id, contact: { name: "Evil", email: evilEmail, linkedinUrl: null }, note: "n", roleTags: [] }],
      ["subscribe-updates", { projectId: project.id, contact: { name: "Evil", email: evilEmail }, consent: true }],
      ["handle-unsubscribe", { email: evilEmail }],
    ] as const) {
      const response = await postFunction(e2e.app.url, name, body, { origin: "https://evil.example" });
      expect(response.status, name).toBe(403);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    expect(await contactsByEmail(e2e.db, evilEmail)).toEqual([]);

    const botEmail = `${marker("bot")}@example.com`;
    const honeypot = await postFunction(
      e2e.app.url,
      "submit-intro",
      { projectId: project.id, contact: { name: "Bot", email: botEmail, linkedinUrl: null }, note: "buy now", roleTags: [], website: "x" },
      { origin: origin() },
    );
    expect(honeypot.status).toBe(200);
    expect(await honeypot.json()).toEqual({ success: true, held: true, message: HELD_MESSAGE });
    expect(await contactsByEmail(e2e.db, botEmail)).toEqual([]);
    expect(await e2e.db.selectFrom("held_submissions").select("reason").where("email", "=", botEmail).execute()).toEqual([{ reason: "honeypot" }]);
  });
});

describe("privacy of the public page", () => {
  it("never puts a visitor's e-mail, LinkedIn URL or intro note in the page or the live wall stream", async () => {
    // Something to look for even when this test runs alone.
    const id = marker("priv");
    const email = `priv.${id}@example.com`;
    const linkedin = `https://www.linkedin.com/in/priv-${id}`;
    const note = `Confidential intro note ${id}`;
    const response = await postFunction(e2e.app.url, "submit-intro", { projectId: project.id, contact: { name: `Priv ${id}`, email, linkedinUrl: linkedin }, note, roleTags: [] });
    expect(response.status).toBe(200);
    privateValues.push(email, linkedin, note);

    const pages = await Promise.all(
      [pitchUrl(), pitchUrl("?dialog=signal"), pitchUrl("?dialog=intro")].map(async (url) => (await fetch(url)).text()),
    );
    const stream = await readWallStream(e2e.app.url, project.id, 0);
    expect(stream).toContain("event: entry");
    expect(stream).toContain("event: stats");

    const decode = (text: string) => text.replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/\\u002F/gi, "/").replace(/\\\//g, "/").toLowerCase();
    for (const [where, text] of [
      ["cached page", pages[0]!],
      ["page with the signal dialog", pages[1]!],
      ["page with the intro dialog", pages[2]!],
      ["wall stream", stream],
    ] as const) {
      const haystack = decode(text);
      for (const value of privateValues) expect(haystack.includes(value.toLowerCase()), `${where} contains ${value}`).toBe(false);
      expect(haystack).not.toMatch(/[a-z0-9.+-]+@example\.com/);
    }
  });
});
