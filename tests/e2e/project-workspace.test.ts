// In Chromium: the project workspace in sections one tap apart on a 390x844 phone, tracked codes with
// their image, a duplicate label refused, 'Print' opening a print-ready page, and the warning when QR codes
// would encode an address phones cannot open (the test servers' default PUBLIC_URL is http://127.0.0.1:PORT).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE, releaseBrowser, sharedTestBrowser } from "../support/chromium.js";
import { waitForToast } from "../support/founder-e2e";
import { signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { collectPageErrors, newClientContext, waitForHydration } from "../support/clients";
import { withAppServer, type TestAppServer } from "../support/with-app-server";

const DUPLICATE = "A QR code with this label already exists";
const WARNING_TITLE = "QR codes will not open on phones";

let browser: Browser;

beforeAll(async () => {
  browser = await sharedTestBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
});

type Founder = { app: TestAppServer; context: BrowserContext; page: Page; errors: string[]; projectId: string; slug: string };

async function founderWithProject(app: TestAppServer, title: string): Promise<Founder> {
  const { context } = await newClientContext(browser, { viewport: PHONE, acceptDownloads: true });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const email = uniqueEmail("workspace");
  await signUpThroughPage(page, app.url, email);
  await signInThroughPage(page, app.url, email);
  const slug = `${title.toLowerCase().replace(/\W+/g, "-")}-${Date.now().toString(36)}`;
  const created = await page.request.post(`${app.url}/project/create`, {
    headers: { origin: app.url },
    maxRedirects: 0,
    form: {
      title,
      slug,
      oneLiner: "Solar cold rooms for rural clinics",
      status: "published",
      metrics: "[]",
      problemPoints: "[]",
      solutionPoints: "[]",
      tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 1000, rangeMax: null, perks: [] }]),
    },
  });
  expect(created.status()).toBe(302);
  const projectId = new URL(created.headers().location ?? "", app.url).pathname.split("/")[2] ?? "";
  expect(projectId).not.toBe("");
  return { app, context, page, errors, projectId, slug };
}

async function qrCodeLabels(app: TestAppServer, projectId: string): Promise<string[]> {
  const rows = await app.db.selectFrom("qr_codes").select("label").where("project_id", "=", projectId).orderBy("created_at").execute();
  return rows.map((row) => row.label);
}

async function createCode(page: Page, label: string): Promise<void> {
  const form = page.getByRole("form", { name: "Create QR code" });
  await form.getByLabel("Label", { exact: true }).fill(label);
  await form.getByRole("button", { name: "Generate QR Code" }).click();
}

/** The element's top in the document (not the viewport), so a scrolled page cannot hide a heading below the fold. */
function documentTop(page: Page, selector: string): Promise<number> {
  return page.locator(selector).first().evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
}

describe("with the default PUBLIC_URL (a loopback address)", () => {
  const app = withAppServer();
  let founder: Founder;
  beforeAll(async () => {
    founder = await founderWithProject(app, "Harbor Cold Chain");
  });
  afterAll(async () => {
    await founder?.context.close();
  });

  it("start-up logs one warning naming the address", () => {
    const warnings = founder.app.logs.filter((line) => line.includes("QR codes point to"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`QR codes point to ${founder.app.url}, an address that only opens on this computer.`);
  });

  it("every section is one tap away on a 390x844 phone, marked current, with its heading on the first screen", { timeout: 60_000 }, async () => {
    const { page, app, projectId } = founder;
    await page.goto(`${app.url}/project/${projectId}/edit`);
    await waitForHydration(page);
    const sections = [
      { tab: "Details", path: "edit", heading: "Edit Project" },
      { tab: "Deck", path: "deck", heading: "Deck: Harbor Cold Chain" },
      { tab: "QR codes", path: "qr-codes", heading: "QR codes: Harbor Cold Chain" },
      { tab: "Updates", path: "updates", heading: "Updates: Harbor Cold Chain" },
      { tab: "Leads", path: "leads", heading: "Leads: Harbor Cold Chain" },
      { tab: "Analytics", path: "analytics", heading: "Analytics: Harbor Cold Chain" },
    ];
    // Round trip, so every section is reached by a tap from another one.
    for (const section of [...sections.slice(1), sections[0]!]) {
      const nav = page.getByRole("navigation", { name: "Project sections" });
      await nav.getByRole("link", { name: section.tab, exact: true }).click();
      await page.waitForURL(`${app.url}/project/${projectId}/${section.path}`);
      await page.getByRole("heading", { level: 1, name: section.heading }).waitFor();
      expect(await nav.locator('[aria-current="page"]').allTextContents()).toEqual([section.tab]);
      const top = await documentTop(page, "main h1");
      const height = await page.locator("main h1").first().evaluate((element) => element.getBoundingClientRect().height);
      expect(top + height, `${section.tab}: heading on the first screen`).toBeLessThanOrEqual(PHONE.height);
    }
    expect(founder.errors).toEqual([]);
  });

  it("shows tracked codes with their image and refuses a duplicate label at the field, creating nothing", { timeout: 60_000 }, async () => {
    const { page, app, projectId } = founder;
    await page.goto(`${app.url}/project/${projectId}/qr-codes`);
    await waitForHydration(page);
    await createCode(page, "Disrupt booth");
    await waitForToast(page, "QR code created successfully");
    const image = page.getByRole("img", { name: "QR code for Disrupt booth" });
    await image.waitFor();
    expect(await image.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0);

    await createCode(page, "  disrupt BOOTH ");
    const form = page.getByRole("form", { name: "Create QR code" });
    await form.getByText(DUPLICATE).waitFor();
    expect(await form.getByLabel("Label", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await qrCodeLabels(app, projectId)).toEqual(["Disrupt booth"]);
    expect(await page.getByRole("region", { name: "QR Codes & Event Tracking" }).locator("li").count()).toBe(1);
    // The refusal is the only thing the browser reported (its console notes the 409 answer).
    expect(founder.errors.splice(0)).toEqual([expect.stringContaining("status of 409 (Conflict)")]);
  });

  it("warns on the QR codes section and the dashboard, naming the address and the fix", async () => {
    const { page, app, projectId } = founder;
    for (const pagePath of [`/project/${projectId}/qr-codes`, "/dashboard"]) {
      await page.goto(`${app.url}${pagePath}`);
      const warning = page.getByRole("alert", { name: WARNING_TITLE });
      await warning.waitFor();
      const text = await warning.innerText();
      expect(text).toContain(`QR codes point to ${app.url}, an address that only opens on this computer.`);
      expect(text).toContain("Set PUBLIC_URL to the https address phones will reach");
    }
  });

  it("'Print' opens a print page with the sheet, the warning and a Print button; on paper only the sheet shows", { timeout: 60_000 }, async () => {
    const { page, app, projectId } = founder;
    await page.addInitScript(() => {
      (window as unknown as { printCalls: number }).printCalls = 0;
      window.print = () => {
        (window as unknown as { printCalls: number }).printCalls += 1;
      };
    });
    await page.goto(`${app.url}/project/${projectId}/qr-codes`);
    await waitForHydration(page);
    const row = page.locator("li").filter({ has: page.getByRole("heading", { name: "Disrupt booth", exact: true }) });
    await row.getByRole("link", { name: "Print", exact: true }).click();
    await page.waitForURL(/\/qr\/[^/]+\/print$/);
    await waitForHydration(page);

    const sheet = page.getByRole("img", { name: "Print sheet for Disrupt booth (A6 card)" });
    await sheet.waitFor();
    expect(await sheet.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0);
    const warning = page.getByRole("alert", { name: WARNING_TITLE });
    expect(await warning.innerText()).toContain(`QR codes point to ${app.url}`);
    expect(await page.getByRole("link", { name: "Download SVG" }).getAttribute("href")).toMatch(/\/print\.svg$/);

    await page.getByRole("button", { name: "Print", exact: true }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);

    await page.emulateMedia({ media: "print" });
    expect(await sheet.isVisible()).toBe(true);
    expect(await warning.isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Print", exact: true }).isVisible()).toBe(false);
    expect(await page.getByRole("navigation", { name: "Project sections" }).isVisible()).toBe(false);
    expect(await page.locator("body > header").first().isVisible()).toBe(false);
    await page.emulateMedia({ media: "screen" });
    expect(founder.errors).toEqual([]);
  });
});

describe("with PUBLIC_URL=https://pitch.example.com", () => {
  const app = withAppServer({ env: { PUBLIC_URL: "https://pitch.example.com" } });
  let founder: Founder;
  beforeAll(async () => {
    founder = await founderWithProject(app, "Harbor Cold Chain");
  });
  afterAll(async () => {
    await founder?.context.close();
  });

  it("logs no warning and shows none on the QR codes section, the print page or the dashboard", { timeout: 60_000 }, async () => {
    const { page, app, projectId, slug } = founder;
    expect(app.logs.filter((line) => line.includes("QR codes point to"))).toEqual([]);
    await page.goto(`${app.url}/project/${projectId}/qr-codes`);
    await waitForHydration(page);
    await createCode(page, "Badge");
    const row = page.locator("li").filter({ has: page.getByRole("heading", { name: "Badge", exact: true }) });
    expect(await row.locator("code").textContent()).toMatch(new RegExp(`^https://pitch\\.example\\.com/pitch/${slug}\\?qr=`));
    expect(await page.getByRole("alert", { name: WARNING_TITLE }).count()).toBe(0);

    await row.getByRole("link", { name: "Print", exact: true }).click();
    await page.waitForURL(/\/print$/);
    await page.getByRole("img", { name: "Print sheet for Badge (A6 card)" }).waitFor();
    expect(await page.getByRole("alert", { name: WARNING_TITLE }).count()).toBe(0);

    await page.goto(`${app.url}/dashboard`);
    await page.getByRole("heading", { name: "Founder Dashboard" }).waitFor();
    expect(await page.getByRole("alert", { name: WARNING_TITLE }).count()).toBe(0);
  });
});
