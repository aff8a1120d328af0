// The whole team on one project. The owner invites a co-founder and a staff member from the Team
// page on a phone; the test reads the invitations from its own SMTP server; each invitee opens the link, signs in
// with the invited address and joins; each sees only what their role allows, and the server refuses the rest.
import type { ParsedMail } from "mailparser";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForToast } from "../support/founder-e2e";
import { founderPost, visitorAction } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { cookieHeader, locationOf, waitForHydration } from "../support/clients";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
});

// Webhooks to this machine are allowed, so a member can add one that points at nothing in particular.
const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <pitch@pitchqr.test>", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }) });

function recipientOf(mail: ParsedMail): string {
  const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
  return to?.value[0]?.address ?? "";
}

/** The join link of the invitation mailed to `address`. */
async function invitationLinkFor(address: string): Promise<string> {
  await expect.poll(() => smtp.received.some((mail) => recipientOf(mail) === address), { timeout: 15_000 }).toBe(true);
  const mail = smtp.received.find((candidate) => recipientOf(candidate) === address)!;
  const link = /https?:\/\/\S+\/team\/join\?token=[A-Za-z0-9_%-]+/.exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`no join link in: ${mail.text}`);
  return link;
}

async function invite(page: Page, email: string, role: "Co-founder" | "Staff") {
  await page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await page.getByRole("radio", { name: new RegExp(`^${role}`) }).check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  await waitForToast(page, `Invitation sent to ${email}`);
}

/** The invitee's own phone: signed in as the invited address, opening the link from the mail, joining. */
async function join(email: string, link: string): Promise<{ context: BrowserContext; page: Page }> {
  const { context } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
  const page = await context.newPage();
  await page.goto(link.replace(/^https?:\/\/[^/]+/, e2e.app.url));
  await waitForHydration(page);
  await page.getByRole("button", { name: "Join the team" }).click();
  await page.waitForURL(/\/leads$/);
  await waitForToast(page, "You joined the team");
  return { context, page };
}

async function tabsOf(page: Page): Promise<string[]> {
  return page.getByRole("navigation", { name: "Project sections" }).getByRole("link").allTextContents();
}

describe("a team of three on one project", () => {
  it("invites a co-founder and a staff member by e-mail; each joins and sees only what their role allows", { timeout: 120_000 }, async () => {
    const ownerEmail = uniqueEmail("owner");
    const { context: owner, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, ownerEmail, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Cold Chain", tiers: [{ label: "Angel", min: 5000, max: 25000 }] });
    await visitorAction(e2e.app, project.slug, null, { intent: "intro", name: "Ada Lovelace", email: "ada@example.com", note: "Let's talk" });

    // The owner, one-handed at 390 px: the Team tab, two invitations.
    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${e2e.app.url}/project/${project.id}/team`);
    await waitForHydration(ownerPage);
    expect(await tabsOf(ownerPage)).toEqual(["Details", "Deck", "QR codes", "Updates", "Leads", "Analytics", "Team"]);
    const cofounderEmail = uniqueEmail("cofounder");
    const staffEmail = uniqueEmail("staff");
    await invite(ownerPage, cofounderEmail, "Co-founder");
    await invite(ownerPage, staffEmail, "Staff");
    await ownerPage.getByText("Waiting for an answer").waitFor();
    await ownerPage.getByRole("listitem").filter({ hasText: staffEmail }).getByRole("button", { name: "Withdraw" }).waitFor();
    expect(await ownerPage.getByRole("textbox", { name: "E-mail" }).inputValue()).toBe("");

    const cofounder = await join(cofounderEmail, await invitationLinkFor(cofounderEmail));
    expect(await tabsOf(cofounder.page)).toEqual(["Details", "Deck", "QR codes", "Updates", "Leads", "Analytics", "Team"]);
    await cofounder.page.getByRole("link", { name: "Download vCards" }).waitFor();
    await cofounder.page.goto(`${e2e.app.url}/my-projects`);
    await cofounder.page.getByText("Your role: Co-founder").waitFor();

    const staffLink = await invitationLinkFor(staffEmail);
    // The link works for the invited address only: the co-founder's phone is refused, and nothing is granted.
    await cofounder.page.goto(staffLink.replace(/^https?:\/\/[^/]+/, e2e.app.url));
    await cofounder.page.getByText("This invitation is for another e-mail address.").waitFor();
    expect(await cofounder.page.getByRole("button", { name: "Join the team" }).count()).toBe(0);

    const staff = await join(staffEmail, staffLink);
    expect(await tabsOf(staff.page)).toEqual(["Deck", "QR codes", "Updates", "Leads", "Analytics", "Team"]);
    expect(await staff.page.getByRole("link", { name: "Download vCards" }).count()).toBe(0);
    expect(await staff.page.getByRole("link", { name: "Follow-up template" }).count()).toBe(0);
    // Staff triage: the lead is theirs to mark, and the owner sees who did it.
    const card = staff.page.getByRole("listitem").filter({ has: staff.page.getByRole("heading", { name: "Ada Lovelace" }) });
    await card.getByLabel("Status", { exact: true }).selectOption("contacted");
    await card.getByRole("button", { name: "Save" }).click();
    await waitForToast(staff.page, "Ada Lovelace: saved");
    await card.getByText("You marked Contacted").waitFor();
    // A page the role does not open sends the member back with the reason.
    await staff.page.goto(`${e2e.app.url}/project/${project.id}/edit`);
    await staff.page.waitForURL(/\/my-projects$/);
    await waitForToast(staff.page, "Your role on this project (Staff) does not allow this.");

    // The server refuses what the role does not allow, whatever the page offers: export, edit, team.
    const staffCookie = (await staff.context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
    const csv = await fetch(`${e2e.app.url}/project/${project.id}/contacts.csv`, { headers: { cookie: staffCookie } });
    expect(csv.status).toBe(403);
    const invited = await founderPost(e2e.app, staffCookie, `/project/${project.id}/team`, { intent: "invite", email: "friend@example.com", role: "staff" });
    expect(invited.status).toBe(403);
    const stranger = await signUpAndSignIn(e2e.app.url, uniqueEmail("stranger"));
    const strangerCsv = await fetch(`${e2e.app.url}/project/${project.id}/contacts.csv`, { headers: { cookie: stranger } });
    expect(strangerCsv.status).toBe(404);

    await ownerPage.goto(`${e2e.app.url}/project/${project.id}/leads`);
    await waitForHydration(ownerPage);
    await ownerPage.getByText(`${staffEmail} marked Contacted`).waitFor();
    await ownerPage.goto(`${e2e.app.url}/project/${project.id}/team`);
    await waitForHydration(ownerPage);
    const members = await ownerPage.getByRole("listitem", { name: /, (Owner|Co-founder|Staff)$/ }).evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")));
    expect(members).toEqual([expect.stringMatching(/, Owner$/), `${cofounderEmail}, Co-founder`, `${staffEmail}, Staff`]);

    await Promise.all([owner.close(), cofounder.context.close(), staff.context.close()]);
  });
});

describe("what a removed member set up", () => {
  it("the Team page says who added each webhook and booth link; after a removal the owner keeps or deletes each", { timeout: 120_000 }, async () => {
    const ownerEmail = uniqueEmail("owner");
    const { context: owner, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, ownerEmail, { viewport: PHONE });
    const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Cold Chain", tiers: [{ label: "Angel", min: 5000, max: 25000 }] });

    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${e2e.app.url}/project/${project.id}/team`);
    await waitForHydration(ownerPage);
    const anaEmail = uniqueEmail("ana");
    await invite(ownerPage, anaEmail, "Co-founder");
    const ana = await join(anaEmail, await invitationLinkFor(anaEmail));

    // Ana sets up a webhook and a booth link, as her pages' forms post them.
    const anaCookie = await cookieHeader(ana.context);
    const webhook = await founderPost(e2e.app, anaCookie, `/project/${project.id}/leads/settings`, { intent: "add-webhook", url: "https://127.0.0.1:9/ana-hook" });
    expect(webhook.status).toBe(200);
    const booth = await founderPost(e2e.app, anaCookie, `/project/${project.id}/edit`, { intent: "create-booth-link", days: "1", code: "" });
    expect(booth.status).toBe(200);

    await ownerPage.reload();
    await waitForHydration(ownerPage);
    const setUp = ownerPage.getByRole("region", { name: "Set up for this project" });
    await setUp.getByRole("listitem", { name: `Webhook, added by ${anaEmail}` }).getByText("https://127.0.0.1:9/ana-hook").waitFor();
    await setUp.getByRole("listitem", { name: `Booth link, added by ${anaEmail}` }).waitFor();

    ownerPage.once("dialog", (dialog) => void dialog.accept());
    await ownerPage.getByRole("listitem", { name: `${anaEmail}, Co-founder` }).getByRole("button", { name: "Remove" }).click();
    await waitForToast(ownerPage, "Removed from the team");
    const leftovers = ownerPage.getByRole("region", { name: `What ${anaEmail} set up` });
    await leftovers.getByText("so these are off").waitFor();
    expect(await leftovers.getByRole("listitem").evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")))).toEqual(["Webhook", "Booth link"]);
    expect(await setUp.getByRole("listitem").count()).toBe(0);

    await leftovers.getByRole("listitem", { name: "Webhook" }).getByRole("button", { name: "Keep" }).click();
    await waitForToast(ownerPage, "Kept: it works again, and is yours now");
    await setUp.getByRole("listitem", { name: `Webhook, added by ${ownerEmail}` }).waitFor();
    await leftovers.getByRole("listitem", { name: "Booth link" }).getByRole("button", { name: "Delete" }).click();
    await waitForToast(ownerPage, "Deleted");
    await leftovers.waitFor({ state: "detached" });
    expect(await setUp.getByRole("listitem").count()).toBe(1);

    // Ana is off the team and decides nothing, whatever she posts: she is sent to My Projects, the webhook stays.
    const { id: webhookId } = await e2e.db.selectFrom("webhook_endpoints").select("id").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    const refused = await founderPost(e2e.app, anaCookie, `/project/${project.id}/team`, { intent: "leftover", kind: "webhook", itemId: webhookId, decision: "delete" });
    expect(refused.status).toBe(302);
    expect(locationOf(refused, e2e.app.url).pathname).toBe("/my-projects");
    await ownerPage.reload();
    await setUp.getByRole("listitem", { name: `Webhook, added by ${ownerEmail}` }).waitFor();
    await Promise.all([owner.close(), ana.context.close()]);
  });
});
