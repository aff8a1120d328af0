// The operator's public facts come from the environment: a server started with its own support e-mail, address,
// hours and legal dates shows them on /support, /privacy, /terms and the home page's Contact link, before and after
// hydration; a bad value stops the app with a message naming the variable.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startAppServer } from "../support/app-server";
import { DESKTOP } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, newClientContext, waitForHydration } from "../support/clients";

const OPERATOR = {
  SUPPORT_EMAIL: "help@harbour-ops.example",
  SUPPORT_ADDRESS: "1 Harbour Street, Leith EH6 6QP",
  SUPPORT_HOURS: "Weekdays 10:00–16:00 CET",
  PRIVACY_EFFECTIVE_DATE: "2026-03-01",
  TERMS_EFFECTIVE_DATE: "2026-02-15",
};
const AUTH_SECRET = "operator-settings-test-secret-0123456789abcdef";

const e2e = setUpAppInBrowser({ env: { ...OPERATOR, AUTH_SECRET } });

describe("operator settings from the environment", () => {
  it("shows the configured support e-mail, address and hours on /support, and the effective dates on /privacy and /terms", async () => {
    const { context } = await newClientContext(e2e.browser, { viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${e2e.app.url}/support`);
      await waitForHydration(page);
      const main = page.getByRole("main");
      const email = main.getByRole("link", { name: OPERATOR.SUPPORT_EMAIL }).first();
      expect(await email.getAttribute("href")).toBe(`mailto:${OPERATOR.SUPPORT_EMAIL}`);
      await main.getByText(OPERATOR.SUPPORT_HOURS, { exact: true }).waitFor();
      await main.getByText(OPERATOR.SUPPORT_ADDRESS, { exact: true }).waitFor();
      const text = await main.innerText();
      expect(text).not.toContain("support@pitchqr.app");
      expect(text).not.toContain("9AM–6PM PST");
      expect(text).not.toContain("San Francisco");

      await page.goto(`${e2e.app.url}/privacy`);
      await waitForHydration(page);
      await page.getByText("Effective date: March 1, 2026", { exact: true }).waitFor();

      await page.goto(`${e2e.app.url}/terms`);
      await waitForHydration(page);
      await page.getByText("Effective date: February 15, 2026", { exact: true }).waitFor();

      await page.goto(e2e.app.url);
      await waitForHydration(page);
      expect(await page.locator("footer").getByRole("link", { name: "Contact" }).getAttribute("href")).toBe(`mailto:${OPERATOR.SUPPORT_EMAIL}`);
      // Hydration found the same text the server wrote.
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("sends the browser the operator's public facts and nothing else of the configuration", async () => {
    const html = await (await fetch(`${e2e.app.url}/support`)).text();
    expect(html).toContain(OPERATOR.SUPPORT_ADDRESS);
    expect(html).not.toContain(AUTH_SECRET);
    expect(html).not.toContain(e2e.app.dataDir);
  });

  it("refuses to start with a support e-mail that is not one, or a date that is not YYYY-MM-DD, naming the variable", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-e2e-bad-config-"));
    try {
      await expect(startAppServer({ dataDir, env: { SUPPORT_EMAIL: "help-at-example" } })).rejects.toThrow(/SUPPORT_EMAIL must be an e-mail address/);
      await expect(startAppServer({ dataDir, env: { TERMS_EFFECTIVE_DATE: "2026-02-30" } })).rejects.toThrow(/TERMS_EFFECTIVE_DATE must be a date written YYYY-MM-DD/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
