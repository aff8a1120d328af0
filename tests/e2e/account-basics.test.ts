// Account basics, in Chromium with the test's own SMTP server: a new founder's first hour (Get Started,
// the Sign Up tab, the spec's message, My Projects' first step, a deep link that comes back after sign-in) and a
// forgotten password (the mailed link, the new password, every old session ended, the link dead a second time).
import type { ParsedMail } from "mailparser";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_RESET_SENT_MESSAGE } from "~/modules/auth/gateway.server";
import { RESET_LINK_INVALID_MESSAGE } from "~/modules/auth/auth-form";
import { axeViolations, formatViolations } from "../support/axe";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { signedInContext, signInThroughPage, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { cookieHeader, locationOf, newClientContext, nextClientAddress, postAuthForm, waitForHydration } from "../support/clients";
import { countRows } from "../support/test-db";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  return () => smtp.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <no-reply@pitchqr.test>" }) });

/** Waits until the worker has delivered a message to `address` with `subject`, the `count`-th such one. */
async function mailTo(address: string, subject: string, count = 1): Promise<ParsedMail> {
  const matching = () =>
    smtp.received.filter((mail) => {
      const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
      return to?.value[0]?.address === address && mail.subject === subject;
    });
  await expect.poll(() => matching().length, { timeout: 20_000, interval: 250 }).toBeGreaterThanOrEqual(count);
  return matching()[count - 1]!;
}

function resetLinkOf(mail: ParsedMail): string {
  const link = /(http:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9]+)/.exec(mail.text ?? "");
  if (!link) throw new Error(`no reset link in: ${mail.text}`);
  return link[1]!;
}

const heading1 = (page: Page) => page.getByRole("heading", { level: 1 });

function postForm(path: string, fields: Record<string, string>, address = nextClientAddress()) {
  return fetch(`${e2e.app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: e2e.app.url, "x-forwarded-for": address },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("a new founder's first hour", () => {
  it("Get Started → Sign Up tab → the spec's message → sign in → My Projects' first step → a project; a deep link comes back after sign-in", { timeout: 90_000 }, async () => {
    const email = uniqueEmail("first-hour");
    // bypassCSP lets the test inject axe-core; the app's policy itself is untouched.
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    try {
      await page.goto(e2e.app.url);
      await waitForHydration(page);
      await page.getByRole("link", { name: "Get Started" }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
      await expect.poll(() => heading1(page).textContent()).toBe("Create your account");
      expect(await page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");

      await waitForHydration(page);
      await page.getByLabel("Name").fill("Grace Hopper");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("compiler-1952");
      await page.getByRole("button", { name: "Create Account" }).click();
      // The mode returns to sign-in, the form is reset, and the message appears.
      await page.getByText("Account created! You can now sign in.").waitFor();
      expect(await page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
      expect(await page.getByLabel("Email").inputValue()).toBe("");

      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("compiler-1952");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${e2e.app.url}/my-projects`);
      await page.getByText("Successfully signed in!").waitFor();
      await expect.poll(() => heading1(page).textContent()).toBe("My Projects");
      await page.getByRole("heading", { name: "No projects yet" }).waitFor();
      await page.getByText("Create your first project to start accepting intros and signals").waitFor();
      const steps = page.getByRole("list", { name: "How it works" }).getByRole("listitem");
      expect(await steps.count()).toBe(3);
      expect(await steps.first().textContent()).toContain("Create your project");
      const violations = await axeViolations(page);
      expect(violations, formatViolations("My Projects, empty", violations)).toEqual([]);

      await page.getByRole("link", { name: "Create Project", exact: true }).click();
      await page.waitForURL(`${e2e.app.url}/project/create`);
      await waitForHydration(page);
      const title = `First hour ${Date.now().toString(36)}`;
      await page.getByLabel("Project Title", { exact: true }).fill(title);
      await page.getByLabel("One-Liner", { exact: true }).fill("Demo-day follow-ups that happen");
      await page.getByRole("button", { name: "Create Project" }).click();
      await page.waitForURL(/\/project\/[^/]+\/edit$/);
      const projectId = new URL(page.url()).pathname.split("/")[2]!;

      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Sign Out" }).click();
      await page.waitForURL(`${e2e.app.url}/`);

      // A deep link while signed out: sign in, and land where the founder was going.
      const leads = `/project/${projectId}/leads?status=new`;
      await page.goto(`${e2e.app.url}${leads}`);
      expect(page.url()).toBe(`${e2e.app.url}/auth?returnTo=${encodeURIComponent(leads)}`);
      await waitForHydration(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("compiler-1952");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${e2e.app.url}${leads}`);
      await expect.poll(() => heading1(page).textContent()).toBe(`Leads: ${title}`);
    } finally {
      await context.close();
    }
  });

  it("a signed-in founder's Get Started goes straight to My Projects", async () => {
    const { context } = await signedInContext(e2e.browser, e2e.app, uniqueEmail("signed-in"), { viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await page.goto(e2e.app.url);
      expect(await page.getByRole("link", { name: "Get Started" }).getAttribute("href")).toBe("/my-projects");
    } finally {
      await context.close();
    }
  });
});

describe("a forgotten password", () => {
  it("the mailed link sets a new password, ends the sessions signed in before, and fails a second time", { timeout: 90_000 }, async () => {
    const email = uniqueEmail("forgot");
    // Another device, signed in before the reset.
    const { context: other } = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP });
    const otherCookies = await cookieHeader(other);
    expect((await fetch(`${e2e.app.url}/dashboard`, { headers: { cookie: otherCookies }, redirect: "manual" })).status).toBe(200);

    const { context } = await newClientContext(e2e.browser, { viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.waitForURL(`${e2e.app.url}/auth/forgot-password`);
      await expect.poll(() => heading1(page).textContent()).toBe("Forgot your password?");
      await waitForHydration(page);
      await page.getByLabel("Email").fill(email.toUpperCase());
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.getByText(PASSWORD_RESET_SENT_MESSAGE).waitFor();

      const mail = await mailTo(email, "Reset your PitchQR password");
      expect(mail.text).toContain("The link works once, for 60 minutes.");
      const link = resetLinkOf(mail);
      expect(link.startsWith(`${e2e.app.url}/auth/reset-password?token=`)).toBe(true);

      await page.goto(link);
      await expect.poll(() => heading1(page).textContent()).toBe("Choose a new password");
      await waitForHydration(page);
      const violations = await axeViolations(page);
      expect(violations, formatViolations("reset password form", violations)).toEqual([]);
      // The spec's password rule, in the browser first.
      await page.getByLabel("New password").fill("12345");
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.getByText("Password must be at least 6 characters").waitFor();
      await page.getByLabel("New password").fill("night-before-demo");
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect.poll(() => heading1(page).textContent()).toBe("Password changed");
      await page.getByText("every device that was signed in is signed out").waitFor();

      // The other device's session is gone.
      const after = await fetch(`${e2e.app.url}/dashboard`, { headers: { cookie: otherCookies }, redirect: "manual" });
      expect(after.status).toBe(302);
      expect(locationOf(after, e2e.app.url).pathname).toBe("/auth");
      const otherPage = await other.newPage();
      await otherPage.goto(`${e2e.app.url}/dashboard`);
      expect(new URL(otherPage.url()).pathname).toBe("/auth");

      // The old password no longer works; the new one does.
      expect((await postAuthForm(e2e.app.url, { intent: "signin", email, password: "secret123" }, { address: nextClientAddress() })).status).toBe(401);
      await page.getByRole("link", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
      await signInThroughPage(page, e2e.app.url, email, "night-before-demo");
      await page.getByRole("button", { name: "Account menu" }).waitFor();

      // The link a second time: a clear message, no form, and nothing changes.
      const { context: again } = await newClientContext(e2e.browser, { viewport: PHONE });
      const second = await again.newPage();
      try {
        const response = await second.goto(link);
        expect(response?.status()).toBe(400);
        await second.getByText(RESET_LINK_INVALID_MESSAGE).waitFor();
        expect(await second.getByLabel("New password").count()).toBe(0);
        await second.getByRole("link", { name: "Send a new link" }).waitFor();
      } finally {
        await again.close();
      }
      const token = new URL(link).searchParams.get("token")!;
      const replay = await postForm("/auth/reset-password", { token, password: "someone-elses" });
      expect(replay.status).toBe(400);
      expect(await replay.text()).toContain(RESET_LINK_INVALID_MESSAGE);
      expect((await postAuthForm(e2e.app.url, { intent: "signin", email, password: "someone-elses" }, { address: nextClientAddress() })).status).toBe(401);
    } finally {
      await context.close();
      await other.close();
    }
  });

  it("answers an unknown address in the same words and mails nobody", async () => {
    const nobody = uniqueEmail("nobody");
    const response = await postForm("/auth/forgot-password", { email: nobody });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(PASSWORD_RESET_SENT_MESSAGE);
    // The mail is queued in the request's own work, so an empty outbox now is an empty outbox.
    expect(await countRows(e2e.db.selectFrom("mail_outbox").where("recipient", "=", nobody))).toBe(0);
  });

  it.each([
    ["a made-up token", "/auth/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAA"],
    ["a malformed token", "/auth/reset-password?token=%3Cscript%3E"],
    ["no token", "/auth/reset-password"],
  ])("shows %s a clear message and no form", async (_label, path) => {
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    try {
      const response = await page.goto(`${e2e.app.url}${path}`);
      expect(response?.status()).toBe(400);
      await page.getByText(RESET_LINK_INVALID_MESSAGE).waitFor();
      await page.getByText("Nothing was changed").waitFor();
      expect(await page.getByLabel("New password").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("refuses a flood for one address with Retry-After, from any client, after three mails", async () => {
    const email = uniqueEmail("flood");
    await postAuthForm(e2e.app.url, { intent: "signup", email, password: "secret123" }, { address: nextClientAddress() });
    for (let i = 0; i < 3; i += 1) expect((await postForm("/auth/forgot-password", { email })).status).toBe(200);
    const refused = await postForm("/auth/forgot-password", { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many reset requests for this address");
    expect(await countRows(e2e.db.selectFrom("mail_outbox").where("recipient", "=", email).where("kind", "=", "password-reset"))).toBe(3);
  });

  it("refuses a flood from one client across addresses with Retry-After", async () => {
    const address = nextClientAddress();
    for (let i = 0; i < 5; i += 1) expect((await postForm("/auth/forgot-password", { email: uniqueEmail("walk") }, address)).status).toBe(200);
    const refused = await postForm("/auth/forgot-password", { email: uniqueEmail("walk") }, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
