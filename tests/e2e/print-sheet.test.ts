// Print sheets in Chromium: a founder makes a tracked QR code in the QR codes section, opens 'Print', and
// downloads the sheet (A6, then US Letter) from the print page: a vector sheet whose code, as the browser draws it, reads as the same tracked URL as the
// PNG download (decision 11).
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP } from "../support/chromium.js";
import { collectDownloads, decodeQrPng, downloadBytes, waitForToast } from "../support/founder-e2e";
import { signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, newClientContext, waitForHydration } from "../support/clients";

const TITLE = "Harbor Cold Chain";
const SLUG = `harbor-print-${Date.now().toString(36)}`;

const e2e = setUpAppInBrowser();
let founder: { context: BrowserContext; page: Page; errors: string[] };
let projectId = "";

beforeAll(async () => {
  const { context } = await newClientContext(e2e.browser, { viewport: DESKTOP, acceptDownloads: true });
  const page = await context.newPage();
  founder = { context, page, errors: collectPageErrors(page) };
  const email = uniqueEmail("print");
  await signUpThroughPage(page, e2e.app.url, email);
  await signInThroughPage(page, e2e.app.url, email);

  // The project itself is made over HTTP with the founder's cookies (the form has its own journey test).
  const created = await page.request.post(`${e2e.app.url}/project/create`, {
    headers: { origin: e2e.app.url },
    maxRedirects: 0,
    form: {
      title: TITLE,
      slug: SLUG,
      oneLiner: "Solar cold rooms for rural clinics",
      status: "published",
      metrics: "[]",
      problemPoints: "[]",
      solutionPoints: "[]",
      tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 1000, rangeMax: null, perks: [] }]),
    },
  });
  expect(created.status()).toBe(302);
  projectId = new URL(created.headers().location ?? "", e2e.app.url).pathname.split("/")[2] ?? "";
  expect(projectId).not.toBe("");
});

afterAll(async () => {
  await founder?.context.close().catch(() => undefined);
});

async function qrCodeId(label: string): Promise<string> {
  const { id } = await e2e.db.selectFrom("qr_codes").select("id").where("project_id", "=", projectId).where("label", "=", label).executeTakeFirstOrThrow();
  return id;
}

/** Draws an SVG document in Chromium at its physical size (96 CSS px per inch, twice as dense) and reads its QR code. */
async function decodeInBrowser(svg: string): Promise<string | null> {
  const width = Number(/width="([\d.]+)mm"/.exec(svg)?.[1]);
  const height = Number(/height="([\d.]+)mm"/.exec(svg)?.[1]);
  const toPx = (mm: number) => Math.ceil((mm / 25.4) * 96);
  const context = await e2e.browser.newContext({ viewport: { width: toPx(width), height: toPx(height) }, deviceScaleFactor: 2 });
  try {
    const page = await context.newPage();
    await page.setContent(`<style>body{margin:0}img{display:block}</style><img alt="" src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}">`);
    await page.locator("img").evaluate((img: HTMLImageElement) => img.decode());
    const [drawnWidth, drawnHeight] = await page.locator("img").evaluate((img: HTMLImageElement) => [img.width, img.height]);
    expect(Math.abs(drawnWidth! - (width / 25.4) * 96), "drawn at its width in mm").toBeLessThan(1);
    expect(Math.abs(drawnHeight! - (height / 25.4) * 96), "drawn at its height in mm").toBeLessThan(1);
    return decodeQrPng(await page.screenshot({ fullPage: true })).text;
  } finally {
    await context.close();
  }
}

describe("print sheets from the QR codes section", () => {
  it("'Print' opens the print page, whose SVG download is an A6 sheet with the title, the label, the event tag and the short URL; its code reads as the PNG's", async () => {
    const { page } = founder;
    await page.goto(`${e2e.app.url}/project/${projectId}/qr-codes`);
    await waitForHydration(page);
    await page.getByLabel("Label", { exact: true }).fill("Disrupt booth");
    await page.getByLabel("Event Tag").fill("disrupt-2025");
    await page.getByRole("button", { name: "Generate QR Code" }).click();
    await waitForToast(page, "QR code created successfully");

    const row = page.locator("li").filter({ has: page.getByRole("heading", { name: "Disrupt booth", exact: true }) });
    const trackedUrl = `${e2e.app.url}/pitch/${SLUG}?qr=${await qrCodeId("Disrupt booth")}`;
    expect(await row.locator("code").textContent()).toBe(trackedUrl);

    const pngDownloads = await collectDownloads(page, 2, () => row.getByRole("button", { name: "Download" }).click());
    await row.getByRole("link", { name: "Print", exact: true }).click();
    await page.waitForURL(`${e2e.app.url}/project/${projectId}/qr/${await qrCodeId("Disrupt booth")}/print`);
    await waitForHydration(page);
    const [sheetDownload] = await collectDownloads(page, 1, () => page.getByRole("link", { name: "Download SVG" }).click());
    expect(sheetDownload!.suggestedFilename()).toBe(`${SLUG}-Disrupt-booth-print-a6.svg`);
    const svg = (await downloadBytes(sheetDownload!)).toString("utf8");
    expect(svg).toMatch(/^<svg [^>]*width="105mm" height="148mm" viewBox="0 0 105 148"/);
    const shortUrl = `${new URL(e2e.app.url).host}/pitch/${SLUG}`;
    for (const text of [TITLE, "Disrupt booth", "disrupt-2025", shortUrl]) expect(svg).toContain(`>${text}</text>`);

    const png = pngDownloads.find((download) => download.suggestedFilename().endsWith(".png"))!;
    const fromPng = decodeQrPng(await downloadBytes(png)).text;
    expect(fromPng).toBe(trackedUrl);
    expect(await decodeInBrowser(svg)).toBe(fromPng);
  });

  it("'US Letter' on the print page downloads the same card centred on a US Letter page, still scanning", async () => {
    const { page } = founder;
    await page.getByRole("group", { name: "Sheet size" }).getByRole("link", { name: "US Letter" }).click();
    await page.waitForURL(/\/print\?size=letter$/);
    await page.getByRole("group", { name: "Sheet size" }).locator('[aria-current="page"]', { hasText: "US Letter" }).waitFor();
    const [download] = await collectDownloads(page, 1, () => page.getByRole("link", { name: "Download SVG" }).click());
    expect(download!.suggestedFilename()).toBe(`${SLUG}-Disrupt-booth-print-letter.svg`);
    const svg = (await downloadBytes(download!)).toString("utf8");
    expect(svg).toMatch(/^<svg [^>]*width="215.9mm" height="279.4mm"/);
    expect(await decodeInBrowser(svg)).toBe(`${e2e.app.url}/pitch/${SLUG}?qr=${await qrCodeId("Disrupt booth")}`);
    expect(founder.errors).toEqual([]);
  });

  it("the sheet is the owner's only: 401 signed out, 404 for another founder, 400 for an unknown size", async () => {
    const sheet = `${e2e.app.url}/project/${projectId}/qr/${await qrCodeId("Disrupt booth")}/print.svg`;
    expect((await fetch(sheet)).status).toBe(401);
    const { context: other } = await newClientContext(e2e.browser);
    const otherPage = await other.newPage();
    const email = uniqueEmail("other");
    await signUpThroughPage(otherPage, e2e.app.url, email);
    await signInThroughPage(otherPage, e2e.app.url, email);
    expect((await otherPage.request.get(sheet)).status()).toBe(404);
    await other.close();
    const mine = await founder.page.request.get(`${sheet}?size=a4`);
    expect(mine.status()).toBe(400);
    expect(await mine.json()).toEqual({ error: "size must be a6 or letter" });
    const ok = await founder.page.request.get(sheet);
    expect(ok.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(ok.headers()["cache-control"]).toBe("private, no-store");
  });
});
