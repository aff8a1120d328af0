// In Chromium: a founder uploads a PDF in the project's Deck section on a phone and watches it drawn; a visitor's
// phone reads it on the pitch page by swipe, the Next button and the End key, each page's image described by its
// text, with the 1080 px WebP on a phone and the 1600 px one on a desktop, and no PDF ever fetched; without
// JavaScript every page is in the strip. A renamed text file is refused at the field, an encrypted PDF by the
// renderer, and the pitch page keeps its deck. Screenshots of the reader go to tmp/deck-reader/ (ignored by git), to look at.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { collectPageErrors, waitForEnhancement, waitForHydration } from "../support/clients";
import { makeDeckPdf, makeEncryptedPdf } from "../support/deck-pdfs";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject, newVisitor } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";

const SHOTS_DIR = "tmp/deck-reader";
const TITLES = ["Cold rooms that run on sun", "Clinics lose a third of vaccines", "Traction: 41 clinics in 9 months", "The round: 1.2M seed"];
const PHONE_CONTEXT: BrowserContextOptions = { viewport: PHONE, deviceScaleFactor: 2.6, isMobile: true, hasTouch: true };
const NOT_A_PDF = "This file is not a PDF. Export your deck as a PDF and upload that.";
const PASSWORD = "This PDF is protected with a password. Export it again without one and upload that.";

const e2e = setUpAppInBrowser();

type Founder = { context: BrowserContext; page: Page; errors: string[]; projectId: string; slug: string };
let founder: Founder;

beforeAll(async () => {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const { context, user } = await signedInContext(e2e.browser, e2e.app, uniqueEmail("deck"), PHONE_CONTEXT);
  const { id, slug } = await insertProject(e2e.app.dataDir, { title: "Harbor Cold Chain", ownerId: user.id, status: "published" });
  const page = await context.newPage();
  founder = { context, page, errors: collectPageErrors(page), projectId: id, slug };
});

afterAll(async () => {
  await founder?.context.close();
});

const deckRow = (projectId: string) => e2e.db.selectFrom("projects").select("deck_id").where("id", "=", projectId).executeTakeFirstOrThrow();
const deckCount = async (projectId: string) => (await e2e.db.selectFrom("decks").select("id").where("project_id", "=", projectId).execute()).length;

/**
 * The page of the strip in view (its centre inside the strip's box), its image's text and the counter; `number` is
 * negative (minus how many) unless exactly one page is in view and the strip is at rest on it, its edge on the
 * strip's, as the snap leaves it. A page turned while the last one is still settling could be taken back by it.
 */
function pageInView(page: Page): Promise<{ number: number; alt: string | null; counter: string }> {
  return page.evaluate(() => {
    const strip = document.querySelector<HTMLElement>("[data-deck-pages]")!;
    const box = strip.getBoundingClientRect();
    const shown = [...strip.querySelectorAll<HTMLElement>("[data-deck-page]")].filter((item) => {
      const rect = item.getBoundingClientRect();
      const centre = rect.left + rect.width / 2;
      return centre > box.left && centre < box.right;
    });
    const atRest = shown.length === 1 && Math.abs(shown[0]!.getBoundingClientRect().left - box.left) < 1;
    return {
      number: atRest ? Number(shown[0]!.dataset.deckPage) : -shown.length,
      alt: shown[0]?.querySelector("img")?.getAttribute("alt") ?? null,
      counter: document.querySelector("[data-deck-counter]")?.textContent ?? "",
    };
  });
}

async function expectPage(page: Page, number: number) {
  await expect.poll(() => pageInView(page)).toEqual({ number, alt: TITLES[number - 1], counter: `${number} / ${TITLES.length}` });
}

/** Page images (and any PDF) the page asked for, as paths. */
function deckRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/deck/") || /\.pdf$/i.test(url.pathname)) paths.push(url.pathname);
  });
  return paths;
}

/** The image the browser chose for page 1, once it has loaded. */
async function firstPageImage(page: Page): Promise<string> {
  const image = page.locator('[data-deck-page="1"] img');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return new URL(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
}

/** Scrolls the page so the reader is in the middle of the window, clear of the sticky header and action bar. */
async function centreReader(page: Page) {
  await page.locator("[data-deck-reader]").evaluate((reader) => reader.scrollIntoView({ block: "center" }));
}

/**
 * A finger drawn across the strip from 70 % to 5 % of its width and lifted, as touch events through the browser's
 * own input (Chromium's synthesized touch scroll gesture leaves a scroll-snap strip where it was, headless). It
 * starts in the middle half, where a tap turns no page, so only the scroll can have turned it.
 */
async function swipeToNextPage(context: BrowserContext, page: Page) {
  const box = await page.locator("[data-deck-pages]").boundingBox();
  if (!box) throw new Error("the deck's strip is not shown");
  const y = Math.round(box.y + box.height / 2);
  const from = box.x + box.width * 0.7;
  const to = box.x + box.width * 0.05;
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: Math.round(from), y }] });
    for (let step = 1; step <= 10; step += 1) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: Math.round(from + ((to - from) * step) / 10), y }] });
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

async function openDeckSection(page: Page, projectId: string) {
  await page.goto(`${e2e.app.url}/project/${projectId}/deck`);
  await waitForHydration(page);
}

describe("the deck reader", () => {
  let deckId: string;

  it("a founder uploads a 4-page PDF on a phone, sees it drawn, and then the deck in the section", { timeout: 90_000 }, async () => {
    const { page, projectId } = founder;
    await openDeckSection(page, projectId);
    await page.getByText("No deck uploaded yet.").waitFor();
    const pdf = Buffer.from(await makeDeckPdf(4, { title: (n) => TITLES[n - 1]! }));
    await page.getByLabel("Deck (PDF)", { exact: true }).setInputFiles({ name: "Harbor seed deck.pdf", mimeType: "application/pdf", buffer: pdf });
    await page.getByRole("button", { name: "Upload deck", exact: true }).click();

    // The progress while it is drawn (a fast render may finish before the first poll shows it), then the deck.
    const progress = page.getByRole("status").filter({ hasText: /^(Opening the PDF…|Rendering page [1-4] of 4)$/ });
    const finished = page.getByText("4 pages · on your pitch page since");
    await progress.or(finished).first().waitFor({ timeout: 30_000 });
    await finished.waitFor({ timeout: 60_000 });
    await expect.poll(() => progress.count()).toBe(0);
    await page.getByText("Harbor seed deck.pdf", { exact: true }).waitFor();
    expect(await page.getByRole("img", { name: TITLES[0], exact: true }).count()).toBe(1);
    await page.getByLabel("Replace the deck (PDF)", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Upload new deck" }).waitFor();
    await page.getByRole("heading", { name: "Deck settings" }).waitFor();
    expect(await page.getByLabel("Visitors may download the PDF").isChecked()).toBe(false);

    deckId = (await deckRow(projectId)).deck_id ?? "";
    expect(deckId).not.toBe("");
    const pages = await e2e.db.selectFrom("deck_pages").select(["page_number", "text"]).where("deck_id", "=", deckId).orderBy("page_number").execute();
    expect(pages).toEqual(TITLES.map((text, index) => ({ page_number: index + 1, text })));
    expect(founder.errors).toEqual([]);
  });

  it("a visitor's phone reads page 1, swipes to page 2, Next to page 3, End to the last; never a PDF, page 1 at 1080 px", { timeout: 60_000 }, async () => {
    const { context, page } = await newVisitor(e2e.browser, PHONE_CONTEXT);
    try {
      const errors = collectPageErrors(page);
      const requests = deckRequests(page);
      await page.goto(`${e2e.app.url}/pitch/${founder.slug}`);
      await waitForEnhancement(page);
      const strip = page.locator("[data-deck-pages]");
      await centreReader(page);
      expect(await page.locator("[data-deck-page]").count()).toBe(4);
      await expectPage(page, 1);
      expect(await firstPageImage(page)).toBe(`/deck/${deckId}/page-1-1080.webp`);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-phone.png") });
      await page.locator("[data-deck-reader]").screenshot({ path: path.join(SHOTS_DIR, "deck-reader-phone-reader.png") });

      // A swipe: a finger drawn across the strip from right to left; the snap settles on the next page when it lifts.
      await swipeToNextPage(context, page);
      await expectPage(page, 2);

      await page.getByRole("button", { name: "Next page" }).tap();
      await expectPage(page, 3);

      await strip.focus();
      await page.keyboard.press("End");
      await expectPage(page, 4);
      expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-phone-last-page.png") });

      await page.getByRole("button", { name: "Full screen" }).tap();
      await expect.poll(() => page.locator("[data-deck-reader]").getAttribute("data-full-screen")).toBe("true");
      await expectPage(page, 4);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-phone-full-screen.png") });

      expect(requests.filter((request) => /\.pdf$/i.test(request))).toEqual([]);
      expect(requests.filter((request) => request.includes("/page-1-"))).toEqual([`/deck/${deckId}/page-1-1080.webp`]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a desktop loads the 1600 px image, and reads in full screen", { timeout: 60_000 }, async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      const requests = deckRequests(page);
      await page.goto(`${e2e.app.url}/pitch/${founder.slug}`);
      await waitForEnhancement(page);
      await centreReader(page);
      await expectPage(page, 1);
      expect(await firstPageImage(page)).toBe(`/deck/${deckId}/page-1-1600.webp`);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-desktop.png") });

      await page.getByRole("button", { name: "Full screen" }).click();
      await expect.poll(() => page.locator("[data-deck-reader]").getAttribute("data-full-screen")).toBe("true");
      await page.getByRole("button", { name: "Next page" }).click();
      await expectPage(page, 2);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-desktop-full-screen-hovering-next.png") });
      await page.mouse.move(DESKTOP.width / 2, DESKTOP.height / 2);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-desktop-full-screen.png") });
      expect(requests.filter((request) => /\.pdf$/i.test(request))).toEqual([]);
      expect(requests.filter((request) => request.includes("/page-1-"))).toEqual([`/deck/${deckId}/page-1-1600.webp`]);
    } finally {
      await context.close();
    }
  });

  it("without JavaScript every page is in the strip, with the hint to swipe and no controls", async () => {
    const { context, page } = await newVisitor(e2e.browser, { ...PHONE_CONTEXT, javaScriptEnabled: false });
    try {
      await page.goto(`${e2e.app.url}/pitch/${founder.slug}`);
      const images = page.locator("[data-deck-page] img");
      expect(await images.count()).toBe(4);
      expect(await images.evaluateAll((all) => all.map((img) => img.getAttribute("alt")))).toEqual(TITLES);
      const hint = page.getByText("4 pages: swipe or scroll sideways to read.");
      await hint.scrollIntoViewIfNeeded();
      expect(await hint.isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "Next page" }).isVisible()).toBe(false);
      expect(await page.getByRole("button", { name: "Full screen" }).isVisible()).toBe(false);
      await page.screenshot({ path: path.join(SHOTS_DIR, "deck-reader-phone-no-script.png") });
    } finally {
      await context.close();
    }
  });

  it("a renamed text file is refused under the input, and nothing changes", async () => {
    const { page, projectId } = founder;
    await openDeckSection(page, projectId);
    const decksBefore = await deckCount(projectId);
    const input = page.getByLabel("Replace the deck (PDF)", { exact: true });
    await input.setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("Deck notes, not a PDF at all.\n") });
    await page.getByRole("button", { name: "Upload new deck" }).click();
    await page.getByText(NOT_A_PDF).waitFor();
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    const errorId = (await input.getAttribute("aria-describedby"))?.split(" ").find((id) => id.endsWith("-error"));
    expect(await page.locator(`[id="${errorId}"]`).innerText()).toContain(NOT_A_PDF);
    expect(await page.getByRole("status").count()).toBe(0);
    expect(await page.getByRole("alert").filter({ hasText: "was not taken" }).count()).toBe(0);
    expect(await deckCount(projectId)).toBe(decksBefore);
    expect((await deckRow(projectId)).deck_id).toBe(deckId);
    // The refusal is the only thing the browser reported (its console notes the 400 answer).
    expect(founder.errors.splice(0)).toEqual([expect.stringContaining("status of 400 (Bad Request)")]);
  });

  it("an encrypted PDF is refused by the renderer with the password message, and the pitch page keeps its deck", { timeout: 90_000 }, async () => {
    const { page, projectId } = founder;
    await openDeckSection(page, projectId);
    await page.getByLabel("Replace the deck (PDF)", { exact: true }).setInputFiles({ name: "locked.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makeEncryptedPdf()) });
    await page.getByRole("button", { name: "Upload new deck" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "locked.pdf was not taken." });
    await alert.waitFor({ timeout: 60_000 });
    expect((await alert.innerText()).replace(/\s+/g, " ").trim()).toBe(`locked.pdf was not taken. ${PASSWORD}`);
    await page.getByText("4 pages · on your pitch page since").waitFor();
    expect((await deckRow(projectId)).deck_id).toBe(deckId);

    const { context, page: visitor } = await newVisitor(e2e.browser, PHONE_CONTEXT);
    try {
      await visitor.goto(`${e2e.app.url}/pitch/${founder.slug}`);
      await waitForEnhancement(visitor);
      expect(await visitor.locator("[data-deck-reader]").getAttribute("data-deck-reader")).toBe(deckId);
      // Page 1's image is in the page; the others wait in <noscript> until the reader nears them.
      const alts = await visitor.locator("[data-deck-page]").evaluateAll((pages) =>
        pages.map((page) => {
          const image = page.querySelector("img") ?? new DOMParser().parseFromString(page.querySelector("noscript")?.textContent ?? "", "text/html").querySelector("img");
          return image?.getAttribute("alt") ?? null;
        }),
      );
      expect(alts).toEqual(TITLES);
      await expectPage(visitor, 1);
    } finally {
      await context.close();
    }
    expect(founder.errors).toEqual([]);
  });
});
