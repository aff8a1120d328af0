// Project updates and the Friday digest, with an injected clock: Friday, not Friday, a missed Friday, two instances.
// Every test uses its own weeks and addresses, so the tests share one database without depending on each other.
import pino from "pino";
import { expect, it } from "vitest";
import type { AppDatabase } from "~/db/client.server";
import { subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { unsubscribeContact } from "~/modules/contacts/unsubscribe.server";
import { loadActivityFeed } from "~/modules/activity/activity.server";
import { validate } from "~/modules/forms/validation";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createSmtpTransport } from "~/modules/mail/transport.server";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { projectUpdateSchema } from "~/modules/updates/project-update-form";
import { listProjectUpdates, postProjectUpdate } from "~/modules/updates/project-updates.server";
import { DigestScheduler } from "~/modules/updates/weekly-digest.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks, testTokens } from "../support/fixtures";
import { startSmtpServer } from "../support/smtp";

const logger = pino({ level: "silent" });
const UTC_NINE = { hour: 9, timeZone: "UTC" };

async function followers(database: AppDatabase, projectId: string, names: string[]) {
  const emails: string[] = [];
  for (const name of names) {
    const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const input = validate(subscribeSchema, { consent: "on", name, email });
    if (!input.ok) throw new Error(input.formError);
    await subscribeToUpdates(database.db, testMailLinks, projectId, input.data, { userId: null });
    emails.push(email);
  }
  return emails;
}

async function post(database: AppDatabase, ownerId: string, projectId: string, body: string, at: string) {
  const input = validate(projectUpdateSchema, { body });
  if (!input.ok) throw new Error(input.formError);
  return postProjectUpdate(database.db, ownerId, projectId, input.data, new Date(at));
}

async function digestsFor(database: AppDatabase, emails: string[]) {
  return database.db
    .selectFrom("mail_outbox")
    .select(["recipient", "subject", "text_body", "mail_headers"])
    .where("kind", "=", "digest")
    .where("recipient", "in", emails)
    .orderBy("recipient")
    .execute();
}

function schedulerAt(database: AppDatabase, clock: { now: Date }) {
  return new DigestScheduler(database.db, testMailLinks, UTC_NINE, logger, { clock: () => clock.now });
}

describeEachDialect("project updates and the weekly digest", (getDb) => {
  it("posts an update: Last shipped moves, the page cache refreshes, the feed shows it, bad input changes nothing", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId });
    const before = await database.db.selectFrom("projects").select(["content_version", "last_shipped_at"]).where("id", "=", project.id).executeTakeFirstOrThrow();

    const update = await post(database, ownerId, project.id, "  Shipped remote temperature alerts  ", "2026-10-06T10:00:00.000Z");
    expect(update.body).toBe("Shipped remote temperature alerts");
    const after = await database.db.selectFrom("projects").select(["content_version", "last_shipped_at"]).where("id", "=", project.id).executeTakeFirstOrThrow();
    expect(new Date(after.last_shipped_at!).toISOString()).toBe("2026-10-06T10:00:00.000Z");
    expect(after.content_version).toBe(before.content_version + 1);

    const feed = await loadActivityFeed(database.db, ownerId);
    expect(feed.find((item) => item.type === "update")).toMatchObject({ title: "Update posted", description: "Shipped remote temperature alerts" });
    expect((await listProjectUpdates(database.db, ownerId, project.id)).map((row) => row.body)).toEqual(["Shipped remote temperature alerts"]);

    for (const [body, message] of [
      ["   ", "Please describe what you shipped"],
      ["x".repeat(501), "Update must be less than 500 characters"],
    ] as const) {
      const input = validate(projectUpdateSchema, { body });
      expect(input.ok ? null : input.fieldErrors.body).toBe(message);
    }
    const stranger = await createUser(database.db);
    await expect(post(database, stranger, project.id, "Not mine", "2026-10-06T11:00:00.000Z")).rejects.toMatchObject({ code: "not_found" });
    expect(await listProjectUpdates(database.db, ownerId, project.id)).toHaveLength(1);
    expect((await loadActivityFeed(database.db, stranger)).some((item) => item.type === "update")).toBe(false);
  });

  it("sends one digest per subscriber on Friday, nothing before, nothing twice, nothing to the unsubscribed or for quiet projects", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Digest" });
    const quiet = await createProject(database.db, { ownerId, title: "Quiet Project" });
    const [ada, bo, cy] = await followers(database, project.id, ["Ada", "Bo", "Cy"]);
    const quietFans = await followers(database, quiet.id, ["Dee"]);
    const everyone = [ada!, bo!, cy!, ...quietFans];
    // Cy unsubscribes through their welcome e-mail's link.
    const cyContact = await database.db.selectFrom("contacts").select("id").where("email", "=", cy!).executeTakeFirstOrThrow();
    await unsubscribeContact(database.db, cyContact.id);

    // Week of Monday 2026-11-16; Friday is 2026-11-20.
    await post(database, ownerId, project.id, "Shipped remote temperature alerts", "2026-11-17T15:00:00.000Z");
    await post(database, ownerId, project.id, "Two more clinics signed", "2026-11-19T12:00:00.000Z");

    const clock = { now: new Date("2026-11-19T18:00:00.000Z") }; // Thursday
    const scheduler = schedulerAt(database, clock);
    await scheduler.runOnce();
    expect(await digestsFor(database, everyone)).toEqual([]);

    clock.now = new Date("2026-11-20T08:59:00.000Z"); // Friday, before the hour
    expect(await scheduler.runOnce()).toBeNull();
    expect(await digestsFor(database, everyone)).toEqual([]);

    clock.now = new Date("2026-11-20T09:00:30.000Z"); // Friday, on time
    const run = await scheduler.runOnce();
    expect(run).toMatchObject({ slot: "2026-11-20" });
    const sent = await digestsFor(database, everyone);
    expect(sent.map((row) => row.recipient)).toEqual([ada, bo].sort());
    for (const mail of sent) {
      expect(mail.subject).toBe("Harbor Digest: what shipped this week");
      expect(mail.text_body).toContain("2 updates from Harbor Digest since the last digest:\n\n- Nov 17: Shipped remote temperature alerts\n- Nov 19: Two more clinics signed");
      expect(mail.mail_headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      const token = /token=([^>]+)>/.exec(mail.mail_headers["List-Unsubscribe"] ?? "")?.[1] ?? "";
      const contact = await database.db.selectFrom("contacts").select("id").where("email", "=", mail.recipient).executeTakeFirstOrThrow();
      expect(testTokens.verify(decodeURIComponent(token))).toEqual({ ok: true, contactId: contact.id });
    }
    const marked = await listProjectUpdates(database.db, ownerId, project.id);
    expect(marked.map((row) => row.digest_slot)).toEqual(["2026-11-20", "2026-11-20"]);

    clock.now = new Date("2026-11-20T17:00:00.000Z"); // later that Friday: already done
    expect(await scheduler.runOnce()).toBeNull();
    clock.now = new Date("2026-11-27T10:00:00.000Z"); // next Friday: nothing new was posted
    await scheduler.runOnce();
    expect(await digestsFor(database, everyone)).toHaveLength(2);
  });

  it("catches up a missed Friday once, with only the latest week, when the server comes back", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Missed" });
    const [fan] = await followers(database, project.id, ["Eve"]);
    const clock = { now: new Date("2027-01-07T12:00:00.000Z") }; // Thursday
    const scheduler = schedulerAt(database, clock);
    await scheduler.runOnce();
    await post(database, ownerId, project.id, "Launched the clinic dashboard", "2027-01-07T13:00:00.000Z");
    await post(database, ownerId, project.id, "Cut install time in half", "2027-01-20T13:00:00.000Z");

    // Down from Thursday 7 January until Saturday 23 January: the Fridays 8, 15 and 22 January were missed.
    clock.now = new Date("2027-01-23T08:00:00.000Z");
    expect(await scheduler.runOnce()).toMatchObject({ slot: "2027-01-22" });
    expect(await scheduler.runOnce()).toBeNull();
    const sent = await digestsFor(database, [fan!]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text_body).toContain("- Jan 7: Launched the clinic dashboard\n- Jan 20: Cut install time in half");
    const runs = await database.db.selectFrom("digest_runs").select("slot").where("slot", "in", ["2027-01-08", "2027-01-15", "2027-01-22"]).execute();
    expect(runs.map((row) => row.slot)).toEqual(["2027-01-22"]);
  });

  it("runs once when two instances reach Friday at the same moment", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Twins" });
    const fans = await followers(database, project.id, ["Fay", "Gus", "Hal"]);
    await post(database, ownerId, project.id, "Opened a second warehouse", "2027-03-10T10:00:00.000Z");
    const clock = { now: new Date("2027-03-12T09:00:05.000Z") };
    // On PostgreSQL each scheduler gets its own connection from the pool, as two app instances would.
    const runs = await Promise.all([schedulerAt(database, clock).runOnce(), schedulerAt(database, clock).runOnce()]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect((await digestsFor(database, fans)).map((row) => row.recipient)).toEqual([...fans].sort());
  });

  it("delivers the digest over SMTP with the update text and one-click unsubscribe headers", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Mail" });
    const [fan] = await followers(database, project.id, ["Ivy"]);
    await post(database, ownerId, project.id, "Shipped <b>bold</b> moves & more", "2027-05-04T10:00:00.000Z");
    const clock = { now: new Date("2027-05-07T09:30:00.000Z") };
    await schedulerAt(database, clock).runOnce();
    const smtp = await startSmtpServer();
    const worker = new MailWorker(database.db, createSmtpTransport(smtp.url, "PitchQR <no-reply@pitchqr.test>"), logger, { clock: () => clock.now });
    try {
      await worker.runOnce();
    } finally {
      await worker.stop();
      await smtp.close();
    }
    const digest = smtp.received.find((mail) => mail.subject === "Harbor Mail: what shipped this week");
    expect(digest?.text).toContain("- May 4: Shipped <b>bold</b> moves & more");
    expect(digest?.html).toContain("Shipped &lt;b&gt;bold&lt;/b&gt; moves &amp; more");
    expect(digest?.headerLines.map((line) => line.key)).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
    expect(smtp.envelopes[smtp.received.indexOf(digest!)]).toEqual([fan]);
  });
});
