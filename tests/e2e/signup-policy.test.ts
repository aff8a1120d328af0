// The operator's SIGNUP setting in Chromium: `invite` (an account only through a founder's invitation
// link, once) and `closed` (only existing founders). One data directory: a founder signs up while sign-up is open,
// then the app is restarted with each setting, as an operator would.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITATION_ENDED_MESSAGE, INVITATION_REQUIRED_MESSAGE, SIGNUP_CLOSED_MESSAGE, TEAM_INVITATION_ADDRESS_MESSAGE } from "~/modules/auth/invitations.server";
import { startAppServer, type AppServer } from "../support/app-server";
import { DESKTOP, PHONE, releaseBrowser, sharedTestBrowser } from "../support/chromium.js";
import { founderPost } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { countRows, newestMailText, openTestDb, userIdByEmail, type TestDb } from "../support/test-db";
import { signInThroughPage, signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { cookieHeader, newClientContext, nextClientAddress, postAuthForm, showServerLogsOnFailure, waitForHydration } from "../support/clients";

let app: AppServer | undefined;
let browser: Browser;
const founder = { email: uniqueEmail("operator-founder"), password: "secret123" };

async function restartWith(signup: "open" | "invite" | "closed") {
  const previous = app;
  await previous?.stop();
  app = await startAppServer({ env: { SIGNUP: signup }, ...(previous ? { dataDir: previous.dataDir, port: previous.port } : {}) });
}

const url = () => app!.url;
/** Runs `read` on a fresh typed connection to the running server's database (the server is restarted between blocks). */
async function readDb<T>(read: (db: TestDb) => Promise<T>): Promise<T> {
  const db = openTestDb(app!);
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}
const userCount = (email: string) => readDb((db) => countRows(db.selectFrom("users").where("email", "=", email)));

beforeAll(async () => {
  [, browser] = await Promise.all([restartWith("open"), sharedTestBrowser()]);
  await signUpAndSignIn(url(), founder.email, founder.password);
}, 120_000);
afterAll(async () => {
  await releaseBrowser(browser);
  await app?.stop();
});
showServerLogsOnFailure(() => [app]);

async function withPage<T>(viewport: typeof PHONE, body: (page: Page) => Promise<T>): Promise<T> {
  const { context } = await newClientContext(browser, { viewport });
  try {
    return await body(await context.newPage());
  } finally {
    await context.close();
  }
}

describe("SIGNUP=invite", () => {
  beforeAll(() => restartWith("invite"), 120_000);

  it("without an invitation the Sign Up tab says how to get in, and the server refuses the sign-up", async () => {
    await withPage(PHONE, async (page) => {
      await page.goto(`${url()}/auth?mode=signup`);
      await page.getByText(INVITATION_REQUIRED_MESSAGE).waitFor();
      expect(await page.getByRole("button", { name: "Create Account" }).count()).toBe(0);
    });
    const email = uniqueEmail("uninvited");
    const refused = await postAuthForm(url(), { intent: "signup", email, password: "secret123" }, { address: nextClientAddress() });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(INVITATION_REQUIRED_MESSAGE);
    expect(await userCount(email)).toBe(0);
  });

  it("a founder's invitation link from My Projects makes one account, once", { timeout: 90_000 }, async () => {
    const invitationUrl = await withPage(PHONE, async (page) => {
      await signInThroughPage(page, url(), founder.email, founder.password, "/my-projects");
      await waitForHydration(page);
      const card = page.getByRole("region", { name: "Invite a founder" });
      await card.getByRole("button", { name: "Create invitation link" }).click();
      const link = card.getByRole("textbox", { name: "Invitation link" });
      await link.waitFor();
      return link.inputValue();
    });
    expect(invitationUrl).toMatch(new RegExp(`^${url()}/auth\\?mode=signup&invitation=[A-Za-z0-9_-]{43}$`));
    // Only its hash is kept.
    const stored = JSON.stringify(await readDb((db) => db.selectFrom("signup_invitations").selectAll().execute()));
    expect(stored).not.toContain(new URL(invitationUrl).searchParams.get("invitation"));

    const invited = uniqueEmail("invited");
    await withPage(PHONE, async (page) => {
      await page.goto(invitationUrl);
      await page.getByText("You have an invitation. Create your account below.").waitFor();
      await waitForHydration(page);
      await page.getByLabel("Email").fill(invited);
      await page.getByLabel("Password").fill("welcome-aboard");
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByText("Account created! You can now sign in.").waitFor();
      await page.getByLabel("Email").fill(invited);
      await page.getByLabel("Password").fill("welcome-aboard");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${url()}/`);
      await page.getByRole("button", { name: "Account menu" }).waitFor();
    });
    expect(await userCount(invited)).toBe(1);

    // The same link again: it says so, shows no form, and the server refuses it.
    const second = uniqueEmail("second");
    await withPage(DESKTOP, async (page) => {
      await page.goto(invitationUrl);
      await page.getByText(INVITATION_ENDED_MESSAGE).waitFor();
      expect(await page.getByRole("button", { name: "Create Account" }).count()).toBe(0);
    });
    const token = new URL(invitationUrl).searchParams.get("invitation")!;
    const replay = await postAuthForm(url(), { intent: "signup", email: second, password: "secret123", invitation: token }, { address: nextClientAddress() });
    expect(replay.status).toBe(403);
    expect(await replay.text()).toContain(INVITATION_ENDED_MESSAGE);
    expect(await userCount(second)).toBe(0);
  });
});

/** The join link in the team invitation queued for `email` (no SMTP server here: read from the outbox). */
async function teamJoinPathFor(email: string): Promise<string> {
  const text = await readDb((db) => newestMailText(db, "team-invitation", email));
  const path = /\/team\/join\?token=[A-Za-z0-9_-]+/.exec(text ?? "")?.[0];
  if (!path) throw new Error(`no team invitation queued for ${email}`);
  return path;
}

describe("SIGNUP=invite with a team invitation", () => {
  beforeAll(() => restartWith("invite"), 120_000);

  it("the invitee creates their account from the join link, with the invited address only, then joins", { timeout: 120_000 }, async () => {
    const ownerCookie = await withPage(DESKTOP, async (page) => {
      await signInThroughPage(page, url(), founder.email, founder.password, "/my-projects");
      return cookieHeader(page.context());
    });
    const ownerId = await readDb((db) => userIdByEmail(db, founder.email));
    const project = await insertProject(app!.dataDir, { ownerId, title: "Harbor Cold Chain", tiers: [{ label: "Angel", min: 5000, max: 25000 }] });
    const invited = uniqueEmail("team-invitee");
    const sent = await founderPost(app!, ownerCookie, `/project/${project.id}/team`, { intent: "invite", email: invited, role: "staff" });
    expect(sent.status).toBe(200);
    const joinPath = await teamJoinPathFor(invited);
    const token = new URL(joinPath, url()).searchParams.get("token")!;

    // Another address with the same link is refused by the server, and no account is made.
    const stranger = uniqueEmail("team-stranger");
    const refused = await postAuthForm(url(), { intent: "signup", email: stranger, password: "secret123", invitation: token }, { address: nextClientAddress() });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(TEAM_INVITATION_ADDRESS_MESSAGE);
    expect(await userCount(stranger)).toBe(0);

    await withPage(PHONE, async (page) => {
      await page.goto(`${url()}${joinPath}`);
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByText(`You are invited to join Harbor Cold Chain. Create your account with ${invited}, then join the team.`).waitFor();
      await waitForHydration(page);
      expect(await page.getByLabel("Email").inputValue()).toBe(invited);
      await page.getByLabel("Password").fill("welcome-aboard");
      await page.getByRole("button", { name: "Create Account" }).click();
      // Signed in by the sign-up itself, on the join button (decision 85).
      await page.waitForURL((address) => address.pathname === "/team/join");
      await waitForHydration(page);
      await page.getByRole("button", { name: "Join the team" }).click();
      await page.waitForURL(new RegExp(`/project/${project.id}/leads$`));
    });
    expect(await userCount(invited)).toBe(1);
    const role = await readDb(async (db) =>
      db.selectFrom("project_members").select("role").where("project_id", "=", project.id).where("user_id", "=", await userIdByEmail(db, invited)).executeTakeFirst(),
    );
    expect(role?.role).toBe("staff");
  });
});

describe("SIGNUP=closed", () => {
  beforeAll(() => restartWith("closed"), 120_000);

  it("the Sign Up tab says sign-up is closed, the server refuses it, and an existing founder still signs in", async () => {
    await withPage(PHONE, async (page) => {
      await page.goto(`${url()}/auth?mode=signup`);
      await page.getByText(SIGNUP_CLOSED_MESSAGE).waitFor();
      expect(await page.getByRole("button", { name: "Create Account" }).count()).toBe(0);
      expect(await page.getByLabel("Password").count()).toBe(0);
    });
    const email = uniqueEmail("closed");
    const refused = await postAuthForm(url(), { intent: "signup", email, password: "secret123" }, { address: nextClientAddress() });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(SIGNUP_CLOSED_MESSAGE);
    expect(await userCount(email)).toBe(0);

    await withPage(DESKTOP, async (page) => {
      await signInThroughPage(page, url(), founder.email, founder.password, "/dashboard");
      expect(page.url()).toBe(`${url()}/dashboard`);
      // No invitations either: that card is for SIGNUP=invite only.
      await page.goto(`${url()}/my-projects`);
      await page.getByRole("heading", { level: 1, name: "My Projects" }).waitFor();
      expect(await page.getByRole("region", { name: "Invite a founder" }).count()).toBe(0);
    });
  });
});
