// The founder's screens at the widths a booth has (decision 88): the inbox's filters read whole at 1280 px, and the
// owner's booth screen at 1024x768 shows the newest active code, with 'Add a person' in sight.
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase as openAppDatabase } from "~/db/client.server";
import { setQrCodeArchived } from "~/modules/qr/qr-codes.server";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { visitorAction } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

let context: BrowserContext;
let project: Awaited<ReturnType<typeof insertProject>>;

beforeAll(async () => {
  const email = uniqueEmail("fit");
  const signedIn = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP });

  context = signedIn.context;

  const ownerId = signedIn.user.id;
  project = await insertProject(e2e.app.dataDir, {
    ownerId,
    title: "Harbor Cold Chain",
    qrCodes: [{ label: "Flyer" }, { label: "Booth Monday", eventTag: "Demo Day" }],
  });
  // Monday's booth is over: its code left the active list.
  const { db, close } = openAppDatabase({ dialect: "sqlite", file: path.join(e2e.app.dataDir, "app.sqlite") });
  await setQrCodeArchived(db, ownerId, project.id, project.qrCodeIds[1]!, true);
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
