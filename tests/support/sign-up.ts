import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { newClientContext, nextClientAddress, postAuthForm } from "../e2e/support";

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

/** A browser context (its own client) signed in as a new account made with `signUpAndSignIn`. */
export async function signedInContext(browser: Browser, baseUrl: string, email: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const cookie = await signUpAndSignIn(baseUrl, email);
  const { context } = await newClientContext(browser, options);
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name!, value: value.join("="), url: baseUrl };
    }),
  );
  return context;
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
export async function confirmFromOutbox(db: { prepare(sql: string): { get(...values: unknown[]): unknown } }, email: string): Promise<void> {
  const mail = db.prepare("select text_body from mail_outbox where kind = 'account-confirmation' and recipient = ? order by created_at desc limit 1").get(email) as
    | { text_body: string }
    | undefined;
  if (!mail) throw new Error(`no confirmation mail for ${email}`);
  await confirmWithLink(confirmationLinkIn(mail.text_body));
}
