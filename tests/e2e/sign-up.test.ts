// Creating an account on /auth: the form's checks (in the browser, and on the server for visitors without
// JavaScript), the success state, and a second registration of the same e-mail.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PHONE } from "../support/chromium.js";
import { signInThroughPage, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { newClientContext, nextClientAddress, postAuthForm, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

const invalidCases = [
  { label: "a malformed e-mail", name: "", email: "not-an-email", password: "secret123", message: "Invalid email address" },
  { label: "a short password", name: "", email: "short@example.com", password: "12345", message: "Password must be at least 6 characters" },
  {
    label: "a 10,000-character name",
    name: "N".repeat(10_000),
    email: "long-name@example.com",
    password: "secret123",
    message: "Name must be less than 100 characters",
  },
];

async function fillSignUp(page: Page, values: { name: string; email: string; password: string }) {
  await page.getByLabel("Name").fill(values.name);
  await page.getByLabel("Email").fill(values.email);
  await page.getByLabel("Password").fill(values.password);
}

describe("Sign up form checks", () => {
  it.each(invalidCases)("rejects $label in the e2e.browser, without asking the server", async ({ name, email, password, message }) => {
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      await waitForHydration(page);
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() !== "GET") posts.push(request.url());
      });
      await fillSignUp(page, { name, email, password });
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByText(message, { exact: true }).waitFor();
      expect(posts).toEqual([]);
      expect(new URL(page.url()).pathname).toBe("/auth");
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Create your account");
    } finally {
      await context.close();
    }
  });

  it.each(invalidCases)("rejects $label on the server when JavaScript is off", async ({ name, email, password, message }) => {
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      await fillSignUp(page, { name, email, password });
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/auth"),
        page.getByRole("button", { name: "Create Account" }).click(),
      ]);
      expect(response.status()).toBe(400);
      await page.getByText(message, { exact: true }).waitFor();
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Create your account");
      // What the visitor typed is kept (but never the password).
      if (!name) expect(await page.getByLabel("Email").inputValue()).toBe(email);
      expect(await page.getByLabel("Password").inputValue()).toBe("");
    } finally {
      await context.close();
    }
  });

  it("the server refuses the same bad values when posted directly (status 400, no account)", async () => {
    const address = nextClientAddress();
    for (const { name, email, password, message } of invalidCases) {
      const response = await postAuthForm(e2e.app.url, { intent: "signup", name, email, password }, { address });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(message);
    }
  });
});

describe("Sign up", () => {
  it("creates the account, then shows 'Account created! You can now sign in.' on an empty Sign In tab", async () => {
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    const email = uniqueEmail("ada");
    try {
      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      await waitForHydration(page);
      await fillSignUp(page, { name: "Ada Lovelace", email, password: "analytical-engine" });
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByText("Account created! You can now sign in.").waitFor();

      expect(await page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
      expect(await page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("false");
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Welcome back");
      expect(await page.getByRole("button", { name: "Sign In", exact: true }).isVisible()).toBe(true);
      expect(await page.getByLabel("Name").count()).toBe(0);
      expect(await page.getByLabel("Email").inputValue()).toBe("");
      expect(await page.getByLabel("Password").inputValue()).toBe("");
      expect(await page.getByRole("alert").count()).toBe(0);

      // The new account works.
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("analytical-engine");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${e2e.app.url}/`);
      await expect(page.getByRole("button", { name: "Account menu" }).textContent()).resolves.toBe("A");
    } finally {
      await context.close();
    }
  });

  it("creates the account without JavaScript too", async () => {
    const { context } = await newClientContext(e2e.browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail("nojs");
    try {
      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      await fillSignUp(page, { name: "", email, password: "secret123" });
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByText("Account created! You can now sign in.").waitFor();
      expect(await page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
      expect(await page.getByLabel("Email").inputValue()).toBe("");
    } finally {
      await context.close();
    }
    const signIn = await postAuthForm(e2e.app.url, { intent: "signin", email, password: "secret123" }, { address: nextClientAddress() });
    expect(signIn.status).toBe(302);
  });

  it("registering the same e-mail again says so, and keeps the one account and its first password", async () => {
    const email = uniqueEmail("twice");
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      await waitForHydration(page);
      await fillSignUp(page, { name: "", email, password: "first-password" });
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByText("Account created! You can now sign in.").waitFor();

      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      await waitForHydration(page);
      await fillSignUp(page, { name: "", email, password: "second-password" });
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toBe("User already exists. Use another email.");
      expect(await page.getByText("Account created! You can now sign in.").count()).toBe(0);
    } finally {
      await context.close();
    }

    // The second password was not stored: it is refused, and the first one still signs in.
    const address = nextClientAddress();
    const withSecond = await postAuthForm(e2e.app.url, { intent: "signin", email, password: "second-password" }, { address });
    expect(withSecond.status).toBe(401);
    const withFirst = await postAuthForm(e2e.app.url, { intent: "signin", email, password: "first-password" }, { address });
    expect(withFirst.status).toBe(302);
    expect(withFirst.headers.getSetCookie().some((cookie) => cookie.startsWith("better-auth.session_token="))).toBe(true);

    // And a browser signs in with it.
    const { context: second } = await newClientContext(e2e.browser);
    const page2 = await second.newPage();
    try {
      await signInThroughPage(page2, e2e.app.url, email, "first-password");
      expect(page2.url()).toBe(`${e2e.app.url}/`);
      await page2.getByRole("button", { name: "Account menu" }).waitFor();
    } finally {
      await second.close();
    }
  });
});
