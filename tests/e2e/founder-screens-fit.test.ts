// The founder's screens at the widths a booth has (decision 88): the inbox's filters read whole at 1280 px, and the
// owner's booth screen at 1024x768 shows the newest active code, with 'Add a person' in sight; Analytics' Deck section
// reads as a table at 390 px and as bars with their shares at 1280 px.
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase as openAppDatabase } from "~/db/client.server";
import { setQrCodeArchived } from "~/modules/qr/qr-codes.server";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { beatsOf, createShownDeck, sender } from "../support/deck-reading";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { visitorAction } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { nextClientAddress, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

let context: BrowserContext;
let project: Awaited<ReturnType<typeof insertProject>> & { ownerId: string };

beforeAll(async () => {
  const email = uniqueEmail("fit");
  const signedIn = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP });

  context = signedIn.context;

  const ownerId = signedIn.user.id;
  project = { ownerId, ...(await insertProject(e2e.app.dataDir, {
    ownerId,
    title: "Harbor Cold Chain",
    qrCodes: [{ label: "Flyer" }, { label: "Booth Monday", eventTag: "Demo Day" }],
  })) };
  // Monday's booth is over: its code left the active list.
  const { db, close } = openAppDatabase({ dialect: "sqlite", file: path.join(e2e.app.dataDir, "app.sqlite") });
  await setQrCodeArchived(db, ownerId, project.id, project.qrCodeIds[1]!, true);
  // A five-page deck on the page: Ana read three pages through the flyer, Bo two, a browser without a cookie one;
  // the founder's own look is kept apart.
  const deck = await createShownDeck(db, project, 5);
  const where = { project: project.id, deck, qr: project.qrCodeIds[0]! };
  await recordDeckBeats(db, beatsOf(where, [[1, 40], [2, 30], [3, 20]]), sender("ana-viewer"));
  await recordDeckBeats(db, beatsOf(where, [[1, 25], [2, 10]]), sender("bo-viewer"));
  await recordDeckBeats(db, beatsOf({ ...where, qr: null }, [[1, 5]]), sender(null));
  await recordDeckBeats(db, beatsOf(where, [[1, 300], [4, 300]]), sender("founder-viewer", "team"));
  await close();
  // A busy morning: the booth's 'Just now' list is full.
  for (const name of ["Ana", "Bea", "Chen", "Dev", "Eli", "Fay"]) {
    await visitorAction(e2e.app, project.slug, project.qrCodeIds[0]!, { intent: "intro", name: `${name} Visitor`, email: `${name.toLowerCase()}-${Date.now()}@example.com`, note: "Met at the booth" });
  }
}, 60_000);

afterAll(async () => {
  await context?.close();
});

/** The selects whose chosen option does not fit inside them, as "label: text". */
function clippedSelects(page: Page): Promise<string[]> {
  return page.getByRole("search", { name: "Filter leads" }).evaluate((form) => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    return [...form.querySelectorAll("select")].flatMap((select) => {
      const style = getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.textContent ?? "";
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return canvas.measureText(text).width > room ? [`${select.labels[0]?.textContent}: ${text}`] : [];
    });
  });
}

describe("the lead inbox's filters", () => {
  it("read whole at 1280 px and at 390 px", { timeout: 60_000 }, async () => {
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      const filters = page.getByRole("search", { name: "Filter leads" });
      await filters.waitFor();
      expect(await filters.locator("select").count()).toBeGreaterThanOrEqual(5);
      expect(await clippedSelects(page)).toEqual([]);
      await page.screenshot({ path: "/tmp/fit-leads-1280.png" });
      await page.setViewportSize(PHONE);
      await page.getByText("More filters").click();
      expect(await clippedSelects(page)).toEqual([]);
      await page.screenshot({ path: "/tmp/fit-leads-390.png", fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe("the owner's booth screen", () => {
  for (const viewport of [{ width: 1024, height: 768 }, PHONE, DESKTOP]) {
    it(`at ${viewport.width}x${viewport.height} shows the newest active code and the whole of 'Add a person'`, { timeout: 60_000 }, async () => {
      const page = await context.newPage();
      try {
        await page.setViewportSize(viewport);
        await page.goto(`${e2e.app.url}/project/${project.id}/booth`);
        await waitForHydration(page);
        await page.getByRole("img", { name: "QR code for Flyer" }).waitFor();
        await expect.poll(() => page.getByRole("list", { name: "Live activity" }).getByRole("listitem").count()).toBe(6);
        expect(await page.getByRole("combobox").inputValue()).toBe(project.qrCodeIds[0]);
        const add = page.getByRole("button", { name: "Add a person" });
        const box = (await add.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        await page.screenshot({ path: `/tmp/fit-booth-${viewport.width}.png` });
      } finally {
        await page.close();
      }
    });
  }
});

describe("the Deck section of Analytics", () => {
  beforeAll(async () => {
    // A phone's scan of the flyer, so the codes to choose from list it.
    const scan = await fetch(`${e2e.app.url}/pitch/${project.slug}?qr=${project.qrCodeIds[0]}`, {
      headers: {
        accept: "text/html",
        "sec-fetch-dest": "document",
        "sec-fetch-mode": "navigate",
        "x-forwarded-for": nextClientAddress(),
        "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
      },
    });
    expect(scan.status).toBe(200);
  });

  /** The whole section, clear of the sticky top bar. */
  const shoot = async (page: Page, name: string) => {
    const clip = await page.getByRole("region", { name: "Deck" }).evaluate((section) => {
      const box = section.getBoundingClientRect();
      return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
    });
    await page.screenshot({ path: path.resolve(`tmp/deck-analytics/${name}.png`), fullPage: true, clip, style: "header { visibility: hidden !important; }" });
  };

  const rowsOf = (page: Page) =>
    page.locator("[data-deck-pages] tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? "").trim())));

  for (const viewport of [PHONE, DESKTOP]) {
    it(`shows each page's readers, median and total at ${viewport.width} px`, { timeout: 60_000 }, async () => {
      const page = await context.newPage();
      try {
        await page.setViewportSize(viewport);
        await page.goto(`${e2e.app.url}/project/${project.id}/analytics#deck-title`);
        await waitForHydration(page);
        const section = page.getByRole("region", { name: "Deck" });
        await section.waitFor();
        await expect.poll(() => section.locator("[data-deck-readers]").textContent()).toBe("3 readers");
        await expect.poll(() => section.textContent()).toContain("Not counted: 1 view by your team.");
        expect(await rowsOf(page)).toEqual([
          ["1", "3 100%", "25 s", "1 min 10 s"],
          ["2", "2 67%", "20 s", "40 s"],
          ["3", "1 33%", "20 s", "20 s"],
          ["4", "0 0%", "–", "–"],
          ["5", "0 0%", "–", "–"],
        ]);
        const chart = section.locator("[data-deck-chart]");
        if (viewport.width >= 768) expect(await chart.innerText()).toMatch(/100%\s+67%\s+33%\s+0%\s+0%/);
        else expect(await chart.isVisible()).toBe(false);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await shoot(page, `deck-${viewport.width}`);

        // The flyer alone: Bo's and Ana's reading, not the cookieless browser's.
        await section.getByRole("link", { name: "Flyer" }).click();
        await expect.poll(() => section.locator("[data-deck-readers]").textContent()).toBe("2 readers");
        expect((await rowsOf(page))[0]).toEqual(["1", "2 100%", "33 s", "1 min 5 s"]);
        await shoot(page, `deck-flyer-${viewport.width}`);
      } finally {
        await page.close();
      }
    });
  }
});
