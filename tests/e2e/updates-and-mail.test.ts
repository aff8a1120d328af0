// E-mail as visitors and founders get it, against the built app delivering to a real SMTP server: the welcome and
// signal confirmation with their one-click unsubscribe links, the founder's alerts, and a project update posted in
// the browser, previewed and sent now, that shows on the pitch page and in the activity feed.
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { waitForToast } from "../support/founder-e2e";
import { contactsByEmail, insertProject, marker, newVisitor, openPitchDialog, postFunction, readThePage } from "../support/pitch-e2e";
import { confirmFromOutbox, signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { setUpAppInBrowser } from "../support/e2e-app";
import { countRows, userIdByEmail, withWritableDb } from "../support/test-db";
import { newClientContext, waitForEnhancement, waitForHydration } from "../support/clients";

const TITLE = "Lantern Grid";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let founderEmail: string;
let project: { id: string; slug: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <no-reply@pitchqr.test>" }) });

beforeAll(async () => {
  founderEmail = uniqueEmail("lantern");
  const { context } = await newClientContext(e2e.browser, { viewport: DESKTOP });
  try {
    await signUpThroughPage(await context.newPage(), e2e.app.url, founderEmail);
  } finally {
    await context.close();
  }
  // Its address confirmed (decision 83), so the founder's alerts go out to it.
  await confirmFromOutbox(e2e.db, founderEmail);
  project = await insertProject(e2e.app.dataDir, {
    title: TITLE,
    tiers: [
      { label: "Angel", min: 5_000, max: 25_000 },
      { label: "Seed", min: 25_000, max: null },
    ],
  });
  await withWritableDb(e2e.app, async (writable) =>
    writable.updateTable("projects").set({ owner_id: await userIdByEmail(writable, founderEmail) }).where("id", "=", project.id).execute(),
  );
});

/** Waits until the worker has delivered a message to `address` matching `subject`. */
async function mailTo(address: string, subject: string | RegExp): Promise<ParsedMail> {
  const matches = (mail: ParsedMail) => {
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    const subjectMatches = typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject ?? "");
    return to?.value[0]?.address === address && subjectMatches;
  };
  await expect.poll(() => smtp.received.some(matches), { timeout: 20_000, interval: 250 }).toBe(true);
  return smtp.received.find(matches)!;
}

/** The e-mail's unsubscribe link (in its text) and its List-Unsubscribe URL (for RFC 8058 one-click POSTs). */
function unsubscribeLinksOf(mail: ParsedMail): { page: string; oneClick: string } {
  const header = mail.headerLines.find((line) => line.key === "list-unsubscribe")?.line ?? "";
  const oneClick = /<([^>]+)>/.exec(header)?.[1] ?? "";
  expect(oneClick.startsWith(`${e2e.app.url}/unsubscribe/one-click?token=`)).toBe(true);
  expect(mail.headerLines.find((line) => line.key === "list-unsubscribe-post")?.line).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  const page = oneClick.replace("/unsubscribe/one-click?", "/unsubscribe?");
  expect(mail.text).toContain(page);
  return { page, oneClick };
}

describe("e-mail to visitors", () => {
  it("welcomes a follower, whose unsubscribe link asks first and unsubscribes with its button; a tampered link changes nothing", async () => {
    const email = `${marker("follow")}@example.com`;
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Follow Updates");
      await dialog.getByLabel("Name", { exact: true }).fill("Grace Lin");
      await dialog.getByLabel("Email", { exact: true }).fill(email);
      await dialog.getByLabel("I agree to receive project updates by e-mail").check();
      await dialog.getByRole("button", { name: "Follow Updates" }).click();
      await page.getByText("You're on the list—weekly Friday digest, unsub anytime.").waitFor();

      const welcome = await mailTo(email, `You're following ${TITLE}`);
      expect(welcome.from?.value[0]).toMatchObject({ name: "PitchQR", address: "no-reply@pitchqr.test" });
      expect(welcome.text).toContain("Hi Grace Lin,");
      expect(welcome.text).toContain("you get one digest on Friday");
      const link = unsubscribeLinksOf(welcome).page;

      const tampered = link.replace(/token=./, (match) => `${match.slice(0, -1)}${match.endsWith("A") ? "B" : "A"}`);
      const refused = await page.goto(tampered);
      expect(refused?.status()).toBe(400);
      await page.getByRole("alert").filter({ hasText: "Invalid unsubscribe link" }).waitFor();
      await page.getByText("Nothing was changed.").waitFor();
      expect((await contactsByEmail(e2e.db, email)).map((contact) => contact.subscribed)).toEqual([true]);

      const followers = async () => (await e2e.db.selectFrom("project_stats").select("subscribers").where("project_id", "=", project.id).executeTakeFirstOrThrow()).subscribers;
      const followersBefore = await followers();
      // A mail scanner prefetching the link, then the person opening it: nothing changes until the button.
      const prefetched = await fetch(link);
      expect(prefetched.status).toBe(200);
      const opened = await page.goto(link);
      expect(opened?.status()).toBe(200);
      await waitForHydration(page);
      await page.getByRole("heading", { name: "Unsubscribe" }).waitFor();
      await page.getByText(`Stop e-mails about ${TITLE} to this address?`).waitFor();
      expect(await page.getByRole("button").filter({ hasText: "Unsubscribe" }).count()).toBe(1);
      expect((await contactsByEmail(e2e.db, email)).map((contact) => contact.subscribed)).toEqual([true]);
      expect(await followers()).toBe(followersBefore);

      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await page.getByRole("heading", { name: "You've been unsubscribed" }).waitFor();
      await page.getByRole("main").getByText(`You will no longer receive e-mails about ${TITLE}.`).waitFor();
      expect((await contactsByEmail(e2e.db, email)).map((contact) => contact.subscribed)).toEqual([false]);
      expect(await followers()).toBe(followersBefore - 1);
    } finally {
      await context.close();
    }
  });

  it("a typed address on /unsubscribe changes nothing until the link mailed to it is opened and confirmed, once", async () => {
    const email = `${marker("typed")}@example.com`;
    const subscribed = await postFunction(e2e.app.url, "subscribe-updates", { projectId: project.id, contact: { name: "Lin Ma", email }, consent: true });
    expect(subscribed.status).toBe(200);
    const subscribedNow = async () => (await contactsByEmail(e2e.db, email)).map((contact) => contact.subscribed);
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      // Someone else types the address: the follower stays subscribed.
      await page.goto(`${e2e.app.url}/unsubscribe`);
      await waitForHydration(page);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("main").getByRole("button", { name: "Unsubscribe" }).click();
      await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
      expect(await subscribedNow()).toEqual([true]);

      const confirmation = await mailTo(email, "Confirm: stop e-mails from PitchQR");
      expect(confirmation.text).toContain(TITLE);
      expect(confirmation.headers.has("list-unsubscribe")).toBe(false);
      const link = /(http\S+\/unsubscribe\?confirm=[A-Za-z0-9_-]+)/.exec(confirmation.text ?? "")?.[1];
      expect(link).toBeDefined();

      // A mail scanner prefetching it, then its owner opening it: nothing changes until the button.
      expect((await fetch(link!)).status).toBe(200);
      await page.goto(link!);
      await waitForHydration(page);
      await page.getByText(`Stop all e-mails from PitchQR to ${email}?`).waitFor();
      expect(await subscribedNow()).toEqual([true]);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await page.getByRole("heading", { name: "You've been unsubscribed" }).waitFor();
      await page.getByRole("main").getByText(`You will no longer receive e-mails about ${TITLE}.`).waitFor();
      expect(await subscribedNow()).toEqual([false]);

      // The link works once.
      const again = await page.goto(link!);
      expect(again?.status()).toBe(400);
      await page.getByRole("alert").filter({ hasText: "Confirmation link already used" }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("confirms a signal to the visitor and alerts the founder; the RFC 8058 one-click POST works", async () => {
    const email = `${marker("signal")}@example.com`;
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(page);
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Signal Interest");
      await dialog.locator("label", { hasText: "Angel" }).first().click();
      await dialog.getByLabel("Name", { exact: true }).fill("Omar Haddad");
      await dialog.getByLabel("Email", { exact: true }).fill(email);
      await dialog.getByLabel("Message", { exact: true }).fill("Loved the pilot numbers");
      await dialog.getByRole("button", { name: "Signal Interest" }).click();
      await page.getByText("Signal of interest recorded!").waitFor();
    } finally {
      await context.close();
    }

    const confirmation = await mailTo(email, `Your interest in ${TITLE} is recorded`);
    expect(confirmation.text).toContain("Interest level: Angel ($5k-$25k)");
    expect(confirmation.text).toContain("This signal is non-binding");
    // 'Show my name' stayed on and 'Also show my message on the wall' off: the e-mail says exactly that.
    expect(confirmation.text).toContain("On the Recognition Wall: your name, 'Omar Haddad', as a supporter, with your tier, 'Angel'.");
    expect(confirmation.text).toContain("Not on the wall: your message (only the founders read it) and your e-mail address.");
    const alert = await mailTo(founderEmail, `New interest signal for ${TITLE}: Angel`);
    expect(alert.text).toContain(`Omar Haddad signaled non-binding interest in ${TITLE}.`);
    expect(alert.replyTo?.value[0]?.address).toBe(email);

    // The backer follows the project too; the confirmation's one-click link then stops all of this project's e-mail.
    const follow = await postFunction(e2e.app.url, "subscribe-updates", { projectId: project.id, contact: { name: "Omar Haddad", email }, consent: true });
    expect(follow.status).toBe(200);
    expect((await contactsByEmail(e2e.db, email)).map((contact) => [contact.intent, contact.subscribed])).toEqual([["Supporter", true]]);

    // What a mail provider does with List-Unsubscribe-Post: a POST from its own servers, another origin, no cookies.
    const { oneClick } = unsubscribeLinksOf(confirmation);
    const response = await fetch(oneClick, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.provider.example" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("You've been unsubscribed.");
    expect((await contactsByEmail(e2e.db, email)).map((contact) => contact.subscribed)).toEqual([false]);
    const forged = await fetch(oneClick.replace(/token=./, "token=x"), { method: "POST", body: "List-Unsubscribe=One-Click" });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Invalid unsubscribe link");
    // Opened in a browser, the header's link leads to the page.
    const opened = await fetch(oneClick, { redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(oneClick.replace(e2e.app.url, "").replace("/one-click", ""));
    // Anything else from another origin is still refused.
    const form = await fetch(`${e2e.app.url}/unsubscribe`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: `email=${encodeURIComponent(email)}`,
    });
    expect(form.status).toBe(403);
  });

  it("sends the founder each intro request with the forwardable blurb", async () => {
    const email = `${marker("intro")}@example.com`;
    const response = await postFunction(e2e.app.url, "submit-intro", {
      projectId: project.id,
      contact: { name: "Ada Marsh", email, linkedinUrl: null },
      note: "I run procurement for two district health offices",
      roleTags: ["Operator"],
    });
    expect(response.status).toBe(200);
    const { blurb } = (await response.json()) as { blurb: string };
    const alert = await mailTo(founderEmail, `New intro request for ${TITLE}: Ada Marsh`);
    for (const line of blurb.split("\n").filter(Boolean)) expect(alert.text).toContain(`> ${line}`);
    expect(alert.replyTo?.value[0]?.address).toBe(email);
  });
});

describe("project updates", () => {
  it("posts an update in the project's Updates section: refused when empty or too long, previewed and sent now, then on the pitch page (Latest update) and in the feed", async () => {
    const { context } = await newClientContext(e2e.browser, { viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await signInThroughPage(page, e2e.app.url, founderEmail, "secret123", `/project/${project.id}/updates`);
      await waitForHydration(page);
      const form = page.getByRole("form", { name: "Post an update" });
      const body = form.getByLabel("What shipped?");
      await form.getByRole("button", { name: "Post Update" }).click();
      await form.getByText("Please describe what you shipped").waitFor();
      await body.fill("x".repeat(501));
      await form.getByRole("button", { name: "Post Update" }).click();
      await form.getByText("Update must be less than 500 characters").waitFor();
      expect(await countRows(e2e.db.selectFrom("project_updates").where("project_id", "=", project.id))).toBe(0);

      const text = `Shipped remote alerts to ${marker("clinic")} clinics`;
      await body.fill(text);
      await form.getByRole("button", { name: "Post Update" }).click();
      await waitForToast(page, "Update posted");
      const recent = page.getByRole("list", { name: "Recent updates, newest first" });
      await recent.getByText(text).waitFor();
      await recent.getByText("In Friday's digest").waitFor();
      expect(await body.inputValue()).toBe("");
      const row = await e2e.db
        .selectFrom("project_updates")
        .innerJoin("projects", "projects.id", "project_updates.project_id")
        .select(["project_updates.body", "projects.last_shipped_at"])
        .where("project_updates.project_id", "=", project.id)
        .executeTakeFirst();
      expect(row).toMatchObject({ body: text });

      // Preview the followers' e-mail, then send it now instead of on Friday (decision 65).
      const item = recent.getByRole("listitem").filter({ hasText: text });
      await item.getByText("Preview e-mail").click();
      await item.getByText(`Subject: ${TITLE}: what shipped this week`).waitFor();
      const preview = item.frameLocator("iframe");
      await preview.getByText(text).waitFor();
      await preview.getByText("Unsubscribe", { exact: true }).waitFor();
      const followers = await countRows(e2e.db.selectFrom("contacts").where("project_id", "=", project.id).where("subscribed", "=", true));
      await item.getByRole("button", { name: "Send now" }).click();
      await waitForToast(page, `Update sent to ${followers} follower${followers === 1 ? "" : "s"}`);
      await item.getByText("Sent to followers").waitFor();
      expect(await item.getByRole("button", { name: "Send now" }).count()).toBe(0);
      const sent = await e2e.db.selectFrom("project_updates").select(["digest_slot", "created_at"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
      expect(sent.digest_slot).toMatch(/^now:/);

      const visitor = await newVisitor(e2e.browser, { viewport: PHONE });
      try {
        await visitor.page.goto(`${e2e.app.url}/pitch/${project.slug}`);
        const stats = visitor.page.getByRole("region", { name: "Stats" });
        await stats.getByText("Last shipped").waitFor();
        expect(await stats.locator("time").innerText()).toMatch(/^just now$/i);
        const latest = visitor.page.getByRole("region", { name: "Latest update" });
        await latest.getByText(text).waitFor();
        const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(new Date(sent.created_at));
        expect(await latest.locator("time").innerText()).toBe(day);
      } finally {
        await visitor.context.close();
      }

      await page.goto(`${e2e.app.url}/dashboard`);
      const feed = page.getByRole("region", { name: "Activity, newest first" });
      await feed.getByText("Update posted").first().waitFor();
      await feed.getByText(text).waitFor();
    } finally {
      await context.close();
    }
  });
});
