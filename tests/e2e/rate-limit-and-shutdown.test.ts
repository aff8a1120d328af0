// Sign-in attempts are limited per client address (10 a minute), the limit cannot be dodged with a forged
// X-Forwarded-For when no proxy is trusted, it survives a restart, and the server stops gracefully on SIGTERM.
import net from "node:net";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { PHONE } from "../support/chromium.js";
import { uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { newClientContext, nextClientAddress, postAuthForm, showServerLogsOnFailure, waitForHydration } from "../support/clients";

const TOO_MANY = "Too many requests. Please try again later.";
const SIGN_IN_LIMIT = 10;

const e2e = setUpAppInBrowser();
/** Servers a test starts for itself; stopped by the test, or here if it failed half-way. */
const extraServers = new Set<AppServer>();

afterAll(async () => {
  await Promise.all([...extraServers].map((server) => server.stop()));
});

showServerLogsOnFailure(() => [...extraServers]);

async function createAccount(server: AppServer, password = "secret123"): Promise<{ email: string; password: string }> {
  const email = uniqueEmail("limited");
  const response = await postAuthForm(server.url, { intent: "signup", email, password }, { address: nextClientAddress() });
  expect(response.status).toBe(200);
  return { email, password };
}

async function startExtraServer(options: Parameters<typeof startAppServer>[0]): Promise<AppServer> {
  const server = await startAppServer(options);
  extraServers.add(server);
  return server;
}

async function stopExtraServer(server: AppServer): Promise<number | null> {
  const code = await server.stop();
  extraServers.delete(server);
  return code;
}

/** Submits the sign-in form and waits for the server's answer to that submission. */
async function submitSignIn(page: Page, email: string, password: string): Promise<number> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/auth")),
    page.getByRole("button", { name: "Sign In", exact: true }).click(),
  ]);
  return response.status();
}

describe("Sign-in rate limit", () => {
  it(`the ${SIGN_IN_LIMIT + 1}th attempt within a minute from one address shows '${TOO_MANY}'; another address is unaffected`, async () => {
    const account = await createAccount(e2e.app);

    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      for (let attempt = 1; attempt <= SIGN_IN_LIMIT; attempt += 1) {
        expect(await submitSignIn(page, account.email, `wrong-password-${attempt}`), `attempt ${attempt}`).toBe(401);
        await page.getByRole("alert").filter({ hasText: /invalid email or password/i }).waitFor();
      }
      // Even the right password is turned away now.
      expect(await submitSignIn(page, account.email, account.password)).toBe(429);
      await page.getByRole("alert").filter({ hasText: TOO_MANY }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/auth");
      expect(await page.getByRole("button", { name: "Account menu" }).count()).toBe(0);
    } finally {
      await context.close();
    }

    const { context: other } = await newClientContext(e2e.browser, { viewport: PHONE });
    try {
      const page = await other.newPage();
      await page.goto(`${e2e.app.url}/auth`);
      await waitForHydration(page);
      expect(await submitSignIn(page, account.email, "wrong-again")).toBe(401);
      await page.getByRole("alert").filter({ hasText: /invalid email or password/i }).waitFor();
      await submitSignIn(page, account.email, account.password);
      await page.waitForURL(`${e2e.app.url}/`);
      await page.getByText("Successfully signed in!").waitFor();
      await page.getByRole("button", { name: "Account menu" }).waitFor();
    } finally {
      await other.close();
    }
  });

  it("without a trusted proxy, a forged X-Forwarded-For does not escape the limit, which also survives a restart", async () => {
    const env = { TRUST_PROXY: "false" };
    let server = await startExtraServer({ env });
    const { dataDir } = server;
    const account = await createAccount(server);

    const attempt = (target: AppServer, n: number, password = `wrong-${n}`) =>
      postAuthForm(target.url, { intent: "signin", email: account.email, password }, { address: `203.0.113.${n}` });

    const statuses: number[] = [];
    for (let n = 1; n <= SIGN_IN_LIMIT + 1; n += 1) statuses.push((await attempt(server, n)).status);
    expect(statuses).toEqual([...Array<number>(SIGN_IN_LIMIT).fill(401), 429]);
    const refused = await attempt(server, 99, account.password);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(TOO_MANY);

    expect(await stopExtraServer(server)).toBe(0);
    server = await startExtraServer({ env, dataDir });
    expect(server.dataDir).toBe(dataDir);
    const afterRestart = await attempt(server, 100, account.password);
    expect(afterRestart.status).toBe(429);
    expect(afterRestart.headers.getSetCookie().some((cookie) => cookie.startsWith("better-auth.session_token="))).toBe(false);
    expect(await afterRestart.text()).toContain(TOO_MANY);
    expect(await stopExtraServer(server)).toBe(0);
  });
});

describe("Shutdown", () => {
  it("SIGTERM stops the server promptly with exit code 0 and a 'stopped' log line", async () => {
    const server = await startExtraServer({});
    // Leave a keep-alive connection open, as a browser would.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    const started = Date.now();
    expect(await stopExtraServer(server)).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);

    const messages = server.logs.map((line) => {
      try {
        return String((JSON.parse(line) as { msg?: unknown }).msg ?? "");
      } catch {
        return line;
      }
    });
    expect(messages.some((message) => message.includes("shutting down"))).toBe(true);
    expect(messages.at(-1)).toContain("stopped");

    // Nothing listens on the port any more.
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
