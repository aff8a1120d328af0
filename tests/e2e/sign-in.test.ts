// Signing in and out, the account menu, coming back to the page that asked for sign-in, and the refusal of
// redirects and form posts that come from other sites.
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { signInThroughPage, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import {
  cookieHeader,
  locationOf,
  newClientContext,
  nextClientAddress,
  postAuthForm,
  waitForHydration,
} from "../support/clients";

const e2e = setUpAppInBrowser();

/** A fresh account, created the way a browser without JavaScript would (its own client address). */
async function createAccount(prefix = "founder", password = "secret123"): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(prefix);
  const response = await postAuthForm(e2e.app.url, { intent: "signup", email, password }, { address: nextClientAddress() });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("Account created! You can now sign in.");
  return { email, password };
}

async function withPage<T>(options: Parameters<typeof newClientContext>[1], body: (page: Page, context: BrowserContext) => Promise<T>) {
  const { context } = await newClientContext(e2e.browser, options);
  try {
    return await body(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
}

const submitButton = (page: Page) => page.getByRole("button", { name: "Sign In", exact: true });

describe("Sign in", () => {
  it("a wrong password shows an error and stays on /auth", async () => {
    const account = await createAccount();
    await withPage({ viewport: PHONE }, async (page) => {
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      await fillSignIn(page, account.email, "not-the-password");
      await submitButton(page).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect((await alert.textContent())?.trim()).toMatch(/invalid email or password/i);
      expect(new URL(page.url()).pathname).toBe("/auth");
      expect(await page.getByLabel("Email").inputValue()).toBe(account.email);
      expect(await page.getByRole("link", { name: "Sign In" }).isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "Account menu" }).count()).toBe(0);
    });
  });

  it("an unknown e-mail gets the same error as a wrong password", async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      await fillSignIn(page, uniqueEmail("nobody"), "whatever123");
      await submitButton(page).click();
      await page.getByRole("alert").waitFor();
      expect((await page.getByRole("alert").textContent())?.trim()).toMatch(/invalid email or password/i);
      expect(new URL(page.url()).pathname).toBe("/auth");
    });
  });

  it.each([
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ])("on a %s, success goes home with 'Successfully signed in!' and the account menu", async (_label, viewport) => {
    const account = await createAccount("zoe");
    await withPage({ viewport }, async (page) => {
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      await fillSignIn(page, account.email, account.password);
      await submitButton(page).click();
      await page.waitForURL(`${e2e.app.url}/`);
      await page.getByText("Successfully signed in!").waitFor();
      await page.getByRole("heading", { name: "Turn scans into meetings" }).waitFor();

      const avatar = page.getByRole("button", { name: "Account menu" });
      await expect(avatar.textContent()).resolves.toBe("Z");
      expect(await page.getByRole("link", { name: "Sign In", exact: true }).count()).toBe(0);

      await avatar.click();
      const menu = page.getByRole("menu");
      await menu.waitFor();
      const items = (await menu.getByRole("menuitem").allTextContents()).map((text) => text.trim());
      expect(items).toEqual(["My Projects", "My Signals", "Sign Out"]);
      expect(await menu.getByText(account.email).isVisible()).toBe(true);
      expect(await menu.getByRole("menuitem", { name: "My Projects" }).getAttribute("href")).toBe("/my-projects");
      expect(await menu.getByRole("menuitem", { name: "My Signals" }).getAttribute("href")).toBe("/dashboard");

      await menu.getByRole("menuitem", { name: "My Signals" }).click();
      await page.waitForURL(`${e2e.app.url}/dashboard`);
      await page.getByRole("heading", { level: 1, name: "Dashboard", exact: true }).waitFor();

      // The toast is one-shot: it does not come back on the next page load.
      await page.goto(e2e.app.url);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Account menu" }).waitFor();
      expect(await page.getByText("Successfully signed in!").count()).toBe(0);
    });
  });

  it("the button reads 'Signing in...' (and is disabled) while the request is in flight", async () => {
    const account = await createAccount();
    await withPage({ viewport: PHONE }, async (page) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let sawSubmission!: () => void;
      const submitted = new Promise<void>((resolve) => (sawSubmission = resolve));
      await page.route(
        (url) => url.pathname === "/auth.data",
        async (route) => {
          if (route.request().method() === "POST") {
            sawSubmission();
            await held;
          }
          await route.continue();
        },
      );
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      await fillSignIn(page, account.email, account.password);
      await submitButton(page).click();
      await submitted;
      const busy = page.getByRole("button", { name: "Signing in..." });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      release();
      await page.waitForURL(`${e2e.app.url}/`);
      await page.getByRole("button", { name: "Account menu" }).waitFor();
    });
  });

  it("visiting /auth while signed in goes to /", async () => {
    const account = await createAccount();
    await withPage({ viewport: DESKTOP }, async (page) => {
      await signInThroughPage(page, e2e.app.url, account.email, account.password);
      const response = await page.goto(`${e2e.app.url}/auth`);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(`${e2e.app.url}/`);
      await page.getByRole("heading", { name: "Turn scans into meetings" }).waitFor();
      // Also when the visit asks for the Sign Up tab.
      await page.goto(`${e2e.app.url}/auth?mode=signup`);
      expect(page.url()).toBe(`${e2e.app.url}/`);
    });
  });
});

describe("Coming back after sign-in", () => {
  it.each([
    ["/my-projects", "/my-projects", "My Projects"],
    ["/dashboard", "/dashboard", "Dashboard"],
    ["/project/create", "/project/create", "Create Project"],
    // Someone else's (here: no such) project: back to it, which then sends the founder on to My Projects.
    ["/project/abc/edit", "/my-projects", "My Projects"],
    ["/project/abc/analytics", "/my-projects", "My Projects"],
  ])("signed out, %s sends to /auth with returnTo, and signing in comes back to it", async (path, landing, heading) => {
    const plain = await fetch(`${e2e.app.url}${path}`, { redirect: "manual" });
    expect(plain.status).toBe(302);
    const location = locationOf(plain, e2e.app.url);
    expect(location.origin).toBe(e2e.app.url);
    expect(`${location.pathname}${location.search}`).toBe(`/auth?returnTo=${encodeURIComponent(path)}`);

    const account = await createAccount();
    await withPage({ viewport: PHONE }, async (page) => {
      await page.goto(`${e2e.app.url}${path}`);
      expect(page.url()).toBe(`${e2e.app.url}/auth?returnTo=${encodeURIComponent(path)}`);
      await page.getByRole("heading", { name: "Welcome back" }).waitFor();
      await waitForHydration(page);
      await fillSignIn(page, account.email, account.password);
      const requested: string[] = [];
      page.on("request", (request) => requested.push(new URL(request.url()).pathname));
      await submitButton(page).click();
      await page.waitForURL(`${e2e.app.url}${landing}`);
      expect(requested.some((requestedPath) => requestedPath === path || requestedPath === `${path}.data`)).toBe(true);
      await page.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor();
      if (landing !== path) await page.getByText("Project not found or access denied").first().waitFor();
    });
  });

  it("keeps the query string of the page asked for", async () => {
    const response = await fetch(`${e2e.app.url}/dashboard?tab=signals&page=2`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = locationOf(response, e2e.app.url);
    expect(location.pathname).toBe("/auth");
    expect(location.searchParams.get("returnTo")).toBe("/dashboard?tab=signals&page=2");
  });

  it.each(["https://elsewhere.example", "//elsewhere.example", "/\\elsewhere.example", "javascript:alert(1)", "/..//elsewhere.example/login", "/%2e%2e//elsewhere.example/login"])(
    "refuses to send the browser to %s after sign-in: it goes to the app's own home",
    async (returnTo) => {
      const account = await createAccount();
      await withPage({ viewport: DESKTOP }, async (page) => {
        const requestedHosts = new Set<string>();
        page.on("request", (request) => requestedHosts.add(new URL(request.url()).host));
        await signInThroughPage(page, e2e.app.url, account.email, account.password, returnTo);
        expect(page.url()).toBe(`${e2e.app.url}/`);
        await page.getByRole("button", { name: "Account menu" }).waitFor();
        expect([...requestedHosts]).toEqual([new URL(e2e.app.url).host]);
      });

      // A hand-made form post with the same value is not redirected elsewhere either.
      const direct = await postAuthForm(
        e2e.app.url,
        { intent: "signin", email: account.email, password: account.password, returnTo },
        { address: nextClientAddress() },
      );
      expect(direct.status).toBe(302);
      expect(direct.headers.get("location")).toBe("/");
    },
  );
});

describe("Sign out", () => {
  it("the avatar menu's Sign Out goes home signed out, and the old session cookie stops working", async () => {
    const account = await createAccount();
    await withPage({ viewport: PHONE }, async (page, context) => {
      await signInThroughPage(page, e2e.app.url, account.email, account.password, "/dashboard");
      expect(page.url()).toBe(`${e2e.app.url}/dashboard`);

      const oldCookies = await cookieHeader(context);
      expect(oldCookies).toContain("better-auth.session_token=");
      const before = await fetch(`${e2e.app.url}/dashboard`, { headers: { cookie: oldCookies }, redirect: "manual" });
      expect(before.status).toBe(200);

      await waitForHydration(page);
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Sign Out" }).click();
      await page.waitForURL(`${e2e.app.url}/`);
      await page.getByRole("link", { name: "Sign In", exact: true }).waitFor();
      expect(await page.getByRole("button", { name: "Account menu" }).count()).toBe(0);
      expect(await cookieHeader(context)).not.toContain("better-auth.session_token=");

      const after = await fetch(`${e2e.app.url}/dashboard`, { headers: { cookie: oldCookies }, redirect: "manual" });
      expect(after.status).toBe(302);
      const location = locationOf(after, e2e.app.url);
      expect(`${location.pathname}${location.search}`).toBe("/auth?returnTo=%2Fdashboard");

      await page.goto(`${e2e.app.url}/my-projects`);
      expect(page.url()).toBe(`${e2e.app.url}/auth?returnTo=%2Fmy-projects`);
    });
  });
});

describe("Cross-site requests", () => {
  it("a sign-up posted from another site is refused with 403 and creates no account", async () => {
    const email = uniqueEmail("forged");
    const address = nextClientAddress();
    const forged = await postAuthForm(e2e.app.url, { intent: "signup", email, password: "secret123" }, { address, origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);
    expect(await forged.text()).not.toContain("Account created");

    const signIn = await postAuthForm(e2e.app.url, { intent: "signin", email, password: "secret123" }, { address });
    expect(signIn.status).toBe(401);
    expect(signIn.headers.getSetCookie().some((cookie) => cookie.startsWith("better-auth.session_token="))).toBe(false);
  });

  it.each([
    ["Origin: https://evil.example", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { origin: "", headers: { "sec-fetch-site": "cross-site" } }],
  ])("a sign-in posted with %s is refused with 403 and sets no session", async (_label, options) => {
    const account = await createAccount();
    const { origin, headers } = options as { origin: string; headers?: Record<string, string> };
    const response = await fetch(`${e2e.app.url}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": nextClientAddress(),
        ...(origin ? { origin } : {}),
        ...headers,
      },
      body: new URLSearchParams({ intent: "signin", email: account.email, password: account.password }).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("a sign-out posted from another site is refused and the session stays valid", async () => {
    const account = await createAccount();
    await withPage({ viewport: DESKTOP }, async (page, context) => {
      await signInThroughPage(page, e2e.app.url, account.email, account.password);
      const cookies = await cookieHeader(context);
      const forged = await fetch(`${e2e.app.url}/auth/sign-out`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: cookies, origin: "https://evil.example" },
      });
      expect(forged.status).toBe(403);
      const still = await fetch(`${e2e.app.url}/dashboard`, { headers: { cookie: cookies }, redirect: "manual" });
      expect(still.status).toBe(200);
      await page.reload();
      await page.getByRole("button", { name: "Account menu" }).waitFor();
    });
  });
});
