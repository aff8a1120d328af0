// The founder's week at a booth, on a phone, on a server without SMTP: an invitation is not "sent" when its mail
// only sits in the mail folder. The owner copies the link instead and hands it over; the invitee signs up from it
// with the address already filled in and lands signed in on the join button; the link opened again after joining
// lands on the project. Sign In from the home page returns to My Projects, and every section tab is in sight.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForToast } from "../support/founder-e2e";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { collectPageErrors, newClientContext, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

const SECTIONS = [
  { tab: "Details", path: "edit" },
  { tab: "Deck", path: "deck" },
  { tab: "QR codes", path: "qr-codes" },
  { tab: "Updates", path: "updates" },
  { tab: "Leads", path: "leads" },
  { tab: "Analytics", path: "analytics" },
  { tab: "Team", path: "team" },
];

let owner: BrowserContext;
let ownerPage: Page;
let projectId: string;

beforeAll(async () => {
  const ownerEmail = uniqueEmail("owner");
  const signedIn = await signedInContext(e2e.browser, e2e.app, ownerEmail, { viewport: PHONE, permissions: ["clipboard-read", "clipboard-write"] });

  owner = signedIn.context;

  const ownerId = signedIn.user.id;
  ({ id: projectId } = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Cold Chain" }));
  ownerPage = await owner.newPage();
}, 60_000);

afterAll(async () => {
  await owner?.close();
});

describe("a co-founder invited on a server that keeps its mail", () => {
  it("the owner copies the invite link; the invitee signs up from it, the address filled in, and joins", { timeout: 120_000 }, async () => {
    const errors = collectPageErrors(ownerPage);
    await ownerPage.goto(`${e2e.app.url}/project/${projectId}/team`);
    await waitForHydration(ownerPage);
    await ownerPage.getByRole("alert", { name: "E-mail is not sent" }).waitFor();

    const invitee = uniqueEmail("grace");
    await ownerPage.getByRole("textbox", { name: "E-mail" }).fill(invitee);
    await ownerPage.getByRole("radio", { name: /^Co-founder/ }).check();
    await ownerPage.getByRole("button", { name: "Send invitation" }).click();
    await waitForToast(ownerPage, `Invitation to ${invitee} kept on this server: copy the link and send it yourself`);
    expect(await ownerPage.locator("[data-sonner-toast]").filter({ hasText: "Invitation sent" }).count()).toBe(0);

    await ownerPage.getByRole("button", { name: "Copy invite link" }).click();
    await waitForToast(ownerPage, `Invite link for ${invitee} copied: send it by any messenger`);
    const link = await ownerPage.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${e2e.app.url}/team/join\\?token=[A-Za-z0-9_-]+$`));
    expect(await ownerPage.getByLabel(`Invite link for ${invitee}`).inputValue()).toBe(link);

    // The invitee's phone, signed out: the copied link opens the join page.
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto(link);
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Join Harbor Cold Chain" }).waitFor();
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("button", { name: "Create Account" }).waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe(invitee);
    await page.getByLabel("Password").fill("secret123");
    await page.getByRole("button", { name: "Create Account" }).click();

    // Signed in, on the join button: no Sign In form, no address typed a second time.
    await page.waitForURL((url) => url.pathname === "/team/join");
    const join = page.getByRole("button", { name: "Join the team" });
    await join.waitFor();
    await join.click();
    await page.waitForURL(`${e2e.app.url}/project/${projectId}/leads`);
    await waitForToast(page, "You joined the team");

    // The same link again, now used: the member lands on the project.
    await page.goto(link);
    await page.waitForURL(`${e2e.app.url}/project/${projectId}/leads`);
    await waitForToast(page, "You are on this team already");
    await context.close();
    expect(errors).toEqual([]);
  });

  it("the Sign In form from a team link has the invited address filled in", { timeout: 60_000 }, async () => {
    const invitee = uniqueEmail("sam");
    await signUpAndSignIn(e2e.app.url, invitee);
    await ownerPage.goto(`${e2e.app.url}/project/${projectId}/team`);
    await waitForHydration(ownerPage);
    await ownerPage.getByRole("textbox", { name: "E-mail" }).fill(invitee);
    await ownerPage.getByRole("button", { name: "Send invitation" }).click();
    await waitForToast(ownerPage, `Invitation to ${invitee} kept on this server`);
    const row = ownerPage.getByRole("listitem").filter({ hasText: invitee });
    await row.getByRole("button", { name: "Copy invite link" }).click();
    const field = ownerPage.getByLabel(`Invite link for ${invitee}`);
    await field.waitFor();
    const link = await field.inputValue();

    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto(link);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Sign In", exact: true }).last().waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe(invitee);
    await page.getByLabel("Password").fill("secret123");
    await page.getByRole("button", { name: "Sign In", exact: true }).last().click();
    await page.getByRole("button", { name: "Join the team" }).waitFor();
    await context.close();
  });
});

describe("signing in from the home page", () => {
  it("returns to My Projects", { timeout: 60_000 }, async () => {
    const email = uniqueEmail("founder");
    await signUpAndSignIn(e2e.app.url, email);
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${e2e.app.url}/`);
    await waitForHydration(page);
    await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("secret123");
    await page.getByRole("button", { name: "Sign In", exact: true }).last().click();
    await page.waitForURL(`${e2e.app.url}/my-projects`);
    await context.close();
  });
});

describe("the section tabs on a phone", () => {
  it("shows every section's tab inside a 390 px screen, on every section, with nothing to swipe sideways", { timeout: 90_000 }, async () => {
    for (const section of SECTIONS) {
      await ownerPage.goto(`${e2e.app.url}/project/${projectId}/${section.path}`);
      await waitForHydration(ownerPage);
      const nav = ownerPage.getByRole("navigation", { name: "Project sections" });
      expect(await nav.getByRole("link").allTextContents()).toEqual(SECTIONS.map((candidate) => candidate.tab));
      expect(await nav.locator('[aria-current="page"]').allTextContents()).toEqual([section.tab]);
      for (const tab of SECTIONS) {
        const box = await nav.getByRole("link", { name: tab.tab, exact: true }).boundingBox();
        expect(box, `${section.tab}: the ${tab.tab} tab`).not.toBeNull();
        expect(box!.x, `${section.tab}: the ${tab.tab} tab's left edge`).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, `${section.tab}: the ${tab.tab} tab's right edge`).toBeLessThanOrEqual(PHONE.width);
      }
      const overflow = await nav.evaluate((element) => ({ nav: element.scrollWidth - element.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth }));
      expect(overflow, `${section.tab}: sideways scroll`).toEqual({ nav: 0, page: 0 });
    }
  });
});
