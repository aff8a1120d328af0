// Accessibility of every page a signed-out visitor can reach, at phone and desktop sizes, with each dialog open
// and each toast shown: axe-core (WCAG 2.0/2.1 A and AA, best practices) must find nothing. A failure lists each
// rule, its impact, and every offending element's selector with axe's explanation. Adding a page is one line.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { axeViolations, formatViolations, waitForPageReady, type PageState } from "../support/axe";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { createUnsubscribeTokens } from "~/modules/contacts/unsubscribe-token.server";
import { visitorAction } from "../support/leads-e2e";
import { DEMO_SLUG, marker, openPitchDialog } from "../support/pitch-e2e";
import { setUpAppInBrowser } from "../support/e2e-app";
import { newClientContext } from "../support/clients";

const e2e = setUpAppInBrowser();
let unsubscribeLink: string;

beforeAll(async () => {
  // The link a follower's e-mail carries, signed with the server's own generated secret.
  const email = `${marker("a11y-follower")}@example.com`;
  await visitorAction(e2e.app, DEMO_SLUG, null, { intent: "subscribe", name: "Lin Follower", email, consent: "on" });
  const { id: contactId } = await e2e.db.selectFrom("contacts").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const tokens = createUnsubscribeTokens(fs.readFileSync(path.join(e2e.app.dataDir, "auth-secret"), "utf8").trim());
  unsubscribeLink = `/unsubscribe?token=${encodeURIComponent(tokens.sign(contactId))}`;
});

const pitch = (query = "") => `/pitch/${DEMO_SLUG}${query}`;

/** A visitor follows the demo project from its dialog: the page's own toast (no React on this page) shows. */
async function followDemo(page: Page, consent: boolean): Promise<void> {
  const dialog = await openPitchDialog(page, "Follow Updates");
  await dialog.getByLabel("Name", { exact: true }).fill("Grace Follower");
  await dialog.getByLabel("Email", { exact: true }).fill(`${marker("a11y")}@example.com`);
  if (consent) await dialog.getByLabel("I agree to receive project updates by e-mail").check();
  await dialog.getByRole("button", { name: "Follow Updates" }).click();
  if (consent) await page.getByText("You're on the list").waitFor();
  else await dialog.getByText("Please agree to receive updates.").first().waitFor();
}

/** A visitor requests an intro: the dialog turns into the forwardable blurb with Copy and 'Open in email'. */
async function requestIntro(page: Page): Promise<void> {
  const dialog = await openPitchDialog(page, "Request Intro");
  await dialog.getByLabel("Name", { exact: true }).fill("Ada Marsh");
  await dialog.getByLabel("Email", { exact: true }).fill(`${marker("a11y")}@example.com`);
  await dialog.getByLabel("Note", { exact: true }).fill("I run procurement for two district health offices");
  await dialog.getByRole("button", { name: "Request Intro" }).click();
  await dialog.getByText("Intro request sent!").waitFor();
}

const PAGES: PageState[] = [
  { name: "home", path: () => "/" },
  { name: "sign in", path: () => "/auth" },
  { name: "sign up", path: () => "/auth?mode=signup" },
  {
    name: "sign in with errors",
    path: () => "/auth",
    act: async (page) => {
      await page.getByRole("button", { name: "Sign In", exact: true }).last().click();
      await page.locator("[aria-invalid=true]").first().waitFor();
    },
  },
  { name: "forgot password", path: () => "/auth/forgot-password" },
  {
    name: "forgot password, link sent",
    path: () => "/auth/forgot-password",
    act: async (page) => {
      await page.getByLabel("Email").fill(`${marker("a11y-reset")}@example.com`);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.getByRole("status").waitFor();
    },
  },
  { name: "reset password, link that does not work", path: () => "/auth/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAA" },
  { name: "confirm e-mail, a link to confirm", path: () => "/auth/confirm-email?token=aaaa.bbbb.cccc" },
  { name: "confirm e-mail, link that does not work", path: () => "/auth/confirm-email?token=not-a-token" },
  { name: "pitch page", path: () => pitch() },
  { name: "pitch page, intro dialog", path: () => pitch("?dialog=intro") },
  { name: "pitch page, subscribe dialog", path: () => pitch("?dialog=subscribe") },
  { name: "pitch page, signal dialog", path: () => pitch("?dialog=signal") },
  { name: "pitch page, phone dialog", path: () => pitch("?dialog=phone") },
  { name: "pitch page, subscribe dialog with an error", path: () => pitch(), act: (page) => followDemo(page, false) },
  { name: "pitch page, subscribed toast", path: () => pitch(), act: (page) => followDemo(page, true) },
  { name: "pitch page, intro request sent", path: () => pitch(), act: requestIntro },
  { name: "saved list, empty", path: () => "/saved" },
  {
    name: "saved list, a pitch and an address error",
    path: () => pitch(),
    act: async (page) => {
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("button", { name: "Saved", exact: true }).waitFor();
      await page.goto(`${e2e.app.url}/saved`);
      await page.getByRole("listitem").first().waitFor();
      await page.getByLabel("Email", { exact: true }).fill("not-an-address");
      await page.getByRole("button", { name: "E-mail me this list" }).click();
      await page.getByRole("alert").filter({ hasText: "valid email" }).waitFor();
    },
  },
  { name: "pledge success", path: () => "/pledge-success" },
  { name: "unsubscribe", path: () => "/unsubscribe" },
  {
    name: "unsubscribe, invalid e-mail toast",
    path: () => "/unsubscribe",
    act: async (page) => {
      await page.getByLabel("Email").fill("not-an-address");
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await page.locator("[data-sonner-toast]").first().waitFor();
    },
  },
  { name: "unsubscribe link, asking to confirm", path: () => unsubscribeLink },
  { name: "unsubscribe, bad link", path: () => "/unsubscribe?token=not-a-token" },
  { name: "unsubscribe, bad confirmation link", path: () => "/unsubscribe?confirm=not-a-token" },
  { name: "saved list, bad confirmation link", path: () => "/list-mail/confirm?token=not-a-token" },
  { name: "team invitation, link that does not work", path: () => "/team/join?token=not-a-token" },
  { name: "saved list, bad stop link", path: () => "/list-mail/stop?token=not-a-token" },
  { name: "privacy", path: () => "/privacy" },
  { name: "terms", path: () => "/terms" },
  { name: "support", path: () => "/support" },
  { name: "app icon generator", path: () => "/app-icon-generator" },
  { name: "404", path: () => "/no-such-page" },
];

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("signed out on a %s: axe finds no violations", (label, viewport) => {
  it.each(PAGES.map((state) => [state.name, state] as const))("%s", async (_name, state) => {
    // bypassCSP lets the test inject axe-core; the app's policy itself is untouched.
    const { context } = await newClientContext(e2e.browser, { viewport, bypassCSP: true });
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}${state.path()}`);
      await waitForPageReady(page);
      await state.act?.(page);
      const violations = await axeViolations(page);
      expect(violations, formatViolations(`${state.name} (${label}, ${state.path()})`, violations)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
