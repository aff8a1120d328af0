// A founder's journey in Chromium, against the built app: sign up, create a pitch with metrics, points and tiers,
// make tracked QR codes and download one, let visitors scan and act on the pitch, read the analytics and the CSV
// export, watch My Projects and the live dashboard feed, and take the pitch back to draft. Each test checks what
// the founder sees and what the database holds, and stands alone: it signs up its own founder and puts the
// project it starts from straight into the database (visitors who acted on it act over HTTP, as the forms post).
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { countRows, userIdByEmail } from "../support/test-db";
import { collectDownloads, decodeQrPng, definitionPairs, downloadBytes, parseCsv, visibleText, waitForToast } from "../support/founder-e2e";
import { insertProject, marker, openPitchDialog, readThePage, visitorUserAgent } from "../support/pitch-e2e";
import { signedInContext, signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { newClientContext, nextClientAddress, waitForEnhancement, waitForHydration } from "../support/clients";

const TITLE = "Harbor Cold Chain";
const SLUG = "harbor-cold-chain";
const ONE_LINER = "Solar cold rooms that keep vaccines potent from port to clinic";
const SUMMARY = "We rent solar-powered cold rooms to district clinics.\nPay per month, no upfront cost.";
const DECK_URL = "https://example.com/harbor-deck.pdf";
const CALENDLY_URL = "https://calendly.com/harbor-cold-chain/intro";
const METRICS = [
  { label: "Pilot clinics", value: "12" },
  { label: "Spoilage cut", value: "38%" },
];
const PROBLEM = "A third of vaccines spoil between the port and the clinic";
const SOLUTION = "Solar cold rooms with remote temperature alerts";
/** The tiers as the founder leaves them on the create form: the defaults, Angel's minimum raised, Strategic added. */
const HARBOR_TIERS = [
  { label: "Angel", min: 10_000, max: 25_000, perks: ["Quarterly investor update"] },
  { label: "Syndicate", min: 25_000, max: 100_000, perks: ["Monthly update call"] },
  { label: "Lead", min: 250_000, max: null, perks: ["Board observer seat"] },
  { label: "Strategic", min: 1_000_000, max: null, perks: ["Advisory board seat", "First look at the next round"] },
];
const BOOTH = { label: "Booth", eventTag: "Demo Day" };
const SECOND = { title: "Quiet Pilot", slug: "quiet-pilot", oneLiner: "A project nobody has contacted yet" };

const INTRO = {
  name: "Ada Marsh",
  email: "ada.marsh@example.com",
  linkedin: "https://www.linkedin.com/in/ada-marsh",
  note: "I run procurement for two district health offices, and can introduce you",
  role: "Angel",
};
const FOLLOWER = { name: "Grace Lin", email: "grace.lin@example.com" };
const BACKER = { name: "Omar Haddad", email: "omar.haddad@example.com", message: "Loved the pilot numbers" };

const e2e = setUpAppInBrowser();

// ---- what a test starts from -------------------------------------------------------------------------------

type Founder = { context: BrowserContext; page: Page; email: string; id: string };

/** Browser contexts a test opened (its founder's and its visitors'), closed after it; and their script errors. */
const openContexts: BrowserContext[] = [];
const pageErrors: string[] = [];
/** The answers the journey provokes on purpose (a refused form, a draft's 404). */
const EXPECTED_ANSWERS = /^(visitor: )?Failed to load resource: the server responded with a status of (404|409) /;

afterEach(async (context) => {
  for (const opened of openContexts.splice(0)) await opened.close().catch(() => undefined);
  const unexpected = pageErrors.splice(0).filter((message) => !EXPECTED_ANSWERS.test(message));
  if (context.task.result?.state !== "fail") expect(unexpected, "console errors or uncaught exceptions").toEqual([]);
});

function watchForErrors(page: Page, prefix = ""): void {
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`${prefix}${message.text()} ${JSON.stringify(message.location())}`);
  });
  page.on("pageerror", (error) => pageErrors.push(`${prefix}pageerror: ${error.message}`));
}

/** A desktop browser for someone who has no account yet (the test signs up through the page). */
async function newFounderPage(): Promise<Omit<Founder, "id">> {
  const { context } = await newClientContext(e2e.browser, { viewport: DESKTOP, acceptDownloads: true });
  openContexts.push(context);
  const page = await context.newPage();
  watchForErrors(page);
  return { context, page, email: uniqueEmail("harbor") };
}

/** A founder with an account and no project yet, signed in in their own desktop browser. */
async function signedInFounder(): Promise<Founder> {
  const email = uniqueEmail("harbor");
  const { context, user } = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP, acceptDownloads: true });
  openContexts.push(context);
  const page = await context.newPage();
  watchForErrors(page);
  return { context, page, email, id: user.id };
}

/** The founder's published Harbor Cold Chain pitch, as the create form would have stored it (on a slug of its own). */
function insertHarbor(ownerId: string, extra: { qrCodes?: { label: string; eventTag: string | null }[] } = {}) {
  return insertProject(e2e.app.dataDir, {
    ownerId,
    title: TITLE,
    slug: `${SLUG}-${marker("")}`,
    oneLiner: ONE_LINER,
    summary: SUMMARY,
    deckUrl: DECK_URL,
    calendlyUrl: CALENDLY_URL,
    metrics: METRICS,
    problemPoints: [PROBLEM],
    solutionPoints: [SOLUTION],
    status: "published",
    tiers: HARBOR_TIERS,
    qrCodes: extra.qrCodes,
  });
}

/** A phone visitor without a browser: its own address and viewer cookie, as the page door and the forms see it. */
function phoneVisitor() {
  const address = nextClientAddress();
  const userAgent = visitorUserAgent(e2e.browser);
  let cookie = "";
  const headers = () => ({ "x-forwarded-for": address, "user-agent": userAgent, ...(cookie ? { cookie } : {}) });
  return {
    /** Opens the pitch page (a navigation) and waits until the server has counted it. */
    async open(url: string, projectId: string): Promise<void> {
      const before = (await scanRows(projectId)).length;
      // Node's fetch says `Sec-Fetch-Mode: cors` of itself, which the door rightly takes for a script's fetch.
      const response = await fetch(url, { headers: { ...headers(), "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" } });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      const viewer = response.headers.getSetCookie().find((set) => set.startsWith("pitchqr_viewer="));
      if (viewer) cookie = viewer.split(";")[0]!;
      await expect.poll(async () => (await scanRows(projectId)).length).toBe(before + 1);
    },
    /** Posts one of the pitch page's forms as the enhanced form does. */
    async post(url: string, fields: Record<string, string>): Promise<void> {
      await readThePage(url, e2e.app.dataDir);
      const response = await fetch(url, {
        method: "POST",
        headers: { ...headers(), origin: e2e.app.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ via: "fetch", ...fields }),
      });
      if (response.status !== 200) throw new Error(`${fields.intent} answered ${response.status}: ${await response.text()}`);
    },
  };
}

/**
 * The founder's Harbor pitch after three visitors: A scanned the Booth code twice and requested an intro, B scanned
 * it and followed updates, C came through the plain link and signalled interest in Angel, publicly. Then a second,
 * draft project nobody contacted (made after it, so listed first).
 */
async function harborVisitedAndQuietPilot(ownerId: string) {
  const harbor = await insertHarbor(ownerId, { qrCodes: [BOOTH] });
  const [boothId] = harbor.qrCodeIds as [string];
  const booth = pitchUrl(harbor.slug, `?qr=${boothId}`);
  const angel = (await tierRows(harbor.id))[0]!;

  const first = phoneVisitor();
  await first.open(booth, harbor.id);
  await first.open(booth, harbor.id);
  await first.post(booth, { intent: "intro", name: INTRO.name, email: INTRO.email, linkedinUrl: INTRO.linkedin, note: INTRO.note, roleTags: INTRO.role });
  const second = phoneVisitor();
  await second.open(booth, harbor.id);
  await second.post(booth, { intent: "subscribe", name: FOLLOWER.name, email: FOLLOWER.email, consent: "on" });
  const third = phoneVisitor();
  await third.open(pitchUrl(harbor.slug), harbor.id);
  await third.post(pitchUrl(harbor.slug), { intent: "signal", tierId: angel.id, name: BACKER.name, email: BACKER.email, message: BACKER.message, showName: "on" });

  const quiet = await insertProject(e2e.app.dataDir, { ownerId, title: SECOND.title, slug: `${SECOND.slug}-${marker("")}`, oneLiner: SECOND.oneLiner, status: "draft" });
  return { harbor, second: quiet, boothId };
}

// ---- database reads ----------------------------------------------------------------------------------------

const projectRow = (id: string) => e2e.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
/** The founder's projects (the app also seeds a demo project of its own). */
const projectCount = (email: string) =>
  countRows(e2e.db.selectFrom("projects").innerJoin("users", "users.id", "projects.owner_id").where("users.email", "=", email));
const tierRows = (id: string) =>
  e2e.db
    .selectFrom("signal_tiers")
    .select(["id", "range_label", "range_min", "range_max", "perks", "sort_order"])
    .where("project_id", "=", id)
    .orderBy("sort_order")
    .execute();
const qrRows = (projectId: string) =>
  e2e.db
    .selectFrom("qr_codes")
    .select(["id", "label", "event_tag", "total_scans", "unique_scans"])
    .where("project_id", "=", projectId)
    .orderBy("created_at")
    .execute();
const scanRows = (projectId: string) =>
  e2e.db.selectFrom("scans").select(["qr_code_id", "viewer_fingerprint"]).where("project_id", "=", projectId).orderBy("id").execute();

// ---- page helpers ------------------------------------------------------------------------------------------

const pitchUrl = (slug: string, query = "") => `${e2e.app.url}/pitch/${slug}${query}`;

async function goto(page: Page, pathname: string): Promise<void> {
  await page.goto(`${e2e.app.url}${pathname}`);
  await waitForHydration(page);
}

const heading1 = (page: Page) => page.getByRole("heading", { level: 1 });
const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });
/** The message shown under a project form field (its id is the field's id plus -error). */
const fieldError = (page: Page, fieldId: string) => page.locator(`#${fieldId}-error`);

/** A visitor in a fresh browser context with a regular (non-headless) user agent, so its scans count. */
async function newVisitor(): Promise<Page> {
  const { context } = await newClientContext(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
  openContexts.push(context);
  const page = await context.newPage();
  watchForErrors(page, "visitor: ");
  return page;
}

/** Opens (or reloads) the pitch page and waits until the server has counted that page load (decision 15). */
async function openPitchCounted(page: Page, url: string | "reload", projectId: string): Promise<void> {
  const before = (await scanRows(projectId)).length;
  if (url === "reload") await page.reload();
  else await page.goto(url);
  await expect.poll(async () => (await scanRows(projectId)).length, { timeout: 10_000 }).toBe(before + 1);
  await waitForEnhancement(page);
}

const statCard = (page: Page, label: string) =>
  page.getByRole("region", { name: "Summary" }).locator("article").filter({ has: page.getByRole("heading", { name: label, exact: true }) });

const activityTitles = (page: Page) =>
  page
    .getByRole("region", { name: "Activity, newest first" })
    .locator("li p.font-medium")
    .evaluateAll((items) => items.map((item) => (item.textContent ?? "").replace(/^(Scan|Intro|Signal|Update): /, "").trim()));

// ---- the journey, one independent test per step --------------------------------------------------------------

describe("a founder's journey", () => {
  it("signs up and in; the dashboard and My Projects show the states of someone without a project", async () => {
    const founder = await newFounderPage();
    const { page, email } = founder;
    await signUpThroughPage(page, e2e.app.url, email);
    await signInThroughPage(page, e2e.app.url, email);
    expect(new URL(page.url()).pathname).toBe("/");

    await goto(page, "/dashboard");
    expect(await heading1(page).textContent()).toBe("Dashboard");
    await page.getByText("Pitches you've engaged with", { exact: true }).waitFor();
    await page.getByRole("heading", { name: "Pitches I've Engaged With" }).waitFor();
    await page.getByText("You haven't created any projects yet").waitFor();
    expect(await page.getByText("Founder Dashboard").count()).toBe(0);

    await goto(page, "/my-projects");
    expect(await heading1(page).textContent()).toBe("My Projects");
    await page.getByText("No projects yet", { exact: true }).waitFor();
    await page.getByText("Create your first project to start accepting intros and signals").waitFor();
    expect(await page.getByRole("link", { name: "Create Project" }).getAttribute("href")).toBe("/project/create");
  });

  it("creates a published project with metrics, points and tiers; a required field left empty creates nothing", { timeout: 90_000 }, async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    await goto(page, "/project/create");
    expect(await heading1(page).textContent()).toBe("Create Project");

    // The slug follows the title.
    await field(page, "Project Title").fill(TITLE);
    expect(await field(page, "URL Slug").inputValue()).toBe(SLUG);
    await page.getByText(`Your project will live at ${e2e.app.url}/pitch/${SLUG}`).waitFor();

    // A required field left empty: the message, focus on the field, and nothing created.
    await page.getByRole("button", { name: "Create Project" }).click();
    await fieldError(page, "project-oneLiner").filter({ hasText: "Please fill in all required fields" }).waitFor();
    expect(await field(page, "One-Liner").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("project-oneLiner");
    expect(new URL(page.url()).pathname).toBe("/project/create");
    expect(await projectCount(founder.email)).toBe(0);

    await field(page, "One-Liner").fill(ONE_LINER);
    await field(page, "Project Summary").fill(SUMMARY);
    await field(page, "Deck URL").fill(DECK_URL);
    await field(page, "Calendly/Booking URL").fill(CALENDLY_URL);

    // Three metrics added, the middle one removed again.
    const addMetric = page.getByRole("button", { name: "Add Metric" });
    const metricInputs = [METRICS[0]!, { label: "Temporary", value: "remove me" }, METRICS[1]!];
    for (const [index, metric] of metricInputs.entries()) {
      await addMetric.click();
      await field(page, `Metric ${index + 1} name`).fill(metric.label);
      await field(page, `Metric ${index + 1} value`).fill(metric.value);
    }
    await page.getByRole("button", { name: "Remove metric 2" }).click();
    await field(page, "Metric 3 name").waitFor({ state: "detached" });
    expect([await field(page, "Metric 1 name").inputValue(), await field(page, "Metric 1 value").inputValue()]).toEqual([METRICS[0]!.label, METRICS[0]!.value]);
    expect([await field(page, "Metric 2 name").inputValue(), await field(page, "Metric 2 value").inputValue()]).toEqual([METRICS[1]!.label, METRICS[1]!.value]);

    await page.getByRole("button", { name: "Add Problem Point" }).click();
    await field(page, "Problem Point 1").fill(PROBLEM);
    await page.getByRole("button", { name: "Add Solution Point" }).click();
    await field(page, "Solution Point 1").fill(SOLUTION);

    // The default tiers: the first one's minimum changed, and a fourth one added.
    const tier = (n: number) => page.getByRole("group", { name: `Tier ${n}`, exact: true });
    expect(await page.locator('[id^="project-tiers-"][id$="-rangeLabel"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
      "Angel",
      "Syndicate",
      "Lead",
    ]);
    await field(tier(1), "Min ($)").fill("10000");
    await page.getByRole("button", { name: "Add Tier" }).click();
    await field(tier(4), "Tier name").fill("Strategic");
    await field(tier(4), "Min ($)").fill("1000000");
    await field(tier(4), "Perks").fill("Advisory board seat\nFirst look at the next round");

    await page.getByRole("radio", { name: "Published", exact: true }).check();
    await page.getByRole("button", { name: "Create Project" }).click();

    await page.waitForURL(/\/project\/[^/]+\/edit$/);
    await waitForToast(page, "Project created successfully");
    const projectId = new URL(page.url()).pathname.split("/")[2]!;
    expect(await heading1(page).textContent()).toBe("Edit Project");

    // Preview Live opens the pitch page in a new tab.
    const preview = page.getByRole("link", { name: /Preview Live/ });
    expect(await preview.getAttribute("href")).toBe(`/pitch/${SLUG}`);
    expect(await preview.getAttribute("target")).toBe("_blank");
    expect(await preview.getAttribute("rel")).toContain("noopener");
    const [tab] = await Promise.all([founder.context.waitForEvent("page"), preview.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(pitchUrl(SLUG));
    await tab.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await tab.close();

    // What was stored.
    const ownerId = await userIdByEmail(e2e.db, founder.email);
    const row = (await projectRow(projectId))!;
    expect(row).toMatchObject({
      owner_id: ownerId,
      title: TITLE,
      slug: SLUG,
      one_liner: ONE_LINER,
      summary: SUMMARY,
      video_url: null,
      deck_url: DECK_URL,
      calendly_url: CALENDLY_URL,
      status: "published",
    });
    expect(row.metrics).toEqual(METRICS);
    expect(row.problem_points).toEqual([PROBLEM]);
    expect(row.solution_points).toEqual([SOLUTION]);
    expect((await tierRows(projectId)).map(({ range_label, range_min, range_max, perks, sort_order }) => ({ range_label, range_min, range_max, perks, sort_order }))).toEqual([
      { range_label: "Angel", range_min: 10_000, range_max: 25_000, perks: ["Quarterly investor update"], sort_order: 0 },
      { range_label: "Syndicate", range_min: 25_000, range_max: 100_000, perks: ["Monthly update call"], sort_order: 1 },
      { range_label: "Lead", range_min: 250_000, range_max: null, perks: ["Board observer seat"], sort_order: 2 },
      { range_label: "Strategic", range_min: 1_000_000, range_max: null, perks: ["Advisory board seat", "First look at the next round"], sort_order: 3 },
    ]);

    // The edit form shows what was saved.
    expect(await field(page, "URL Slug").inputValue()).toBe(SLUG);
    expect(await field(page, "Video URL (YouTube, Vimeo, Loom)").inputValue()).toBe("");
    expect(await field(page, "Metric 2 value").inputValue()).toBe("38%");
    expect(await field(tier(1), "Min ($)").inputValue()).toBe("10000");
    expect(await page.getByRole("radio", { name: "Published", exact: true }).isChecked()).toBe(true);
  });

  it("refuses a javascript: deck URL in the browser and from a post without scripts, changing nothing", async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    const harbor = await insertHarbor(founder.id);
    const projectId = harbor.id;
    await goto(page, `/project/${projectId}/edit`);

    // A javascript: deck URL is refused in the browser, and by the server for a post without scripts.
    const before = (await projectRow(projectId))!;
    await field(page, "Deck URL").fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Update Project" }).click();
    await fieldError(page, "project-deckUrl").filter({ hasText: "Enter a valid deck URL (starting with https://)" }).waitFor();
    expect(await field(page, "Deck URL").getAttribute("aria-invalid")).toBe("true");
    const posted = await page.request.post(`${e2e.app.url}/project/${projectId}/edit`, {
      headers: { origin: e2e.app.url },
      form: {
        intent: "save",
        title: TITLE,
        slug: harbor.slug,
        oneLiner: ONE_LINER,
        deckUrl: "javascript:alert(1)",
        status: "published",
        metrics: "[]",
        problemPoints: "[]",
        solutionPoints: "[]",
        tiers: "[]",
      },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(400);
    expect(await projectRow(projectId)).toEqual(before);
    expect(await tierRows(projectId)).toHaveLength(4);
    await page.reload();
    await waitForHydration(page);
    expect(await field(page, "Deck URL").inputValue()).toBe(DECK_URL);
  });

  it("says a taken slug is taken, creates nothing and keeps what was typed; another slug creates a draft", { timeout: 60_000 }, async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    const harbor = await insertHarbor(founder.id);

    // A second project on the same slug: the slug field says it is taken, and nothing is created.
    await goto(page, "/project/create");
    await field(page, "Project Title").fill(SECOND.title);
    await field(page, "URL Slug").fill(harbor.slug);
    await field(page, "One-Liner").fill(SECOND.oneLiner);
    await page.getByRole("button", { name: "Create Project" }).click();
    await fieldError(page, "project-slug").filter({ hasText: "This URL slug is already taken. Choose another one." }).waitFor();
    expect(await field(page, "URL Slug").getAttribute("aria-invalid")).toBe("true");
    expect(new URL(page.url()).pathname).toBe("/project/create");
    expect(await projectCount(founder.email)).toBe(1);
    // What was typed is kept; another slug creates it (a draft, the default).
    expect(await field(page, "Project Title").inputValue()).toBe(SECOND.title);
    expect(await field(page, "One-Liner").inputValue()).toBe(SECOND.oneLiner);
    await field(page, "URL Slug").fill(SECOND.slug);
    await page.getByRole("button", { name: "Create Project" }).click();
    await page.waitForURL(/\/project\/[^/]+\/edit$/);
    await waitForToast(page, "Project created successfully");
    const secondProjectId = new URL(page.url()).pathname.split("/")[2]!;
    expect(await projectRow(secondProjectId)).toMatchObject({ slug: SECOND.slug, status: "draft", video_url: null, deck_url: null, calendly_url: null });
    expect(await page.getByRole("link", { name: /Preview Live/ }).count()).toBe(0);
  });

  it("creates, downloads and deletes tracked QR codes in the project's QR codes section", { timeout: 90_000 }, async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    const harbor = await insertHarbor(founder.id);
    const projectId = harbor.id;
    await goto(page, `/project/${projectId}/qr-codes`);
    const card = page.getByRole("region", { name: "QR Codes & Event Tracking" });
    const generate = card.getByRole("button", { name: "Generate QR Code" });
    const label = card.getByLabel("Label", { exact: true });
    const eventTag = card.getByLabel("Event Tag", { exact: true });

    expect(await generate.isDisabled()).toBe(true);
    await label.fill("   ");
    expect(await generate.isDisabled()).toBe(true);

    await label.fill("Booth");
    await eventTag.fill("Demo Day");
    expect(await generate.isEnabled()).toBe(true);
    await generate.click();
    await waitForToast(page, "QR code created successfully");
    // The form empties for the next code.
    await expect.poll(() => label.inputValue()).toBe("");
    expect(await eventTag.inputValue()).toBe("");
    expect(await generate.isDisabled()).toBe(true);

    await label.fill("Badge");
    await generate.click();
    const rows = card.locator("li");
    await expect.poll(() => rows.locator("h4").allTextContents()).toEqual(["Badge", "Booth"]);
    await waitForToast(page, "QR code created successfully");

    const stored = await qrRows(projectId);
    expect(stored.map(({ label, event_tag }) => ({ label, event_tag }))).toEqual([
      { label: "Booth", event_tag: "Demo Day" },
      { label: "Badge", event_tag: null },
    ]);
    const boothId = stored[0]!.id;
    const badgeId = stored[1]!.id;

    const booth = rows.filter({ has: page.getByRole("heading", { name: "Booth", exact: true }) });
    const badge = rows.filter({ has: page.getByRole("heading", { name: "Badge", exact: true }) });
    const boothUrl = `${e2e.app.url}/pitch/${harbor.slug}?qr=${boothId}`;
    expect(await visibleText(booth)).toContain("Demo Day");
    expect(await visibleText(booth)).toContain("0 scans · 0 unique");
    expect(await booth.locator("code").textContent()).toBe(boothUrl);
    expect(await badge.locator("code").textContent()).toBe(`${e2e.app.url}/pitch/${harbor.slug}?qr=${badgeId}`);

    // Download: a PNG and an SVG named after the slug and the label; the PNG reads back as the tracked URL.
    const downloads = await collectDownloads(page, 2, () => booth.getByRole("button", { name: "Download" }).click());
    expect(downloads.map((download) => download.suggestedFilename()).sort()).toEqual([`${harbor.slug}-Booth-qr.png`, `${harbor.slug}-Booth-qr.svg`]);
    await waitForToast(page, "QR code images downloaded");
    const png = await downloadBytes(downloads.find((download) => download.suggestedFilename().endsWith(".png"))!);
    const decoded = decodeQrPng(png);
    expect(decoded.text).toBe(boothUrl);
    expect(decoded.width).toBeGreaterThanOrEqual(1024);
    const svg = (await downloadBytes(downloads.find((download) => download.suggestedFilename().endsWith(".svg"))!)).toString("utf8");
    expect(svg).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s>]/);

    // Delete, after the confirmation.
    const confirmations: string[] = [];
    page.once("dialog", (dialog) => {
      confirmations.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Delete QR code Badge" }).click();
    await waitForToast(page, "QR code deleted");
    expect(confirmations).toEqual(["Are you sure you want to delete this QR code?"]);
    await expect.poll(() => rows.locator("h4").allTextContents()).toEqual(["Booth"]);
    expect((await qrRows(projectId)).map((row) => row.label)).toEqual(["Booth"]);
    await page.reload();
    await waitForHydration(page);
    expect(await page.getByRole("region", { name: "QR Codes & Event Tracking" }).locator("li h4").allTextContents()).toEqual(["Booth"]);
  });

  it("counts visitors scanning the Booth code and the plain link, and stores their intro, follow and signal", { timeout: 90_000 }, async () => {
    const founder = await signedInFounder();
    const harbor = await insertHarbor(founder.id, { qrCodes: [BOOTH] });
    const projectId = harbor.id;
    const [boothId] = harbor.qrCodeIds;
    const boothUrl = pitchUrl(harbor.slug, `?qr=${boothId}`);

    // Visitor A: through the Booth code, reloads (a second scan, same viewer), then requests an intro.
    const first = await newVisitor();
    await openPitchCounted(first, boothUrl, projectId);
    await first.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await openPitchCounted(first, "reload", projectId);
    await readThePage(first, e2e.app.dataDir);
    const intro = await openPitchDialog(first, "Request Intro");
    await field(intro, "Name").fill(INTRO.name);
    await field(intro, "Email").fill(INTRO.email);
    await field(intro, "LinkedIn URL").fill(INTRO.linkedin);
    await field(intro, "Note").fill(INTRO.note);
    await intro.getByText(INTRO.role, { exact: true }).click();
    await intro.getByRole("button", { name: "Request Intro" }).click();
    await intro.getByText("Intro request sent!").waitFor();

    // Visitor B: through the Booth code, follows updates.
    const second = await newVisitor();
    await openPitchCounted(second, boothUrl, projectId);
    await readThePage(second, e2e.app.dataDir);
    const follow = await openPitchDialog(second, "Follow Updates");
    await field(follow, "Name").fill(FOLLOWER.name);
    await field(follow, "Email").fill(FOLLOWER.email);
    await follow.getByLabel("I agree to receive project updates by e-mail").check();
    await follow.getByRole("button", { name: "Follow Updates" }).click();
    await second.getByText("You're on the list—weekly Friday digest, unsub anytime.").waitFor();

    // Visitor C: through the plain link, signals interest in the (edited) Angel tier, publicly.
    const third = await newVisitor();
    await openPitchCounted(third, pitchUrl(harbor.slug), projectId);
    await readThePage(third, e2e.app.dataDir);
    const signal = await openPitchDialog(third, "Signal Interest");
    const tiers = await signal.locator("label:has(input[type=radio])").allTextContents();
    expect(tiers).toHaveLength(4);
    expect(tiers[0]).toContain("$10k-$25k");
    expect(tiers[3]).toContain("$1.0M+");
    await signal.locator("label", { hasText: "Angel" }).first().click();
    await field(signal, "Name").fill(BACKER.name);
    await field(signal, "Email").fill(BACKER.email);
    await field(signal, "Message").fill(BACKER.message);
    expect(await signal.getByLabel("Show my name on the Recognition Wall").isChecked()).toBe(true);
    await signal.getByRole("button", { name: "Signal Interest" }).click();
    await third.getByText("Signal of interest recorded!").waitFor();

    // Stored: 4 scans (3 through Booth) from 3 viewers, and the three contacts.
    const scans = await scanRows(projectId);
    expect(scans.map((scan) => scan.qr_code_id)).toEqual([boothId, boothId, boothId, null]);
    expect(scans.every((scan) => /^[0-9a-f]{32}$/.test(scan.viewer_fingerprint ?? ""))).toBe(true);
    expect(scans[0]!.viewer_fingerprint).toBe(scans[1]!.viewer_fingerprint);
    expect(new Set(scans.map((scan) => scan.viewer_fingerprint)).size).toBe(3);
    expect(await qrRows(projectId)).toMatchObject([{ label: "Booth", total_scans: 3, unique_scans: 2 }]);

    const contacts = await e2e.db
      .selectFrom("contacts")
      .select(["name", "email", "intent", "subscribed", "role_tags", "linkedin_url", "note"])
      .where("project_id", "=", projectId)
      .orderBy("created_at")
      .execute();
    expect(contacts).toEqual([
      { name: INTRO.name, email: INTRO.email, intent: "Intro", subscribed: false, role_tags: [INTRO.role], linkedin_url: INTRO.linkedin, note: INTRO.note },
      { name: FOLLOWER.name, email: FOLLOWER.email, intent: "Subscriber", subscribed: true, role_tags: [], linkedin_url: null, note: null },
      // The backer's message is on their signal; a contact's note is its latest intro's.
      { name: BACKER.name, email: BACKER.email, intent: "Supporter", subscribed: false, role_tags: [], linkedin_url: null, note: null },
    ]);
    const angel = (await tierRows(projectId))[0]!;
    const signals = await e2e.db
      .selectFrom("signals")
      .select(["signal_tier_id", "range_label", "range_min", "range_max", "amount", "is_public", "message"])
      .where("project_id", "=", projectId)
      .execute();
    expect(signals).toEqual([
      { signal_tier_id: angel.id, range_label: "Angel", range_min: 10_000, range_max: 25_000, amount: 10_000, is_public: true, message: BACKER.message },
    ]);
  });

  it("reads the analytics and exports the contacts as CSV", { timeout: 60_000 }, async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    const { harbor, second } = await harborVisitedAndQuietPilot(founder.id);
    const projectId = harbor.id;
    const secondProjectId = second.id;
    await goto(page, `/project/${projectId}/analytics`);
    expect(await heading1(page).textContent()).toBe(`Analytics: ${TITLE}`);
    expect(await page.getByRole("link", { name: "Back to Projects" }).getAttribute("href")).toBe("/my-projects");

    const stat = async (label: string) => visibleText(statCard(page, label));
    expect(await stat("Total Scans")).toBe("Total Scans 4 3 unique viewers Scans count page loads; unique viewers count browsers, about one per person.");
    expect(await stat("Intros Offered")).toMatch(/^Intros Offered 1 intro requests \(actions\)$/);
    expect(await stat("Subscribers")).toMatch(/^Subscribers 1 people following updates$/);
    expect(await stat("Signals")).toMatch(/^Signals 1 interest signals \(actions\)$/);
    const conversion = await stat("Conversion Rate");
    expect(conversion).toMatch(/^Conversion Rate 100\.0% scan to action 3 actions/);
    expect(conversion).toContain("from 3 unique viewers");

    const keyMetrics = page.getByRole("region", { name: "Key Metrics" });
    expect(await definitionPairs(keyMetrics.locator("dl"))).toEqual(Object.fromEntries(METRICS.map((metric) => [metric.label, metric.value])));

    const breakdown = page.getByRole("region", { name: "Scans by QR Code" });
    const rows = breakdown.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator("th").innerText()).toContain("Booth");
    expect((await rows.first().locator("td").allInnerTexts()).map((text) => text.trim())).toEqual(["Demo Day", "3", "2"]);

    const chart = page.getByRole("region", { name: "Scans over time" }).getByRole("img");
    expect(await chart.getAttribute("aria-label")).toMatch(/4 scans in total/);

    // Export CSV: the file, its name and its rows, newest first.
    const [csvDownload] = await collectDownloads(page, 1, () => page.getByRole("button", { name: "Export CSV" }).click());
    expect(csvDownload!.suggestedFilename()).toBe("Harbor-Cold-Chain-contacts.csv");
    await waitForToast(page, "Contacts exported successfully");
    const bytes = await downloadBytes(csvDownload!);
    // UTF-8 with a byte-order mark, so a spreadsheet reads accents right.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = parseCsv(bytes.subarray(3).toString("utf8"));
    expect(csv[0]).toEqual([
      ...["Name", "Email", "Intent", "Role Tags", "LinkedIn", "Note", "Created At", "Tier", "Range", "Message", "Source", "Event tag"],
      ...["Status", "Temperature", "Founder note", "First response at", "Minutes to first response", "Qualifying answer", "Met in person", "Phone"],
      ...["Pages read", "Seconds read"],
    ]);
    const data = csv.slice(1);
    expect(data).toHaveLength(3);
    for (const row of data) expect(new Date(row[6]!).toISOString()).toBe(row[6]);
    expect(data.map((row) => row.slice(0, 6))).toEqual([
      [BACKER.name, BACKER.email, "Supporter", "", "", ""],
      [FOLLOWER.name, FOLLOWER.email, "Subscriber", "", "", ""],
      [INTRO.name, INTRO.email, "Intro", INTRO.role, INTRO.linkedin, INTRO.note],
    ]);
    // Then the signal's tier, range and message, and where each person came from.
    expect(data.map((row) => row.slice(7, 12))).toEqual([
      ["Angel", "$10k-$25k", BACKER.message, "Direct link", ""],
      ["", "", "", "Booth · Demo Day", "Demo Day"],
      ["", "", "", "Booth · Demo Day", "Demo Day"],
    ]);

    // A project nobody contacted: nothing to download.
    await goto(page, `/project/${secondProjectId}/analytics`);
    expect(await heading1(page).textContent()).toBe(`Analytics: ${SECOND.title}`);
    let downloaded = false;
    page.once("download", () => (downloaded = true));
    await page.getByRole("button", { name: "Export CSV" }).click();
    await waitForToast(page, "No contacts to export");
    expect(downloaded).toBe(false);
    expect(await page.getByRole("region", { name: "Scans by QR Code" }).count()).toBe(0);
  });

  it("sees the counts on My Projects, and the dashboard's projects and live activity feed", { timeout: 90_000 }, async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    const { harbor: harborProject, second: quiet, boothId } = await harborVisitedAndQuietPilot(founder.id);
    const projectId = harborProject.id;
    await goto(page, "/my-projects");
    const card = page.getByRole("list", { name: "Projects" }).locator(":scope > li").filter({ has: page.getByRole("heading", { name: TITLE, exact: true }) });
    expect(await card.getByText(ONE_LINER).count()).toBe(1);
    expect(await card.getByText("Published", { exact: true }).count()).toBe(1);
    expect(await definitionPairs(card.locator("dl"))).toEqual({ Signals: "1", Intros: "1", Subscribers: "1" });
    expect(await card.getByRole("link", { name: "Analytics" }).getAttribute("href")).toBe(`/project/${projectId}/analytics`);
    expect(await card.getByRole("link", { name: "Edit" }).getAttribute("href")).toBe(`/project/${projectId}/edit`);
    const open = card.getByRole("link", { name: "Open pitch page" });
    expect(await open.getAttribute("href")).toBe(`/pitch/${harborProject.slug}`);
    expect(await open.getAttribute("target")).toBe("_blank");
    const second = page.getByRole("list", { name: "Projects" }).locator(":scope > li").filter({ has: page.getByRole("heading", { name: SECOND.title, exact: true }) });
    expect(await second.getByText("Draft", { exact: true }).count()).toBe(1);
    expect(await definitionPairs(second.locator("dl"))).toEqual({ Signals: "0", Intros: "0", Subscribers: "0" });
    // Newest first.
    expect(await page.getByRole("list", { name: "Projects" }).locator(":scope > li h2").allTextContents()).toEqual([SECOND.title, TITLE]);

    await goto(page, "/dashboard");
    expect(await heading1(page).textContent()).toBe("Founder Dashboard");
    const projects = page.getByRole("region", { name: "My Projects" });
    const harbor = projects.getByRole("link", { name: new RegExp(`^${TITLE}`) });
    expect(await harbor.getAttribute("href")).toBe(`/project/${projectId}/edit`);
    expect(await visibleText(harbor)).toBe(`${TITLE} /pitch/${harborProject.slug} Published`);
    expect(await visibleText(projects.getByRole("link", { name: new RegExp(`^${SECOND.title}`) }))).toBe(`${SECOND.title} /pitch/${quiet.slug} Draft`);
    // Beside each project, its lead inbox with what arrived since the founder last looked.
    const harborLeads = projects.getByRole("link", { name: `Leads for ${TITLE}: 3 new` });
    expect(await harborLeads.getAttribute("href")).toBe(`/project/${projectId}/leads`);
    await page.getByRole("heading", { name: "Your Interest Signals" }).waitFor();

    const titles = await activityTitles(page);
    expect(titles).toContain(`${INTRO.name} requested intro`);
    expect(titles).toContain("New interest signal ($10k-$25k)");
    expect(titles.filter((title) => title === "New scan from Booth")).toHaveLength(3);
    expect(titles).toHaveLength(6);
    const feed = page.getByRole("region", { name: "Activity, newest first" });
    expect(await visibleText(feed.locator("li").filter({ hasText: "New interest signal" }))).toContain("Angel interest level");
    expect(await visibleText(feed.locator("li").filter({ hasText: "New scan from Booth" }).first())).toContain("Demo Day");

    // A new scan while the dashboard is open shows up with the next refresh (every 10 s), without a reload.
    await page.evaluate(() => ((window as unknown as { stayedOnPage: boolean }).stayedOnPage = true));
    const late = await newVisitor();
    await openPitchCounted(late, pitchUrl(harborProject.slug, `?qr=${boothId}`), projectId);
    await expect
      .poll(async () => (await activityTitles(page)).filter((title) => title === "New scan from Booth").length, { timeout: 13_000, interval: 250 })
      .toBe(4);
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
    expect(await activityTitles(page)).toHaveLength(7);
  });

  it("takes the project back to draft: the public pitch answers 404 and Preview Live is gone", { timeout: 60_000 }, async () => {
    const founder = await signedInFounder();
    const { page } = founder;
    const harbor = await insertHarbor(founder.id, { qrCodes: [BOOTH] });
    const projectId = harbor.id;
    const [boothId] = harbor.qrCodeIds;
    // The anonymous page is served (and cached) while published.
    expect((await fetch(pitchUrl(harbor.slug))).status).toBe(200);
    const tiersBefore = await tierRows(projectId);

    await goto(page, `/project/${projectId}/edit`);
    await page.getByRole("link", { name: /Preview Live/ }).waitFor();
    await page.getByRole("radio", { name: "Draft", exact: true }).check();
    await page.getByRole("button", { name: "Update Project" }).click();
    await waitForToast(page, "Project updated successfully");
    expect(await projectRow(projectId)).toMatchObject({ status: "draft", deck_url: DECK_URL, video_url: null });
    // The tiers were updated in place: same ids, so the signal keeps its tier.
    expect(await tierRows(projectId)).toEqual(tiersBefore);
    await page.getByRole("link", { name: /Preview Live/ }).waitFor({ state: "detached" });

    const anonymous = await fetch(pitchUrl(harbor.slug));
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).not.toContain(ONE_LINER);
    const visitor = await newVisitor();
    const response = await visitor.goto(pitchUrl(harbor.slug, `?qr=${boothId}`));
    expect(response?.status()).toBe(404);
    await visitor.getByText("Project not found").first().waitFor();
    expect(await visitor.getByText(ONE_LINER).count()).toBe(0);

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByRole("radio", { name: "Draft", exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole("link", { name: /Preview Live/ }).count()).toBe(0);
  });
});
