import type { Page } from "playwright-core";

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
