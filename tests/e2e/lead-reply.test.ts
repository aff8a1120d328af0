// A founder replies to a lead from their phone: the composer opens filled from the project's
// template, refuses a reply over the limit in place, proposes a meeting on the founder's clock and sends; the test's
// SMTP server receives the mail with Reply-To the founder and an invitation that ical.js reads back at the right
// instant, and the lead shows as Meeting, answered, with the reply in its history. The mail names who wrote it and
// why Ada gets it; past the account's 30 replies an hour (decision 77) the composer says when it can send again.
import ICAL from "ical.js";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zonedInstant } from "~/modules/time/zoned-slots";
import { PHONE } from "../support/chromium.js";
import { waitForToast } from "../support/founder-e2e";
import { founderPost, visitorAction } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { startSmtpServer } from "../support/smtp";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, cookieHeader, waitForHydration } from "../support/clients";
import { countRows, withWritableDb } from "../support/test-db";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: "PitchQR <no-reply@pitchqr.test>" }) });

const TIME_ZONE = "America/New_York";

const mailsTo = (address: string) => smtp.received.filter((mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address === address);

/** Tomorrow on the founder's clock, as the date input wants it. */
function tomorrowIn(timeZone: string): { year: number; month: number; day: number; text: string } {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + 86_400_000));
  const [year, month, day] = parts.split("-").map(Number) as [number, number, number];
  return { year, month, day, text: parts };
}

describe("replying from a lead on a phone", () => {
  it("sends the template's reply with a meeting invitation; the lead becomes Meeting, answered, with the reply in its history; a logged call answers another; past 30 replies an hour Send says when it can send again; another founder gets 404", { timeout: 120_000 }, async () => {
    const email = uniqueEmail("reply");
    const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
    await withWritableDb(e2e.app, (db) => db.updateTable("users").set({ time_zone: TIME_ZONE }).where("id", "=", ownerId).execute());
    const project = await insertProject(e2e.app.dataDir, {
      ownerId,
      title: "Harbor Reply",
      deckUrl: "https://deck.example/harbor",
      calendlyUrl: "https://cal.example/harbor",
    });
    const leadEmail = uniqueEmail("ada");
    await visitorAction(e2e.app, project.slug, null, { intent: "intro", name: "Ada Lovelace", email: leadEmail, note: "Let's talk" });
    await visitorAction(e2e.app, project.slug, null, { intent: "intro", name: "Bo Chen", email: uniqueEmail("bo"), note: "Call me" });

    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      await page.getByRole("link", { name: "Reply to Ada Lovelace" }).click();
      await page.getByRole("heading", { name: "Reply to Ada Lovelace" }).waitFor();
      await waitForHydration(page);

      const message = page.getByLabel("Message", { exact: true });
      const text = await message.inputValue();
      expect(text).toContain("Hi Ada,");
      expect(text).toContain(`${e2e.app.url}/pitch/${project.slug}`);
      expect(text).toContain("Our deck: https://deck.example/harbor");
      expect(text).toContain("Book a time that suits you: https://cal.example/harbor");
      expect(await page.getByLabel("Subject", { exact: true }).inputValue()).toBe("Harbor Reply: following up");
      const mailto = await page.getByRole("link", { name: "Open in my mail app" }).getAttribute("href");
      expect(mailto).toBe(`mailto:${leadEmail}?subject=${encodeURIComponent("Harbor Reply: following up")}&body=${encodeURIComponent(text)}`);

      // Over the limit: the counter turns red and Send says why, in place; nothing leaves.
      await message.fill("x".repeat(10_001));
      await page.getByText("10001/10000").waitFor();
      await page.getByRole("button", { name: "Send reply" }).click();
      await page.getByText("A reply must be at most 10,000 characters").waitFor();
      expect(new URL(page.url()).pathname).toMatch(/\/reply$/);
      // (Their intro's confirmation may have reached them; no reply has.)
      expect(mailsTo(leadEmail).filter((mail) => mail.replyTo)).toEqual([]);

      await message.fill("Hi Ada,\n\nGreat to meet you at the booth. Shall we talk tomorrow?\n\nGrace");
      await page.getByLabel("Subject", { exact: true }).fill("Coffee tomorrow?");
      await page.getByLabel("Propose a meeting").check();
      const tomorrow = tomorrowIn(TIME_ZONE);
      await page.getByLabel("Date", { exact: true }).fill(tomorrow.text);
      await page.getByLabel("Start time", { exact: true }).fill("15:30");
      await page.getByLabel("Length", { exact: true }).selectOption("45");
      await page.getByRole("button", { name: "Send reply" }).click();

      await waitForToast(page, "Reply and invitation sent");
      expect(new URL(page.url()).pathname).toBe(`/project/${project.id}/leads`);
      const card = page.getByRole("listitem", { name: "Ada Lovelace" });
      await card.locator("span").filter({ hasText: /^Meeting$/ }).waitFor();
      await card.getByText(/^Answered in /).waitFor();
      await card.getByText("You replied: Coffee tomorrow?").waitFor();
      await card.getByText(/^Meeting proposed for .*3:30 PM, 45 min$/).waitFor();

      await expect.poll(() => mailsTo(leadEmail).filter((mail) => mail.subject === "Coffee tomorrow?").length, { timeout: 15_000 }).toBe(1);
      const mail = mailsTo(leadEmail).find((received) => received.subject === "Coffee tomorrow?")!;
      expect(mail.replyTo?.value.map((address) => address.address)).toEqual([email]);
      expect(mail.text).toContain("Great to meet you at the booth.");
      // Who wrote it and why Ada gets it, so it cannot pass for a message of the operator's.
      expect(mail.text).toMatch(/^.+ of Harbor Reply wrote to you:\n/);
      expect(mail.text).toContain("You get it because you asked for an intro on the pitch page of Harbor Reply.");
      const ics = mail.attachments.find((attachment) => attachment.contentType === "text/calendar")!.content.toString("utf8");
      const calendar = new ICAL.Component(ICAL.parse(ics));
      expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
      for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
      const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
      expect(event.startDate.zone?.tzid).toBe(TIME_ZONE);
      expect(event.startDate.toJSDate().toISOString()).toBe(zonedInstant(tomorrow.year, tomorrow.month, tomorrow.day, 15, 30, TIME_ZONE).toISOString());
      expect(event.duration.toSeconds()).toBe(45 * 60);
      expect(event.organizer).toBe(`mailto:${email}`);
      expect(event.attendees.map((attendee) => attendee.getFirstValue())).toEqual([`mailto:${leadEmail}`]);

      // A call logged from another lead's card is a line of its history and its answer; its status follows at once.
      const adaId = new URL(page.url()).searchParams.get("lead");
      await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
      await waitForHydration(page);
      const bo = page.getByRole("listitem", { name: "Bo Chen" });
      await bo.getByText(/^Waiting /).waitFor();
      await bo.getByRole("button", { name: "Log a call" }).click();
      await waitForToast(page, "Bo Chen: call logged");
      await bo.getByText("You called").waitFor();
      await bo.getByText(/^Answered in /).waitFor();
      await bo.locator("span").filter({ hasText: /^Contacted$/ }).waitFor();
      expect(await bo.getByLabel("Status", { exact: true }).inputValue()).toBe("contacted");
      expect(errors).toEqual([]);

      // The server holds the limits whatever the page does (a post without JavaScript, or a hand-made one).
      const owner = await cookieHeader(context);
      const { id: boId } = await e2e.db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("name", "=", "Bo Chen").executeTakeFirstOrThrow();
      const boReply = `/project/${project.id}/leads/${boId}/reply`;
      const tooLong = await founderPost(e2e.app, owner, boReply, { subject: "Hi", body: "x".repeat(10_001) });
      expect([tooLong.status, await tooLong.text()]).toEqual([400, expect.stringContaining("A reply must be at most 10,000 characters")]);
      const past = await founderPost(e2e.app, owner, boReply, { subject: "Hi", body: "Hi", proposeMeeting: "on", meetingDate: "2020-01-01", meetingTime: "10:00", meetingMinutes: "30" });
      expect([past.status, await past.text()]).toEqual([400, expect.stringContaining("The meeting must start in the future")]);
      const marathon = await founderPost(e2e.app, owner, boReply, { subject: "Hi", body: "Hi", proposeMeeting: "on", meetingDate: tomorrow.text, meetingTime: "10:00", meetingMinutes: "481" });
      expect([marathon.status, await marathon.text()]).toEqual([400, expect.stringContaining("A meeting lasts from 15 minutes to 8 hours")]);
      const template = await founderPost(e2e.app, owner, `/project/${project.id}/leads/template`, { subject: "Hi {firstname}", body: "Hello" });
      expect([template.status, await template.text()]).toEqual([400, expect.stringContaining("Unknown placeholder {firstname}")]);
      // Without JavaScript a good reply is a post that goes back to the lead.
      const plain = await founderPost(e2e.app, owner, boReply, { subject: "Plain post", body: "Hi Bo" });
      expect([plain.status, plain.headers.get("location")]).toEqual([302, `/project/${project.id}/leads?lead=${boId}`]);
      await expect.poll(() => smtp.received.filter((mail) => mail.subject === "Plain post").length, { timeout: 15_000 }).toBe(1);
      expect(smtp.received.filter((mail) => mail.subject === "Hi")).toEqual([]);

      // 30 replies an hour per account (decision 77): with 28 more, the composer's Send says when it can send again.
      for (let i = 0; i < 28; i++) expect((await founderPost(e2e.app, owner, boReply, { subject: `Follow-up ${i}`, body: "Hi Bo" })).status).toBe(302);
      await page.goto(`${e2e.app.url}/project/${project.id}/leads/${adaId}/reply`);
      await waitForHydration(page);
      await page.getByLabel("Subject", { exact: true }).fill("One too many");
      await page.getByRole("button", { name: "Send reply" }).click();
      await page.getByText(/^You have sent 30 replies in the last hour, the most one account may send\. You can reply again from .+ \(America\/New_York\)\.$/).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/\/reply$/);
      expect(await page.getByLabel("Subject", { exact: true }).inputValue()).toBe("One too many");
      const limited = await founderPost(e2e.app, owner, boReply, { subject: "One too many", body: "Hi Bo" });
      expect([limited.status, Number(limited.headers.get("retry-after")) > 0]).toEqual([429, true]);
      expect(await countRows(e2e.db.selectFrom("lead_follow_ups").where("subject", "=", "One too many"))).toBe(0);

      // Another founder neither sees the composer nor sends through it: 404, and nothing leaves.
      const stranger = await signUpAndSignIn(e2e.app.url, uniqueEmail("stranger"));
      const replyPath = `/project/${project.id}/leads/${adaId}/reply`;
      expect((await fetch(`${e2e.app.url}${replyPath}`, { headers: { cookie: stranger } })).status).toBe(404);
      const post = await founderPost(e2e.app, stranger, replyPath, { subject: "Hijack", body: "Hello" });
      expect(post.status).toBe(404);
      expect(mailsTo(leadEmail).filter((received) => received.subject === "Hijack")).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
