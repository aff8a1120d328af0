// The e-mails a founder and a visitor are promised, written in the transaction of the event that causes them and
// delivered by the mail worker to a real SMTP server, where a MIME parser reads what arrived.
import type { ParsedMail } from "mailparser";
import { sql } from "kysely";
import pino from "pino";
import { expect, it } from "vitest";
import type { AppDatabase } from "~/db/client.server";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { checkUnsubscribeLink, unsubscribeByToken } from "~/modules/contacts/unsubscribe-link.server";
import { createUnsubscribeTokens, UNSUBSCRIBE_TOKEN_TTL_MS } from "~/modules/contacts/unsubscribe-token.server";
import { validate } from "~/modules/forms/validation";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createSmtpTransport } from "~/modules/mail/transport.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, TEST_PUBLIC_URL, TEST_SECRET, testMailLinks, testTokens } from "../support/fixtures";
import { startSmtpServer } from "../support/smtp";

const logger = pino({ level: "silent" });
const anonymous = { userId: null };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

/** Delivers everything queued to a fresh SMTP server and returns what arrived for the given addresses. */
async function deliver(database: AppDatabase, recipients: string[]) {
  const smtp = await startSmtpServer();
  const worker = new MailWorker(database.db, createSmtpTransport(smtp.url, "PitchQR <no-reply@pitchqr.test>"), logger);
  try {
    await worker.runOnce();
  } finally {
    await worker.stop();
    await smtp.close();
  }
  const mine = (mail: ParsedMail) => recipients.includes(addressOf(mail));
  return { mails: smtp.received.filter(mine), envelopes: smtp.envelopes.filter((_, index) => mine(smtp.received[index]!)) };
}

function addressOf(mail: ParsedMail): string {
  const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
  return to?.value[0]?.address ?? "";
}

function header(mail: ParsedMail, name: string): string | undefined {
  return mail.headerLines.find((line) => line.key === name.toLowerCase())?.line.slice(name.length + 2);
}

/** The token of the e-mail's unsubscribe link, which its List-Unsubscribe header shares. */
function unsubscribeTokenOf(mail: ParsedMail): string {
  const oneClick = /<([^>]+)>/.exec(header(mail, "List-Unsubscribe") ?? "")?.[1] ?? "";
  expect(oneClick.startsWith(`${TEST_PUBLIC_URL}/unsubscribe/one-click?token=`)).toBe(true);
  const token = new URL(oneClick).searchParams.get("token") ?? "";
  expect(mail.text).toContain(`${TEST_PUBLIC_URL}/unsubscribe?token=${encodeURIComponent(token)}`);
  return token;
}

async function founderProject(database: AppDatabase, tag: string) {
  const founderEmail = `founder-${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const ownerId = await createUser(database.db, { email: founderEmail });
  const project = await createProject(database.db, { ownerId, title: `Harbor ${tag}` });
  return { founderEmail, ownerId, project };
}

const services = (database: AppDatabase) => ({ database, unsubscribeTokens: testTokens, logger });

describeEachDialect("notification e-mails", (getDb, dialect) => {
  it("alerts the founder of an intro with the forwardable blurb and a link to the lead; replies go to the visitor", async () => {
    const database = getDb();
    const { founderEmail, project } = await founderProject(database, "intro");
    const visitor = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { blurb } = await submitIntro(
      database.db,
      testMailLinks,
      project.id,
      parse(introSchema, { name: "Ada Marsh", email: visitor, note: "I can introduce you to two clinics", roleTags: ["Angel"], linkedinUrl: "https://linkedin.com/in/ada" }),
      anonymous,
    );
    const { mails } = await deliver(database, [founderEmail, visitor]);
    expect(mails.map(addressOf).sort()).toEqual([founderEmail, visitor].sort());
    const alert = mails.find((mail) => addressOf(mail) === founderEmail);
    expect(alert?.subject).toBe("New intro request for Harbor intro: Ada Marsh");
    expect(alert?.text).toContain("Ada Marsh asked for an intro through the Harbor intro pitch page.");
    expect(alert?.text).toContain(`E-mail: ${visitor}`);
    expect(alert?.text).toContain("Roles: Angel");
    for (const line of blurb.split("\n").filter(Boolean)) expect(alert?.text).toContain(`> ${line}`);
    expect(alert?.html).toContain("Forwardable intro blurb");
    expect(alert?.replyTo?.value[0]?.address).toBe(visitor);
    const lead = await database.db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", visitor).executeTakeFirstOrThrow();
    expect(alert?.text).toContain(`Open Ada Marsh in your leads: ${TEST_PUBLIC_URL}/project/${project.id}/leads?lead=${lead.id}`);
    expect(alert?.text).not.toContain("/analytics");
    expect(header(alert!, "List-Unsubscribe")).toBeUndefined();

    // The visitor's copy: what they asked, the forwardable text, what happens next; no tracking, no list.
    const confirmation = mails.find((mail) => addressOf(mail) === visitor)!;
    expect(confirmation.subject).toBe("Your intro request to Harbor intro is sent");
    expect(confirmation.text).toContain("Hi Ada Marsh,");
    expect(confirmation.text).toContain("Your note: I can introduce you to two clinics");
    expect(confirmation.text).toContain("You are: Angel");
    for (const line of blurb.split("\n").filter(Boolean)) expect(confirmation.text).toContain(`> ${line}`);
    expect(confirmation.text).toContain("What happens next: the founders read your request and answer you at this address");
    expect(confirmation.text).toContain("You are not subscribed to anything.");
    expect(header(confirmation, "List-Unsubscribe")).toBeUndefined();
    expect(confirmation.html).not.toMatch(/<img|\/unsubscribe|\/track/);
  });

  it("confirms a signal to the visitor (non-binding, how to unsubscribe) and alerts the founder", async () => {
    const database = getDb();
    const { founderEmail, project } = await founderProject(database, "signal");
    const visitor = `omar-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const tier = await database.db.selectFrom("signal_tiers").selectAll().where("project_id", "=", project.id).orderBy("sort_order").executeTakeFirstOrThrow();
    await recordSignal(
      database.db,
      testMailLinks,
      project.id,
      parse(signalSchema, { tierId: tier.id, name: "Omar Haddad", email: visitor, message: "Loved the pilot numbers", showName: "on" }),
      anonymous,
    );
    const { mails } = await deliver(database, [founderEmail, visitor]);
    expect(mails.map(addressOf).sort()).toEqual([founderEmail, visitor].sort());

    const confirmation = mails.find((mail) => addressOf(mail) === visitor)!;
    expect(confirmation.subject).toBe("Your interest in Harbor signal is recorded");
    expect(confirmation.text).toContain("Hi Omar Haddad,");
    expect(confirmation.text).toContain(`Interest level: ${tier.range_label}`);
    expect(confirmation.text).toContain("Your message: Loved the pilot numbers");
    expect(confirmation.text).toContain(`On the Recognition Wall: your name, 'Omar Haddad', as a supporter, with your tier, '${tier.range_label}'.`);
    expect(confirmation.text).toContain("Not on the wall: your message (only the founders read it) and your e-mail address.");
    expect(confirmation.text).toContain("This signal is non-binding: you have not committed to invest, no payment was made");
    expect(confirmation.html).toContain("non-binding");
    expect(header(confirmation, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const token = unsubscribeTokenOf(confirmation);
    const contact = await database.db.selectFrom("contacts").select("id").where("email", "=", visitor).executeTakeFirstOrThrow();
    expect(testTokens.verify(token)).toEqual({ ok: true, contactId: contact.id });

    const alert = mails.find((mail) => addressOf(mail) === founderEmail)!;
    expect(alert.subject).toBe(`New interest signal for Harbor signal: ${tier.range_label}`);
    expect(alert.text).toContain("Omar Haddad signaled non-binding interest in Harbor signal.");
    expect(alert.text).toContain("> Loved the pilot numbers");
    expect(alert.text).toContain("Shown on your Recognition Wall; their message is for you only");
    const lead = await database.db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", visitor).executeTakeFirstOrThrow();
    expect(alert.text).toContain(`Open Omar Haddad in your leads: ${TEST_PUBLIC_URL}/project/${project.id}/leads?lead=${lead.id}`);
    expect(alert.html).toContain(`href="${TEST_PUBLIC_URL}/project/${project.id}/leads?lead=${lead.id}"`);
  });

  it("tells a visitor who also shows their message that it is on the wall, and one who shows nothing that nothing is", async () => {
    const database = getDb();
    const { founderEmail, project } = await founderProject(database, "signal");
    const tierId = project.tiers[0]!.id;
    const everything = `ines-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const nothing = `noor-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await recordSignal(
      database.db,
      testMailLinks,
      project.id,
      parse(signalSchema, { tierId, name: "Ines", email: everything, message: "See you at demo day", showName: "on", showMessage: "on" }),
      anonymous,
    );
    await recordSignal(
      database.db,
      testMailLinks,
      project.id,
      parse(signalSchema, { tierId, name: "Noor", email: nothing, message: "Quietly in", showMessage: "on" }),
      anonymous,
    );
    const { mails } = await deliver(database, [founderEmail, everything, nothing]);

    const toEverything = mails.find((mail) => addressOf(mail) === everything)!;
    expect(toEverything.text).toContain("On the Recognition Wall: your name, 'Ines', as a supporter, with your tier, 'Angel', and your message.");
    expect(toEverything.text).toContain("Not on the wall: your e-mail address.");
    const toNothing = mails.find((mail) => addressOf(mail) === nothing)!;
    expect(toNothing.text).toContain("On the Recognition Wall: nothing; your signal is only counted, as one more supporter.");
    expect(toNothing.text).toContain("Not on the wall: your name, your tier, your message (only the founders read it) and your e-mail address.");
    // The founder reads both messages.
    const alerts = mails.filter((mail) => addressOf(mail) === founderEmail).map((mail) => mail.text ?? "");
    expect(alerts.some((text) => text.includes("> See you at demo day") && text.includes("Shown on your Recognition Wall, with their message"))).toBe(true);
    expect(alerts.some((text) => text.includes("> Quietly in") && text.includes("Private: counted, not shown on the wall"))).toBe(true);
  });

  it("welcomes a new subscriber once; subscribing again sends nothing new", async () => {
    const database = getDb();
    const { founderEmail, project } = await founderProject(database, "welcome");
    const visitor = `grace-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const input = parse(subscribeSchema, { consent: "on", name: "Grace Lin", email: visitor });
    await subscribeToUpdates(database.db, testMailLinks, project.id, input, anonymous);
    await subscribeToUpdates(database.db, testMailLinks, project.id, input, anonymous);
    const { mails } = await deliver(database, [founderEmail, visitor]);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("You're following Harbor welcome");
    expect(mails[0]?.text).toContain("you get one digest on Friday");
    expect(mails[0]?.text).toContain(`${TEST_PUBLIC_URL}/pitch/${project.slug}`);
    unsubscribeTokenOf(mails[0]!);
  });

  it("keeps a visitor's name from adding headers or recipients", async () => {
    const database = getDb();
    const { founderEmail, project } = await founderProject(database, "inject");
    const visitor = `eve-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await submitIntro(
      database.db,
      testMailLinks,
      project.id,
      parse(introSchema, { name: "Eve\r\nBcc: victim@evil.example\r\nX-Injected: yes", email: visitor, note: "hello\r\nBcc: victim@evil.example" }),
      anonymous,
    );
    const { mails, envelopes } = await deliver(database, [founderEmail]);
    expect(envelopes).toEqual([[founderEmail]]);
    expect(mails[0]?.subject).toBe("New intro request for Harbor inject: Eve Bcc: victim@evil.example X-Injected: yes");
    expect(mails[0]?.headers.has("x-injected")).toBe(false);
    expect(mails[0]?.bcc).toBeUndefined();
  });

  it("unsubscribes through the e-mail's link once confirmed, and changes nothing on opening it or for a tampered or expired token", async () => {
    const database = getDb();
    const { project } = await founderProject(database, "unsub");
    const visitor = `lin-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await subscribeToUpdates(database.db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Lin", email: visitor }), anonymous);
    const { mails } = await deliver(database, [visitor]);
    const token = unsubscribeTokenOf(mails[0]!);
    const subscribed = () =>
      database.db.selectFrom("contacts").select("subscribed").where("email", "=", visitor).executeTakeFirstOrThrow().then((row) => row.subscribed);
    const subscribers = () =>
      database.db.selectFrom("project_stats").select("subscribers").where("project_id", "=", project.id).executeTakeFirstOrThrow().then((row) => Number(row.subscribers));

    const [id, expiry, signature] = token.split(".") as [string, string, string];
    const tampered = `${Buffer.from(crypto.randomUUID()).toString("base64url")}.${expiry}.${signature}`;
    expect(await unsubscribeByToken(services(database), tampered)).toMatchObject({ done: false, title: "Invalid unsubscribe link" });
    expect(await unsubscribeByToken(services(database), `${id}.${expiry}.${signature}x`)).toMatchObject({ done: false, title: "Invalid unsubscribe link" });
    const later = new Date(Date.now() + UNSUBSCRIBE_TOKEN_TTL_MS + 60_000);
    const expiredTokens = { sign: testTokens.sign, verify: (value: string) => testTokens.verify(value, later) };
    expect(await unsubscribeByToken({ ...services(database), unsubscribeTokens: expiredTokens }, token)).toMatchObject({
      done: false,
      title: "Expired unsubscribe link",
    });
    const contact = await database.db.selectFrom("contacts").select("id").where("email", "=", visitor).executeTakeFirstOrThrow();
    const forged = createUnsubscribeTokens(`${TEST_SECRET}-other`).sign(contact.id);
    expect(await unsubscribeByToken(services(database), forged)).toMatchObject({ done: false });
    expect(await subscribed()).toBe(true);
    expect(await subscribers()).toBe(1);

    // Opening the link (what a mail scanner does too) names the project and changes nothing.
    expect(await checkUnsubscribeLink(services(database), token)).toEqual({ valid: true, projectTitle: "Harbor unsub" });
    expect(await checkUnsubscribeLink(services(database), token)).toEqual({ valid: true, projectTitle: "Harbor unsub" });
    expect(await checkUnsubscribeLink(services(database), tampered)).toMatchObject({ valid: false, title: "Invalid unsubscribe link" });
    expect(await checkUnsubscribeLink({ ...services(database), unsubscribeTokens: expiredTokens }, token)).toMatchObject({ valid: false, title: "Expired unsubscribe link" });
    expect(await subscribed()).toBe(true);
    expect(await subscribers()).toBe(1);

    expect(await unsubscribeByToken(services(database), token)).toEqual({ done: true, projectTitle: "Harbor unsub" });
    expect(await subscribed()).toBe(false);
    expect(await subscribers()).toBe(0);
    // Following the link again is harmless.
    expect(await unsubscribeByToken(services(database), token)).toEqual({ done: true, projectTitle: "Harbor unsub" });
    expect(await subscribers()).toBe(0);
  });

  it("writes the e-mail in the event's transaction: when queueing fails, the signal is not stored either", async () => {
    const database = getDb();
    const { project } = await founderProject(database, "rollback");
    const visitor = `refuse-${crypto.randomUUID().slice(0, 8)}@example.com`;
    if (dialect === "sqlite") {
      await sql`create trigger refuse_mail before insert on mail_outbox when new.recipient like 'refuse-%' begin select raise(abort, 'mail refused'); end`.execute(database.db);
    } else {
      await sql`create function refuse_mail() returns trigger language plpgsql as $$ begin if new.recipient like 'refuse-%' then raise exception 'mail refused'; end if; return new; end $$`.execute(database.db);
      await sql`create trigger refuse_mail before insert on mail_outbox for each row execute function refuse_mail()`.execute(database.db);
    }
    try {
      const input = parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Zed", email: visitor, showName: "on" });
      await expect(recordSignal(database.db, testMailLinks, project.id, input, anonymous)).rejects.toThrow(/mail refused/);
      expect(await database.db.selectFrom("contacts").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
      expect(await database.db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
      expect(await database.db.selectFrom("mail_outbox").select("id").where("recipient", "=", visitor).execute()).toEqual([]);
    } finally {
      await sql`drop trigger refuse_mail${dialect === "postgres" ? sql` on mail_outbox` : sql``}`.execute(database.db);
    }
  });
});
