// Part 4: visitors always know what happened. On the anonymous pitch page (no React, decision 13) and on
// the owner's React page: Follow reads 'Following' on that device afterwards, also after a reload; an intro kept
// offline and sent on reconnect says so and shows its forwardable text; the signal form says what 'Show my name'
// makes public; each confirmation says what happens next.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { contactsByEmail, type CuttableProxy, DEMO_SLUG, insertProject, marker, newVisitor, openPitchDialog, readThePage, startCuttableProxy } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { waitForEnhancement, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

const toasts = (page: Page) => page.locator("#pitch-toasts");

async function follow(page: Page, email: string) {
  await readThePage(page, e2e.app.dataDir);
  const dialog = await openPitchDialog(page, "Follow Updates");
  await dialog.getByLabel("Name", { exact: true }).fill("Fay Follower");
  await dialog.getByLabel("Email", { exact: true }).fill(email);
  await dialog.getByLabel("I agree to receive project updates by e-mail").check();
  await dialog.getByRole("button", { name: "Follow Updates" }).click();
  await dialog.waitFor({ state: "hidden" });
}

describe("Follow on this device", () => {
  it("reads 'Following' after following on the anonymous page, also after a reload, and only for that project", { timeout: 60_000 }, async () => {
    const project = await insertProject(e2e.app.dataDir, { title: "Harbor Follow", tiers: [{ label: "Angel", min: 5000, max: 25000 }] });
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, serviceWorkers: "block" });
    try {
      await page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(page);
      const hero = page.getByRole("main").getByRole("link", { name: "Follow Updates" });
      await hero.waitFor();
      await follow(page, `${marker("follow")}@example.com`);
      const toast = toasts(page).getByText("You're on the list—weekly Friday digest, unsub anytime.");
      await toast.waitFor();
      expect(await toast.textContent()).toContain("Your first digest comes on a Friday after the founders ship something.");
      await page.getByRole("main").getByRole("link", { name: "Following" }).waitFor();

      await page.reload();
      await waitForEnhancement(page);
      await page.getByRole("main").getByRole("link", { name: "Following" }).waitFor();
      expect(await page.getByRole("navigation", { name: "Quick actions" }).getByRole("link", { name: "Following" }).count()).toBe(1);
      expect(await page.getByRole("main").getByRole("link", { name: "Follow Updates" }).count()).toBe(0);

      // Another project on the same device is not followed.
      await page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
      await waitForEnhancement(page);
      await page.getByRole("main").getByRole("link", { name: "Follow Updates" }).first().waitFor();
      expect(await page.getByRole("main").getByRole("link", { name: "Following" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("reads 'Following' on the owner's React page too, after a reload", { timeout: 60_000 }, async () => {
    const email = uniqueEmail("follow-owner");
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Owner Follow" });
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForHydration(page);
      await follow(page, email);
      await page.getByRole("main").getByRole("link", { name: "Following" }).waitFor();
      await page.reload();
      await waitForHydration(page);
      await page.getByRole("main").getByRole("link", { name: "Following" }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe("the signal form", () => {
  it("keeps 'Show my name' on and says beside it what becomes public and what stays private; its toast says what happens next", { timeout: 60_000 }, async () => {
    const project = await insertProject(e2e.app.dataDir, { title: "Harbor Signal", tiers: [{ label: "Angel", min: 5000, max: 25000 }] });
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, serviceWorkers: "block" });
    try {
      await page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Signal Interest");
      const showName = dialog.getByRole("checkbox", { name: "Show my name on the Recognition Wall" });
      expect(await showName.isChecked()).toBe(true);
      const description = await showName.evaluate((input) =>
        (input.getAttribute("aria-describedby") ?? "")
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent ?? "")
          .join(" "),
      );
      expect(description).toContain("the public wall shows your name and the tier you chose");
      expect(description).toContain("Your e-mail always stays private");
      expect(description).toContain("so does your message unless you also tick the box below");

      await dialog.getByText("Angel").click();
      await dialog.getByLabel("Name", { exact: true }).fill("Sam Signal");
      await dialog.getByLabel("Email", { exact: true }).fill(`${marker("signal")}@example.com`);
      await dialog.getByRole("button", { name: "Signal Interest" }).click();
      const toast = toasts(page).getByText("Signal of interest recorded!");
      await toast.waitFor();
      expect(await toast.textContent()).toContain("The founders see it in their leads now and may follow up by e-mail.");
    } finally {
      await context.close();
    }
  });
});

describe("an intro sent offline", () => {
  let proxy: CuttableProxy;

  beforeAll(async () => {
    proxy = await startCuttableProxy(e2e.app.port);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it("says 'Your intro request was sent' and shows its forwardable text when the connection returns, with the dialog closed meanwhile", { timeout: 60_000 }, async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(`${proxy.url}/pitch/${DEMO_SLUG}`);
      await waitForEnhancement(page);
      await page.waitForFunction(() => document.documentElement.dataset.offlineReady === "true", undefined, { timeout: 15_000 });

      await context.setOffline(true);
      proxy.cut();
      const email = `${marker("offline-later")}@example.com`;
      const note = `Sent when back online ${marker("n")}`;
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Request Intro");
      await dialog.getByLabel("Name", { exact: true }).fill("Olga Offline");
      await dialog.getByLabel("Email", { exact: true }).fill(email);
      await dialog.getByLabel("Note", { exact: true }).fill(note);
      await dialog.getByRole("button", { name: "Request Intro" }).click();
      await dialog.getByRole("status").filter({ hasText: "will be sent when the connection returns" }).waitFor();
      // The visitor closes the dialog and reads on.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      proxy.restore();
      await context.setOffline(false);
      const reopened = page.getByRole("dialog", { name: "Request Intro" });
      const status = reopened.getByRole("status");
      await status.getByText("Your intro request was sent").waitFor({ timeout: 20_000 });
      expect(await status.textContent()).toContain("The founders see it in their leads and reply to you by e-mail");
      expect(await reopened.getByLabel("Your forwardable intro blurb").inputValue()).toContain(note);
      expect(await contactsByEmail(e2e.db, email)).toMatchObject([{ intent: "Intro", name: "Olga Offline", note }]);
    } finally {
      await context.close();
    }
  });
});
