// Printed codes that never die (decisions 63 and 64), in Chromium: a code printed before
// the slug changed still opens the pitch and counts once for that code; an archived code still works; a re-pointed
// code opens the other pitch and counts there; one sheet holds every chosen code, each decoding to its address.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { collectDownloads, downloadBytes, waitForToast } from "../support/founder-e2e";
import { visitorUserAgent } from "../support/pitch-e2e";
import { decodeQrCodesInSheet, decodeQrInSvg } from "../support/png";
import { signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, newClientContext, nextClientAddress, waitForHydration } from "../support/clients";

const stamp = Date.now().toString(36);
const FIRST_SLUG = `harbor-${stamp}`;
const RENAMED_SLUG = `harbor-cold-${stamp}`;
const NEXT_SLUG = `orbit-${stamp}`;

const e2e = setUpAppInBrowser();
let founder: { context: BrowserContext; page: Page; errors: string[] };
const projects: Record<string, string> = {};

function projectForm(title: string, slug: string): Record<string, string> {
  return {
    title,
    slug,
    oneLiner: `${title} in one line`,
    status: "published",
    metrics: "[]",
    problemPoints: "[]",
    solutionPoints: "[]",
    tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 1000, rangeMax: null, perks: [] }]),
  };
}

async function createProjectOverHttp(title: string, slug: string): Promise<string> {
  const created = await founder.page.request.post(`${e2e.app.url}/project/create`, { headers: { origin: e2e.app.url }, maxRedirects: 0, form: projectForm(title, slug) });
  expect(created.status()).toBe(302);
  return new URL(created.headers().location ?? "", e2e.app.url).pathname.split("/")[2] ?? "";
}

async function codeId(label: string): Promise<string> {
  const { id } = await e2e.db
    .selectFrom("qr_codes")
    .select("id")
    .where("label", "=", label)
    .where("project_id", "in", [projects.harbor!, projects.orbit!])
    .executeTakeFirstOrThrow();
  return id;
}

/** Scans stored for a project through a code, and the project's counted total. */
async function scansOf(projectId: string, qrCodeId: string) {
  const rows = await e2e.db.selectFrom("scans").select("qr_code_id").where("project_id", "=", projectId).execute();
  const stats = await e2e.db.selectFrom("project_stats").select("total_scans").where("project_id", "=", projectId).executeTakeFirst();
  return { viaCode: rows.filter((row) => row.qr_code_id === qrCodeId).length, all: rows.length, counted: stats?.total_scans ?? 0 };
}

/** The address a code's printed sheet encodes, read from its pixels as a phone would. */
async function printedAddress(projectId: string, qrCodeId: string): Promise<string> {
  const sheet = await founder.page.request.get(`${e2e.app.url}/project/${projectId}/qr/${qrCodeId}/print.svg`);
  expect(sheet.status()).toBe(200);
  const decoded = decodeQrInSvg(await sheet.text()).text;
  expect(decoded).not.toBeNull();
  return decoded!;
}

/** A visitor's phone opening a scanned address: where it lands and what it shows. */
async function scanWithPhone(address: string): Promise<{ landedOn: string; heading: string }> {
  const context = await e2e.browser.newContext({ viewport: PHONE, userAgent: visitorUserAgent(e2e.browser), locale: "en-US", extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
  try {
    const page = await context.newPage();
    await page.goto(address);
    const heading = (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
    // The page drops `?qr=` from the address once the door counted the visit (decision 52): the path is where it landed.
    return { landedOn: new URL(page.url()).pathname, heading };
  } finally {
    await context.close();
  }
}

async function openQrCodes(): Promise<void> {
  await founder.page.goto(`${e2e.app.url}/project/${projects.harbor}/qr-codes`);
  await waitForHydration(founder.page);
}

function activeRow(label: string) {
  return founder.page
    .getByRole("list", { name: "Active QR codes" })
    .locator("li")
    .filter({ has: founder.page.getByRole("heading", { name: label, exact: true }) });
}

beforeAll(async () => {
  const { context } = await newClientContext(e2e.browser, { viewport: DESKTOP, acceptDownloads: true });
  const page = await context.newPage();
  founder = { context, page, errors: collectPageErrors(page) };
  const email = uniqueEmail("codes");
  await signUpThroughPage(page, e2e.app.url, email);
  await signInThroughPage(page, e2e.app.url, email);
  projects.harbor = await createProjectOverHttp("Harbor Cold Chain", FIRST_SLUG);
  projects.orbit = await createProjectOverHttp("Orbit Labs", NEXT_SLUG);
});

afterAll(async () => {
  await founder?.context.close().catch(() => undefined);
});

describe("a code's label on a phone", () => {
  it("shows a label past 100 characters whole, with its counter and the limit's message, and does not create it", async () => {
    const { page } = founder;
    await page.setViewportSize(PHONE);
    try {
      await openQrCodes();
      const form = page.getByRole("form", { name: "Create QR code" });
      const label = form.getByLabel("Label", { exact: true });
      const long = `Disrupt booth ${"x".repeat(106)}`;
      await label.fill(long);
      expect(await label.inputValue()).toBe(long);
      await form.getByText("120/100").waitFor();
      await form.getByText("Label must be at most 100 characters").waitFor();
      expect(await form.getByRole("button", { name: "Generate QR Code" }).isDisabled()).toBe(true);
      await label.fill(long.slice(0, 100));
      await form.getByText("100/100").waitFor();
      expect(await form.getByText("Label must be at most 100 characters").count()).toBe(0);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});

describe("printed codes that never die", () => {
  it("a code printed before the slug changed still opens the pitch, and its scan counts once, for that code", async () => {
    await openQrCodes();
    const { page } = founder;
    await page.getByLabel("Label", { exact: true }).fill("Flyer");
    await page.getByRole("button", { name: "Generate QR Code" }).click();
    await waitForToast(page, "QR code created successfully");
    const flyer = await codeId("Flyer");
    const printed = await printedAddress(projects.harbor!, flyer);
    expect(printed).toBe(`${e2e.app.url}/pitch/${FIRST_SLUG}?qr=${flyer}`);

    // The slug field says printed codes keep working, then the founder renames it.
    await page.goto(`${e2e.app.url}/project/${projects.harbor}/edit`);
    await waitForHydration(page);
    await expect.poll(() => page.locator("[data-slug-redirect-note]").innerText()).toContain("Printed QR codes keep working");
    await page.getByLabel("URL Slug").fill(RENAMED_SLUG);
    await expect.poll(() => page.locator("[data-slug-redirect-note]").innerText()).toContain(`/pitch/${FIRST_SLUG}, which will redirect to the new address`);
    await page.getByRole("button", { name: "Update Project" }).click();
    await waitForToast(page, "Project updated successfully");

    // The old address answers a permanent redirect with the query kept; the hop itself counts nothing.
    const hop = await fetch(`${printed}&utm_source=flyer`, { redirect: "manual", headers: { "user-agent": visitorUserAgent(e2e.browser), "accept-language": "en" } });
    expect(hop.status).toBe(308);
    expect(hop.headers.get("location")).toBe(`/pitch/${RENAMED_SLUG}?qr=${flyer}&utm_source=flyer`);
    expect(hop.headers.get("cache-control")).toContain("no-store");
    // A page opened before the rename still finds its dialogs at the old address.
    const dialogs = await fetch(`${e2e.app.url}/pitch/${FIRST_SLUG}/dialogs?v=1`, { headers: { "user-agent": visitorUserAgent(e2e.browser) } });
    expect([dialogs.status, new URL(dialogs.url).pathname]).toEqual([200, `/pitch/${RENAMED_SLUG}/dialogs`]);
    expect(await dialogs.text()).toContain("Request Intro");

    const visit = await scanWithPhone(printed);
    expect(visit).toEqual({ landedOn: `/pitch/${RENAMED_SLUG}`, heading: "Harbor Cold Chain" });
    await expect.poll(() => scansOf(projects.harbor!, flyer), { timeout: 10_000 }).toEqual({ viaCode: 1, all: 1, counted: 1 });

    // Another project cannot take the old slug: the spec's message, and nothing changes.
    const taken = await page.request.post(`${e2e.app.url}/project/${projects.orbit}/edit`, {
      headers: { origin: e2e.app.url },
      form: { intent: "save", ...projectForm("Orbit Labs", FIRST_SLUG) },
    });
    expect(taken.status()).toBe(409);
    expect(await taken.text()).toContain("This URL slug is already taken. Choose another one.");
    expect((await e2e.db.selectFrom("projects").select("slug").where("id", "=", projects.orbit!).executeTakeFirstOrThrow()).slug).toBe(NEXT_SLUG);
  });

  it("deleting a code with scans offers 'Archive instead'; an archived code still opens the pitch and counts, and is restored", async () => {
    await openQrCodes();
    const { page } = founder;
    const flyer = await codeId("Flyer");
    await activeRow("Flyer").getByRole("button", { name: "Delete QR code Flyer" }).click();
    const offer = activeRow("Flyer").getByRole("alert");
    await expect.poll(() => offer.innerText()).toContain("Flyer has 1 scan.");
    await offer.getByRole("button", { name: "Archive instead" }).click();
    await waitForToast(page, "QR code archived");
    const archived = page.getByRole("list", { name: "Archived QR codes" });
    await expect.poll(() => archived.locator("li").innerText()).toContain("1 scan · 1 unique");
    expect(await activeRow("Flyer").count()).toBe(0);
    expect((await e2e.db.selectFrom("qr_codes").select("archived_at").where("id", "=", flyer).executeTakeFirstOrThrow()).archived_at).not.toBeNull();

    const visit = await scanWithPhone(await printedAddress(projects.harbor!, flyer));
    expect(visit.heading).toBe("Harbor Cold Chain");
    await expect.poll(() => scansOf(projects.harbor!, flyer), { timeout: 10_000 }).toEqual({ viaCode: 2, all: 2, counted: 2 });

    await archived.getByRole("button", { name: "Restore Flyer" }).click();
    await waitForToast(page, "QR code restored");
    await activeRow("Flyer").waitFor();
  });

  it("a re-pointed code opens the other pitch and counts there; its earlier scans stay with the first project", async () => {
    const { page } = founder;
    const flyer = await codeId("Flyer");
    const printed = `${e2e.app.url}/pitch/${FIRST_SLUG}?qr=${flyer}`;
    const row = activeRow("Flyer");
    await row.getByText("Archive, end date or move").click();
    // A draft is not offered, and a post naming one is refused with nothing changed.
    const draft = await createProjectOverHttp("Stealth", `stealth-${stamp}`);
    await page.request.post(`${e2e.app.url}/project/${draft}/edit`, { headers: { origin: e2e.app.url }, form: { intent: "save", ...projectForm("Stealth", `stealth-${stamp}`), status: "draft" } });
    const refused = await page.request.post(`${e2e.app.url}/project/${projects.harbor}/edit`, {
      headers: { origin: e2e.app.url },
      form: { intent: "repoint-qr", qrCodeId: flyer, targetProjectId: draft },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("That project is a draft: publish it first, so the printed code opens a pitch");
    expect((await e2e.db.selectFrom("qr_codes").select("project_id").where("id", "=", flyer).executeTakeFirstOrThrow()).project_id).toBe(projects.harbor);

    await row.getByLabel("Open another project").selectOption({ label: "Orbit Labs" });
    await row.getByRole("button", { name: "Move" }).click();
    await waitForToast(page, "QR code now opens Orbit Labs");
    expect((await e2e.db.selectFrom("qr_codes").select("project_id").where("id", "=", flyer).executeTakeFirstOrThrow()).project_id).toBe(projects.orbit);

    // The code printed with the first project's first slug: two hops (old slug, moved code), one count, at Orbit.
    const visit = await scanWithPhone(printed);
    expect(visit).toEqual({ landedOn: `/pitch/${NEXT_SLUG}`, heading: "Orbit Labs" });
    await expect.poll(() => scansOf(projects.orbit!, flyer), { timeout: 10_000 }).toEqual({ viaCode: 1, all: 1, counted: 1 });
    expect(await scansOf(projects.harbor!, flyer)).toEqual({ viaCode: 2, all: 2, counted: 2 });

    // Each project's screens show the code's own part: Harbor lists it as moved, with the scans it brought there;
    // at Orbit its card counts this one here and the two before.
    await page.goto(`${e2e.app.url}/project/${projects.harbor}/analytics`);
    const harborRow = page.getByRole("row").filter({ hasText: "Flyer" });
    await harborRow.getByText("Moved to another project").waitFor();
    await page.goto(`${e2e.app.url}/project/${projects.orbit}/qr-codes`);
    await page.getByText("1 scan · 1 unique here · 2 before it moved here").first().waitFor();
    expect(founder.errors).toEqual([]);
  });

  it("one sheet holds every chosen code, A4 or US Letter, each decoding to its own address", async () => {
    const { page } = founder;
    for (const label of ["Hall A", "Hall B", "Badge"]) {
      const made = await page.request.post(`${e2e.app.url}/project/${projects.harbor}/edit`, { headers: { origin: e2e.app.url }, form: { intent: "create-qr", label, eventTag: "demo-day" } });
      expect(made.status()).toBe(200);
    }
    const address = async (label: string) => `${e2e.app.url}/pitch/${RENAMED_SLUG}?qr=${await codeId(label)}`;
    await openQrCodes();
    await page.getByRole("link", { name: "Print all on one sheet" }).click();
    await page.waitForURL(`${e2e.app.url}/project/${projects.harbor}/qr/sheet`);
    await waitForHydration(page);
    // Every active code is chosen at first.
    const boxes = page.getByRole("group", { name: "Codes on the sheet" }).getByRole("checkbox");
    await expect.poll(() => boxes.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).checked))).toEqual([true, true, true]);
    const [first] = await collectDownloads(page, 1, () => page.getByRole("link", { name: "Download SVG" }).click());
    const a4 = (await downloadBytes(first!)).toString("utf8");
    expect(a4).toMatch(/^<svg [^>]*width="210mm" height="297mm"/);
    expect(decodeQrCodesInSheet(a4)).toEqual(await Promise.all(["Hall A", "Hall B", "Badge"].map(address)));

    await page.getByLabel("Badge").uncheck();
    await page.getByRole("button", { name: "Update sheet" }).click();
    await page.waitForURL(/chosen=1/);
    await page.getByRole("group", { name: "Sheet size" }).getByRole("link", { name: "US Letter" }).click();
    await page.waitForURL(/size=letter/);
    await page.getByRole("group", { name: "Sheet size" }).locator('[aria-current="page"]', { hasText: "US Letter" }).waitFor();
    const [second] = await collectDownloads(page, 1, () => page.getByRole("link", { name: "Download SVG" }).click());
    const letter = (await downloadBytes(second!)).toString("utf8");
    expect(letter).toMatch(/^<svg [^>]*width="215.9mm" height="279.4mm"/);
    expect(decodeQrCodesInSheet(letter)).toEqual(await Promise.all(["Hall A", "Hall B"].map(address)));
    for (const text of ["Hall A", "Hall B", "demo-day"]) expect(letter).toContain(`>${text}</text>`);
    expect(founder.errors).toEqual([]);
  });

  it("another project's code on a pitch's address opens that pitch, credits no code, and never redirects", async () => {
    // Orbit's own code now is Flyer, moved there from Harbor; Harbor's address with it still leads on to Orbit.
    const flyer = await codeId("Flyer");
    const visitor = { "user-agent": visitorUserAgent(e2e.browser), "accept-language": "en" };
    const moved = await fetch(`${e2e.app.url}/pitch/${RENAMED_SLUG}?qr=${flyer}`, { redirect: "manual", headers: visitor });
    expect(moved.status).toBe(308);
    // Orbit's address with a code Orbit never had (Harbor's Badge): Orbit, no hop.
    const foreign = await codeId("Badge");
    const harborBefore = await scansOf(projects.harbor!, foreign);
    const before = await scansOf(projects.orbit!, foreign);
    // Twice, as a script would: once rendered, once from the page cache; neither is a redirect.
    for (let load = 0; load < 2; load++) {
      const answer = await fetch(`${e2e.app.url}/pitch/${NEXT_SLUG}?qr=${foreign}`, { redirect: "manual", headers: visitor });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain("Orbit Labs");
    }
    // A phone scanning it lands on Orbit, counted there and credited to no code.
    expect(await scanWithPhone(`${e2e.app.url}/pitch/${NEXT_SLUG}?qr=${foreign}`)).toEqual({ landedOn: `/pitch/${NEXT_SLUG}`, heading: "Orbit Labs" });
    await expect.poll(async () => (await scansOf(projects.orbit!, foreign)).counted, { timeout: 10_000 }).toBe(before.counted + 1);
    expect((await scansOf(projects.orbit!, foreign)).viaCode).toBe(0);
    expect(await scansOf(projects.harbor!, foreign)).toEqual(harborBefore);
    expect(founder.errors).toEqual([]);
  });
});
