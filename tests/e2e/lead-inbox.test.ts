// The founder's lead inbox in Chromium, on a phone and on a laptop: three visitors act on a project through two QR
// codes; the founder finds each by name, filters by event, sets a status and a note, downloads a vCard and reads it;
// a webhook receiver started here (on 127.0.0.1; the server runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true) gets each
// event once, signed.
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { collectDownloads, downloadBytes, waitForToast } from "../support/founder-e2e";
import { parseVCards, visitorAction } from "../support/leads-e2e";
import { insertProject, newVisitor, openPitchDialog, readThePage, visitorUserAgent } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { hasValidSignature, startWebhookReceiver } from "../support/webhook-receiver";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, waitForEnhancement, waitForHydration } from "../support/clients";
import { beatsOf, createShownDeck, sender } from "../support/deck-reading";
import { withWritableDb } from "../support/test-db";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const e2e = setUpAppInBrowser({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });

const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });

async function visitorActs(qrCodeId: string, slug: string, act: (page: Page) => Promise<void>) {
  const visitor = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
  try {
    await visitor.page.goto(`${e2e.app.url}/pitch/${slug}?qr=${qrCodeId}`);
    // The anonymous pitch page has no React: its enhancement module says when it is ready (decision 13).
    await waitForEnhancement(visitor.page);
    await act(visitor.page);
  } finally {
    await visitor.context.close();
  }
}

/** On a phone the inbox's filters other than the search fold under "More filters": opens them when folded. */
async function showMoreFilters(page: Page): Promise<void> {
  const toggle = page.getByText(/^More filters/);
  if ((await toggle.isVisible()) && !(await page.getByRole("checkbox", { name: /^More filters/ }).isChecked())) await toggle.click();
}

describe.each([
  { device: "phone", viewport: PHONE },
  { device: "laptop", viewport: DESKTOP },
])("lead inbox on a $device", ({ device, viewport }) => {
  it("finds, filters, triages and exports three visitors; the webhook gets each event once, signed", { timeout: 120_000 }, async () => {
    const email = uniqueEmail(`leads-${device}`);
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport, acceptDownloads: true });
    const project = await insertProject(e2e.app.dataDir, {
      ownerId,
      title: `Harbor ${device}`,
      oneLiner: "Solar cold rooms for clinics",
      tiers: [
        { label: "Angel", min: 5000, max: 25000 },
        { label: "Lead", min: 250000, max: null },
      ],
      qrCodes: [
        { label: "Booth 4", eventTag: "Web Summit" },
        { label: "Stage", eventTag: "Demo Day" },
      ],
    });
    const [summitId, demoDayId] = project.qrCodeIds as [string, string];

    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      // The founder adds a webhook and keeps the secret shown once.
      const hookUrl = `${receiver.url}/${device}`;
      await page.goto(`${e2e.app.url}/project/${project.id}/leads/settings`);
      await waitForHydration(page);
      await page.getByLabel("Endpoint URL").fill(hookUrl);
      await page.getByRole("button", { name: "Add webhook" }).click();
      const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await page.reload();
      expect(await page.getByTestId("webhook-secret").count()).toBe(0);
      // Deliveries are at least once: the page tells the receiver what to deduplicate on.
      expect(await page.locator("#webhook-url-hint").textContent()).toMatch(/deduplicate on the X-PitchQR-Delivery header/);
      expect(await page.content()).not.toContain(secret);
      // 'Send a test event': the receiver gets one, and the founder reads what it answered.
      await page.getByRole("button", { name: `Send a test event to ${hookUrl}` }).click();
      await waitForToast(page, "Test event delivered");
      expect(await page.locator("[data-sonner-toast]").filter({ hasText: "Test event delivered" }).textContent()).toContain("Your endpoint answered 200");
      const tests = receiver.received.filter((webhook) => webhook.headers["x-pitchqr-event"] === "webhook.test" && webhook.body.includes(project.id));
      expect(tests).toHaveLength(1);
      expect(hasValidSignature(tests[0]!, secret)).toBe(true);

      // Three visitors, through two QR codes.
      await visitorActs(summitId, project.slug, async (visitor) => {
        await readThePage(visitor, e2e.app.dataDir);
        const signal = await openPitchDialog(visitor, "Signal Interest");
        await signal.locator("label", { hasText: "Angel" }).first().click();
        await field(signal, "Name").fill("Omar Haddad");
        await field(signal, "Email").fill("omar.haddad@example.com");
        await field(signal, "Message").fill("Loved the pilot numbers; send the deck, please");
        await signal.getByRole("button", { name: "Signal Interest" }).click();
        await visitor.getByText("Signal of interest recorded!").waitFor();
      });
      await visitorActs(demoDayId, project.slug, async (visitor) => {
        await readThePage(visitor, e2e.app.dataDir);
        const intro = await openPitchDialog(visitor, "Request Intro");
        await field(intro, "Name").fill("Ada Marsh");
        await field(intro, "Email").fill("Ada.Marsh@example.com");
        await field(intro, "LinkedIn URL").fill("https://www.linkedin.com/in/ada-marsh");
        await field(intro, "Note").fill("I run procurement for two district health offices, and can introduce you");
        await intro.getByText("Angel", { exact: true }).click();
        await intro.getByRole("button", { name: "Request Intro" }).click();
        await intro.getByText("Intro request sent!").waitFor();
      });
      await visitorActs(demoDayId, project.slug, async (visitor) => {
        await readThePage(visitor, e2e.app.dataDir);
        const signal = await openPitchDialog(visitor, "Signal Interest");
        await signal.locator("label", { hasText: "Lead" }).first().click();
        await field(signal, "Name").fill("Grace Lin");
        await field(signal, "Email").fill("grace.lin@example.com");
        await signal.getByRole("button", { name: "Signal Interest" }).click();
        await visitor.getByText("Signal of interest recorded!").waitFor();
      });

      // The webhook: each event once, each with a valid signature.
      const mine = () =>
        receiver.received.filter((webhook) => String(webhook.headers["x-pitchqr-event"] ?? "").startsWith("lead.") && webhook.body.includes(project.id));
      await expect.poll(() => mine().length, { timeout: 20_000 }).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(mine()).toHaveLength(3);
      for (const webhook of mine()) expect(hasValidSignature(webhook, secret)).toBe(true);
      const events = mine().map((webhook) => JSON.parse(webhook.body) as { id: string; type: string; lead: { name: string }; sourceEvent: string });
      expect(new Set(events.map((event) => event.id)).size).toBe(3);
      expect(events.map((event) => [event.lead.name, event.type, event.sourceEvent]).sort()).toEqual([
        // Every action carries the event of the code its visitor came through (decision 16).
        ["Ada Marsh", "lead.intro", "Stage · Demo Day"],
        ["Grace Lin", "lead.signal", "Stage · Demo Day"],
        ["Omar Haddad", "lead.signal", "Booth 4 · Web Summit"],
      ]);

      // My Projects counts them as new, as the inbox does.
      await page.goto(`${e2e.app.url}/my-projects`);
      const card = page.getByRole("listitem").filter({ hasText: `Harbor ${device}` });
      await card.getByText("3 new").waitFor();
      await card.getByRole("link", { name: /Leads/ }).click();
      await page.waitForURL(`**/project/${project.id}/leads`);
      await waitForHydration(page);
      await page.getByText("3 new since you last looked").waitFor();
      const leads = page.getByRole("list", { name: "Leads, newest activity first" }).locator(":scope > li");
      expect(await leads.locator("h2").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Grace Lin")]));
      expect(await leads.count()).toBe(3);
      // At the same moment My Projects says the same (one 'new since you last looked'), and so does the inbox
      // opened again in the same sitting.
      await page.goto(`${e2e.app.url}/my-projects`);
      await card.getByText("3 new").waitFor();
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      await page.getByText("3 new since you last looked").waitFor();

      // Each visitor, found by name.
      const ada = leads.filter({ hasText: "Ada Marsh" });
      for (const name of ["Omar Haddad", "Grace Lin", "Ada Marsh"]) {
        await page.getByLabel("Search").fill(name.split(" ")[1]!.toLowerCase());
        await page.getByRole("button", { name: "Filter" }).click();
        await expect.poll(() => leads.locator("h2").allInnerTexts()).toEqual([expect.stringContaining(name)]);
      }
      expect(await ada.getByRole("link", { name: "ada.marsh@example.com" }).getAttribute("href")).toBe("mailto:ada.marsh@example.com");
      await ada.getByText("I run procurement for two district health offices").waitFor();
      // The code is named as the CSV and the funnel name it: label and event tag.
      await ada.getByText("Met at Stage · Demo Day", { exact: true }).waitFor();

      // Filtered by event.
      await page.getByRole("link", { name: "Clear" }).click();
      await expect.poll(() => leads.count()).toBe(3);
      // On a phone the choices fold under "More filters", so the first lead is on the first screen.
      expect(await page.getByLabel("Event").isVisible()).toBe(device === "laptop");
      await showMoreFilters(page);
      await page.getByLabel("Event").selectOption({ label: "Booth 4 · Web Summit" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.locator("h2").allInnerTexts()).toEqual([expect.stringContaining("Omar Haddad")]);
      // A choice in use keeps them open, and says so.
      expect(await page.getByLabel("Event").isVisible()).toBe(true);
      if (device === "phone") await page.getByText("More filters (in use)").waitFor();
      await page.getByLabel("Event").selectOption({ label: "Stage · Demo Day" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.locator("h2").allInnerTexts()).toEqual([expect.stringContaining("Grace Lin"), expect.stringContaining("Ada Marsh")]);
      // Everyone came through a code: no lead of unknown origin.
      await page.getByLabel("Event").selectOption("unknown");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.count()).toBe(0);
      await page.getByRole("link", { name: "Clear" }).first().click();
      await expect.poll(() => leads.count()).toBe(3);

      // Status and a team note: a note too long is refused with the message, then a good one is kept.
      // Until the founder answers, the card says how long she has waited; the status change is the answer.
      await ada.getByText(/^Waiting \d+ min$/).waitFor();
      const triage = page.getByRole("form", { name: "Status and note for Ada Marsh" });
      // The whole team reads the note, so it never says "only you": it says who sees it.
      expect(await triage.getByLabel("Team note").getAttribute("placeholder")).toBe("Your team sees this; the person never does");
      await triage.getByLabel("Team note").fill("x".repeat(2_001));
      await triage.getByRole("button", { name: "Save" }).click();
      await triage.getByText("Note must be at most 2,000 characters").waitFor();
      await triage.getByLabel("Status").selectOption("meeting");
      await triage.getByLabel("Team note").fill("Call Tuesday <b>about</b> the district pilot");
      await triage.getByRole("button", { name: "Save" }).click();
      await waitForToast(page, "Ada Marsh: saved");
      await ada.getByText(/^Answered in \d+ min$/).waitFor();
      const stored = await e2e.db.selectFrom("leads").select(["status", "note"]).where("project_id", "=", project.id).where("email", "=", "ada.marsh@example.com").executeTakeFirst();
      expect(stored).toEqual({ status: "meeting", note: "Call Tuesday <b>about</b> the district pilot" });
      await page.reload();
      await waitForHydration(page);
      expect(await triage.getByLabel("Status").inputValue()).toBe("meeting");
      expect(await triage.getByLabel("Team note").inputValue()).toBe("Call Tuesday <b>about</b> the district pilot");
      // Who is still waiting, the longest first: Omar acted before Grace.
      await page.getByRole("link", { name: "Unanswered (2)" }).click();
      const waiting = page.getByRole("list", { name: "Leads waiting for an answer, longest waiting first" }).locator(":scope > li");
      await expect.poll(() => waiting.locator("h2").allInnerTexts()).toEqual([expect.stringContaining("Omar Haddad"), expect.stringContaining("Grace Lin")]);
      await page.getByRole("link", { name: "All leads" }).click();
      await expect.poll(() => leads.count()).toBe(3);
      // Omar is hot: one tap, kept, and the inbox filters to him.
      const omarHot = page.getByRole("form", { name: "How warm Omar Haddad is" }).getByRole("button", { name: "Hot" });
      await omarHot.click();
      await expect.poll(() => omarHot.getAttribute("aria-pressed")).toBe("true");
      await expect
        .poll(() => e2e.db.selectFrom("leads").select("temperature").where("project_id", "=", project.id).where("email", "=", "omar.haddad@example.com").executeTakeFirst())
        .toEqual({ temperature: "hot" });
      await showMoreFilters(page);
      await page.getByLabel("Temperature").selectOption("hot");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.locator("h2").allInnerTexts()).toEqual([expect.stringContaining("Omar Haddad")]);
      await page.getByRole("link", { name: "Clear" }).click();
      await expect.poll(() => leads.count()).toBe(3);
      // Hottest first: Omar leads the list although Grace acted after him.
      await showMoreFilters(page);
      await page.getByLabel("Order").selectOption("temperature");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.locator("h2").first().innerText()).toContain("Omar Haddad");
      expect(new URL(page.url()).searchParams.get("sort")).toBe("temperature");
      await page.getByLabel("Order").selectOption("");
      await page.getByLabel("Status", { exact: true }).first().selectOption("meeting");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.locator("h2").allInnerTexts()).toEqual([expect.stringContaining("Ada Marsh")]);

      // Her vCard, parsed as an address book would.
      const [download] = await collectDownloads(page, 1, () => ada.getByRole("link", { name: "vCard" }).click());
      expect(download!.suggestedFilename()).toBe("Ada-Marsh.vcf");
      const [vcard, ...others] = parseVCards((await downloadBytes(download!)).toString("utf8"));
      expect(others).toEqual([]);
      expect(vcard).toMatchObject({ VERSION: "3.0", FN: "Ada Marsh", N: "Marsh;Ada;;;", EMAIL: "ada.marsh@example.com", URL: "https://www.linkedin.com/in/ada-marsh" });
      expect(vcard!.NOTE).toContain("requested an intro (Angel): I run procurement for two district health offices, and can introduce you");
      expect(vcard!.NOTE).toContain("My note: Call Tuesday <b>about</b> the district pilot");

      // The whole list as vCards: the three of them.
      await page.getByRole("link", { name: "Clear" }).click();
      await expect.poll(() => leads.count()).toBe(3);
      const [all] = await collectDownloads(page, 1, () => page.getByRole("link", { name: "Download vCards" }).click());
      expect(parseVCards((await downloadBytes(all!)).toString("utf8")).map((card) => card.FN).sort()).toEqual(["Ada Marsh", "Grace Lin", "Omar Haddad"]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("one qualifying question", () => {
  it("the founder asks it from a phone; visitors answer it with the module and without JavaScript; the inbox shows and filters it", { timeout: 120_000 }, async () => {
    const email = uniqueEmail("question");
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, {
      ownerId,
      title: "Harbor Question",
      oneLiner: "Solar cold rooms for clinics",
      tiers: [{ label: "Angel", min: 5000, max: 25000 }],
      qrCodes: [{ label: "Booth", eventTag: "Demo Day" }],
    });
    const [boothId] = project.qrCodeIds as [string];
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${e2e.app.url}/project/${project.id}/leads/settings`);
      await waitForHydration(page);
      const card = page.locator("form").filter({ has: page.getByRole("button", { name: "Save question" }) });
      await card.getByLabel("Question").fill("What stage do you invest in?");
      await card.getByLabel("Choose one").check();
      // One answer to choose from is no choice: refused in place, nothing saved.
      await card.getByLabel("Answer 1", { exact: true }).fill("Pre-seed");
      await card.getByRole("button", { name: "Save question" }).click();
      await card.getByText("Give at least 2 answers to choose from, or choose free text").waitFor();
      expect(await e2e.db.selectFrom("projects").select("question_prompt").where("id", "=", project.id).executeTakeFirst()).toEqual({ question_prompt: null });
      await card.getByLabel("Answer 2", { exact: true }).fill("Seed");
      await card.getByLabel("Answer 3", { exact: true }).fill("Series A");
      await card.getByLabel("Required").check();
      await card.getByRole("button", { name: "Save question" }).click();
      await waitForToast(page, "Question saved: your pitch page asks it now");
      // The morning-after report (decision 66) is on until the founder turns it off for this project.
      const report = page.getByRole("group", { name: "Morning-after report for this project" });
      expect(await report.getByLabel("Send the morning-after report").isChecked()).toBe(true);
      await report.getByLabel("Don't send it").check();
      await page.getByRole("button", { name: "Save report setting" }).click();
      await waitForToast(page, "Morning-after report off");
      expect(await e2e.db.selectFrom("project_alert_settings").select("morning_report").where("project_id", "=", project.id).executeTakeFirst()).toEqual({ morning_report: false });

      // With the page's module: refused before sending until answered, then sent with the answer.
      await visitorActs(boothId, project.slug, async (visitor) => {
        await readThePage(visitor, e2e.app.dataDir);
        const intro = await openPitchDialog(visitor, "Request Intro");
        await field(intro, "Name").fill("Ana Kovač");
        await field(intro, "Email").fill("ana.kovac@example.com");
        await field(intro, "Note").fill("I back cold-chain teams at seed");
        await intro.getByRole("button", { name: "Request Intro" }).click();
        await intro.getByText("Please answer the question").first().waitFor();
        await intro.getByRole("group", { name: "What stage do you invest in?" }).getByLabel("Seed", { exact: true }).check();
        await intro.getByRole("button", { name: "Request Intro" }).click();
        await intro.getByText("Intro request sent!").waitFor();
      });
      // Without JavaScript: the server refuses a missing answer and keeps what was typed, then records the answer.
      const noScript = await newVisitor(e2e.browser, { viewport: PHONE, javaScriptEnabled: false });
      try {
        await noScript.page.goto(`${e2e.app.url}/pitch/${project.slug}?dialog=signal`);
        await readThePage(noScript.page, e2e.app.dataDir);
        const signalDialog = () => noScript.page.locator('[role="dialog"]').filter({ has: noScript.page.getByRole("heading", { name: "Signal Interest", exact: true }) });
        await signalDialog().locator("label", { hasText: "Angel" }).first().click();
        await field(signalDialog(), "Name").fill("Omar Haddad");
        await field(signalDialog(), "Email").fill("omar.haddad@example.com");
        await signalDialog().getByRole("button", { name: "Signal Interest" }).click();
        await noScript.page.waitForLoadState();
        await signalDialog().getByRole("alert").filter({ hasText: "Please answer the question" }).first().waitFor();
        expect(await field(signalDialog(), "Name").inputValue()).toBe("Omar Haddad");
        await signalDialog().getByLabel("Series A", { exact: true }).check();
        await signalDialog().locator("label", { hasText: "Angel" }).first().click();
        await signalDialog().getByRole("button", { name: "Signal Interest" }).click();
        await noScript.page.waitForLoadState();
        await expect
          .poll(() => e2e.db.selectFrom("leads").select("answer").where("project_id", "=", project.id).where("email", "=", "omar.haddad@example.com").executeTakeFirst())
          .toEqual({ answer: "Series A" });
      } finally {
        await noScript.context.close();
      }

      // The inbox: each answer on its lead, and the answers as a filter.
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      const leads = page.getByRole("list", { name: "Leads, newest activity first" }).locator(":scope > li");
      await expect.poll(() => leads.count()).toBe(2);
      const ana = leads.filter({ has: page.getByRole("heading", { name: /Ana Kovač/ }) });
      expect(await ana.locator("[data-qualifying-answer]").innerText()).toBe("What stage do you invest in?\nSeed");
      await showMoreFilters(page);
      await page.getByLabel("Answer", { exact: true }).selectOption("Series A");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect.poll(() => leads.locator("h2").allInnerTexts()).toEqual([expect.stringContaining("Omar Haddad")]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("a lead opened from an alert, on a phone", () => {
  it("shows the alert's lead first, above the banners and tools, and the view links leave the one lead", { timeout: 60_000 }, async () => {
    const email = uniqueEmail("alert-lead");
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor alert", qrCodes: [{ label: "Booth", eventTag: "Demo Day" }] });
    for (const name of ["Ana Waiting", "Kenji Watanabe"]) {
      await visitorAction(e2e.app, project.slug, project.qrCodeIds[0]!, { intent: "intro", name, email: `${name.split(" ")[0]!.toLowerCase()}@example.com`, note: "Hello" });
    }
    const { id: leadId } = await e2e.db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", "kenji@example.com").executeTakeFirstOrThrow();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${e2e.app.url}/project/${project.id}/leads?lead=${leadId}`);
      await waitForHydration(page);
      const alertLead = page.getByRole("region", { name: "The lead from your alert" });
      const card = alertLead.getByRole("listitem").filter({ hasText: "Kenji Watanabe" }).first();
      await card.waitFor();
      // The card starts within the phone's first screen, above every banner, button and the view links.
      const cardTop = (await card.boundingBox())!.y;
      expect(cardTop).toBeLessThan(PHONE.height / 2);
      for (const below of [page.getByRole("button", { name: "Add a person" }), page.getByRole("navigation", { name: "Which leads" }), page.getByRole("link", { name: "Lead settings" })]) {
        expect((await below.boundingBox())!.y).toBeGreaterThan(cardTop);
      }
      for (const banner of await page.getByRole("alert").all()) {
        const box = await banner.boundingBox();
        if (box) expect(box.y).toBeGreaterThan(cardTop);
      }

      // 'Unanswered (2)' from here lists both people waiting, not "No leads match these filters".
      const unanswered = page.getByRole("link", { name: "Unanswered (2)" });
      expect(await unanswered.getAttribute("href")).not.toContain("lead=");
      expect(await page.getByRole("link", { name: "All leads", exact: true }).getAttribute("href")).not.toContain("lead=");
      await unanswered.click();
      await page.waitForURL(/view=unanswered/);
      await page.getByRole("list", { name: /Leads waiting for an answer/ }).getByText("Ana Waiting").waitFor();
      expect(await page.getByText("No leads match these filters").count()).toBe(0);
      expect(new URL(page.url()).searchParams.get("lead")).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("what a lead read of the deck", () => {
  it("shows the reading on the card, page by page, and marks the lead hot in one tap", { timeout: 90_000 }, async () => {
    const email = uniqueEmail("lead-reading");
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor reading", qrCodes: [{ label: "Booth", eventTag: "Demo Day" }] });
    // Ana read four of the deck's five pages on her phone; Bo read none.
    const deck = await withWritableDb(e2e.app, (db) => createShownDeck(db, { id: project.id, ownerId }, 5));
    await visitorAction(e2e.app, project.slug, project.qrCodeIds[0]!, { intent: "intro", name: "Ana Reader", email: "ana-reader@example.com", note: "Hello" });
    await visitorAction(e2e.app, project.slug, project.qrCodeIds[0]!, { intent: "intro", name: "Bo Skimmer", email: "bo-skimmer@example.com", note: "Hi" });
    const leadIds = Object.fromEntries(
      (await e2e.db.selectFrom("leads").select(["id", "email"]).where("project_id", "=", project.id).execute()).map((lead) => [lead.email, lead.id]),
    );
    // The server has sent both intros' confirmations (its writes are done) before this connection writes the views.
    const mailDir = path.join(e2e.app.dataDir, "mail");
    const confirmed = async () => {
      const files = (await readdir(mailDir)).filter((file) => file.includes("intro-confirmation"));
      const texts = await Promise.all(files.map((file) => readFile(path.join(mailDir, file), "utf8")));
      return ["ana-reader@example.com", "bo-skimmer@example.com"].filter((address) => texts.some((text) => text.includes(address)));
    };
    await expect.poll(confirmed).toHaveLength(2);
    await withWritableDb(e2e.app, async (db) => {
      await db.insertInto("lead_viewers").values({ project_id: project.id, viewer_fingerprint: "ana-phone", lead_id: leadIds["ana-reader@example.com"]! }).execute();
      await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 10], [2, 20], [3, 15], [4, 5]]), sender("ana-phone"));
    });

    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      const ana = page.locator(`#lead-${leadIds["ana-reader@example.com"]}`);
      const reading = ana.getByRole("region", { name: "What Ana Reader read of the deck" });
      await reading.getByText("Read 4 of 5 pages · 50 s · longest on page 2").waitFor();
      expect(await reading.getByRole("listitem").evaluateAll((cells) => cells.map((cell) => cell.getAttribute("title")))).toEqual([
        "Page 1: 10 s",
        "Page 2: 20 s",
        "Page 3: 15 s",
        "Page 4: 5 s",
        "Page 5: not read",
      ]);
      expect(await page.locator(`#lead-${leadIds["bo-skimmer@example.com"]}`).getByRole("region", { name: /read of the deck/ }).count()).toBe(0);
      const box = (await reading.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await mkdir("tmp/lead-reading", { recursive: true });
      await ana.screenshot({ path: "tmp/lead-reading/card-390.png" });

      await reading.getByRole("button", { name: "Mark hot" }).click();
      await expect.poll(() => ana.getByRole("button", { name: "Hot" }).getAttribute("aria-pressed")).toBe("true");
      expect(await reading.getByRole("button", { name: "Mark hot" }).count()).toBe(0);
      const { temperature } = await e2e.db.selectFrom("leads").select("temperature").where("id", "=", leadIds["ana-reader@example.com"]!).executeTakeFirstOrThrow();
      expect(temperature).toBe("hot");

      // Sorted by reading time, Ana comes first though Bo acted last; the filter leaves only her.
      await page.goto(`${e2e.app.url}/project/${project.id}/leads?sort=reading&read=deck`);
      await page.getByText("Read 4 of 5 pages", { exact: false }).waitFor();
      expect(await page.getByText("Bo Skimmer").count()).toBe(0);
      expect(errors).toEqual([]);

      const laptop = await e2e.browser.newContext({ viewport: DESKTOP, storageState: await context.storageState() });
      try {
        const wide = await laptop.newPage();
        await wide.goto(`${e2e.app.url}/project/${project.id}/leads`);
        const wideCard = wide.locator(`#lead-${leadIds["ana-reader@example.com"]}`);
        await wideCard.getByText("Read 4 of 5 pages", { exact: false }).waitFor();
        await wide.screenshot({ path: "tmp/lead-reading/inbox-1280.png", fullPage: true });
        await wideCard.screenshot({ path: "tmp/lead-reading/card-1280.png" });
      } finally {
        await laptop.close();
      }
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await page.screenshot({ path: "tmp/lead-reading/inbox-390.png", fullPage: true });
    } finally {
      await context.close();
    }
  });
});
