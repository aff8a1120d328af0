import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { newClientContext, nextClientAddress, postAuthForm } from "./clients";
import { newestMailText, userIdByEmail, type TestDb } from "./test-db";

/** A test server as the sign-up helpers reach it: its address, and its database to read the new account back. */
type ServerWithDb = { url: string; db: TestDb };

/** An account a helper signed up and in: its id and e-mail, and its session as a Cookie request header. */
export type SignedInUser = { id: string; email: string; cookie: string };

let counter = 0;

/** A unique e-mail per call, so tests never share accounts. */
export function uniqueEmail(prefix = "founder"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** Creates an account through the /auth page, as a visitor would. */
export async function signUpThroughPage(page: Page, baseUrl: string, email: string, password = "secret123") {
  await page.goto(`${baseUrl}/auth?mode=signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Account created! You can now sign in.").waitFor();
}

/** Signs in through the /auth page (optionally with a return-to path) and waits for the redirect. */
export async function signInThroughPage(page: Page, baseUrl: string, email: string, password = "secret123", returnTo?: string) {
  await page.goto(`${baseUrl}/auth${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ""}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).last().click();
  await page.waitForURL((url) => url.pathname !== "/auth");
}

/**
 * Creates an account and signs it in the way a form post without JavaScript does (from its own client address),
 * for tests whose subject is not signing up; returns the session cookie as a Cookie request header.
 */
export async function signUpAndSignIn(baseUrl: string, email: string, password = "secret123"): Promise<string> {
  const address = nextClientAddress();
  const signUp = await postAuthForm(baseUrl, { intent: "signup", email, password }, { address });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const signIn = await postAuthForm(baseUrl, { intent: "signin", email, password }, { address });
  if (signIn.status !== 302) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
  return signIn.headers
    .getSetCookie()
    .filter((cookie) => cookie.includes("session_token"))
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A new account made with `signUpAndSignIn` on `server`, with its id read back from the server's database. */
export async function signedInUser(server: ServerWithDb, email: string, password = "secret123"): Promise<SignedInUser> {
  const cookie = await signUpAndSignIn(server.url, email, password);
  return { id: await userIdByEmail(server.db, email), email, cookie };
}

/** A browser context (its own client) signed in as a new account made with `signUpAndSignIn`, and that account. */
export async function signedInContext(
  browser: Browser,
  server: ServerWithDb,
  email: string,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; user: SignedInUser }> {
  const user = await signedInUser(server, email);
  const { context } = await newClientContext(browser, options);
  await context.addCookies(
    user.cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name!, value: value.join("="), url: server.url };
    }),
  );
  return { context, user };
}

/** The confirmation link in the text of the mail sent at sign-up (decision 83). */
export function confirmationLinkIn(text: string): string {
  const link = /https?:\/\/\S+\/auth\/confirm-email\?token=[A-Za-z0-9._%-]+/.exec(text)?.[0];
  if (!link) throw new Error(`no confirmation link in ${text}`);
  return link;
}

/** Presses 'Confirm my address' on the page a confirmation link opens, as a browser without JavaScript would. */
export async function confirmWithLink(link: string): Promise<void> {
  const url = new URL(link);
  const response = await fetch(`${url.origin}${url.pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url.origin, "x-forwarded-for": nextClientAddress() },
    body: new URLSearchParams({ intent: "confirm", token: url.searchParams.get("token") ?? "" }).toString(),
    redirect: "manual",
  });
  if (response.status !== 200) throw new Error(`confirming answered ${response.status}: ${await response.text()}`);
}

/** Confirms `email`'s address with the newest link the app queued for it, read from the app's outbox. */
export async function confirmFromOutbox(db: TestDb, email: string): Promise<void> {
  const mail = await newestMailText(db, "account-confirmation", email);
  if (!mail) throw new Error(`no confirmation mail for ${email}`);
  await confirmWithLink(confirmationLinkIn(mail));
}
