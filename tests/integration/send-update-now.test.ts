// 'Send now' (decision 65): an update mailed to every current follower at once, once, with the digest's own e-mail;
// Friday's digest skips it afterwards. Every test uses its own addresses and weeks, so they share one database.
import { monitorEventLoopDelay } from "node:perf_hooks";
import pino from "pino";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { AppDatabase } from "~/db/client.server";
import type { Database } from "~/db/schema";
import type { ProjectRole } from "~/modules/access/roles";
import { subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { unsubscribeContact } from "~/modules/contacts/unsubscribe.server";
import { validate } from "~/modules/forms/validation";
import { loadPitchPage } from "~/modules/pitch/pitch-page.server";
import { acceptTeamInvitation, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { projectUpdateSchema, sendUpdateNowSchema, UPDATE_ALREADY_SENT_MESSAGE } from "~/modules/updates/project-update-form";
import { listProjectUpdates, postProjectUpdate } from "~/modules/updates/project-updates.server";
import { previewUpdateMails, SEND_NOW_LIMIT, sendUpdateNow } from "~/modules/updates/send-update-now.server";
import { DigestScheduler, SEND_NOW_BATCH_SIZE } from "~/modules/updates/weekly-digest.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks, testTokens } from "../support/fixtures";

const logger = pino({ level: "silent" });

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function followers(database: AppDatabase, projectId: string, names: string[]) {
  const emails: string[] = [];
  for (const name of names) {
    const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await subscribeToUpdates(database.db, testMailLinks, projectId, parse(subscribeSchema, { consent: "on", name, email }), { userId: null });
    emails.push(email);
  }
  return emails;
}

async function memberWith(db: Kysely<Database>, project: { id: string; ownerId: string }, role: Exclude<ProjectRole, "owner">) {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1] ?? "";
  await acceptTeamInvitation(db, { id, email }, token);
  return id;
}

function digestsFor(database: AppDatabase, emails: string[]) {
  return database.db
    .selectFrom("mail_outbox")
    .select(["recipient", "subject", "text_body", "html_body", "mail_headers"])
    .where("kind", "=", "digest")
    .where("recipient", "in", emails)
    .orderBy("recipient")
    .execute();
}

const send = (database: AppDatabase, userId: string, projectId: string, updateId: string) =>
  sendUpdateNow(database.db, testMailLinks, userId, projectId, parse(sendUpdateNowSchema, { updateId }), "UTC", new Date("2027-06-02T12:00:00.000Z"));

describeEachDialect("send an update now", (getDb) => {
  it("mails each current follower once with the unsubscribe link, the digest skips it, a second Send now sends nothing", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Now" });
    const [ada, bo, cy] = await followers(database, project.id, ["Ada", "Bo", "Cy"]);
    const cyContact = await database.db.selectFrom("contacts").select("id").where("email", "=", cy!).executeTakeFirstOrThrow();
    await unsubscribeContact(database.db, cyContact.id);
    const update = await postProjectUpdate(database.db, ownerId, project.id, parse(projectUpdateSchema, { body: "Shipped offline mode" }), new Date("2027-06-01T10:00:00.000Z"));

    // The preview is the e-mail followers get, built by the same function.
    const [preview] = previewUpdateMails(testMailLinks, { title: "Harbor Now", slug: project.slug }, await listProjectUpdates(database.db, ownerId, project.id), "UTC");
    expect(preview).toMatchObject({ updateId: update.id, subject: "Harbor Now: what shipped this week" });
    expect(preview?.text).toContain("- Jun 1: Shipped offline mode");
    expect(preview?.html).toContain("Unsubscribe");

    expect(await send(database, ownerId, project.id, update.id)).toEqual({ queued: 2, followers: 2, finished: true });
    const sent = await digestsFor(database, [ada!, bo!, cy!]);
    expect(sent.map((mail) => mail.recipient)).toEqual([ada, bo].sort());
    for (const mail of sent) {
      expect(mail.subject).toBe(preview?.subject);
      expect(mail.text_body).toContain("One update from Harbor Now since the last digest:\n\n- Jun 1: Shipped offline mode");
      expect(mail.text_body).toContain("Unsubscribe");
      const token = /token=([^>]+)>/.exec(mail.mail_headers["List-Unsubscribe"] ?? "")?.[1] ?? "";
      const contact = await database.db.selectFrom("contacts").select("id").where("email", "=", mail.recipient).executeTakeFirstOrThrow();
      expect(testTokens.verify(decodeURIComponent(token))).toEqual({ ok: true, contactId: contact.id });
    }
    // Sent: no preview any more, and a second click (or another instance at the same moment) sends nothing.
    expect(previewUpdateMails(testMailLinks, { title: "Harbor Now", slug: project.slug }, await listProjectUpdates(database.db, ownerId, project.id), "UTC")).toEqual([]);
    await expect(send(database, ownerId, project.id, update.id)).rejects.toMatchObject({ code: "conflict", message: UPDATE_ALREADY_SENT_MESSAGE });

    // Friday's digest does not mail it again.
    const clock = { now: new Date("2027-06-04T09:30:00.000Z") };
    await new DigestScheduler(database.db, testMailLinks, { hour: 9, timeZone: "UTC" }, logger, { clock: () => clock.now }).runOnce();
    expect(await digestsFor(database, [ada!, bo!, cy!])).toHaveLength(2);

    // The pitch page shows it as the latest update, with its date.
    const page = await loadPitchPage(database.db, project.slug, null);
    expect(page?.latestUpdate).toEqual({ body: "Shipped offline mode", createdAt: expect.stringMatching(/^2027-06-01T10:00:00/) });
  });

  it("sends once when two clicks arrive at the same moment", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Twice" });
    const fans = await followers(database, project.id, ["Dee", "Eve"]);
    const update = await postProjectUpdate(database.db, ownerId, project.id, parse(projectUpdateSchema, { body: "Two warehouses" }), new Date("2027-06-01T11:00:00.000Z"));
    const results = await Promise.allSettled([send(database, ownerId, project.id, update.id), send(database, ownerId, project.id, update.id)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "conflict" } });
    expect((await digestsFor(database, fans)).map((mail) => mail.recipient)).toEqual([...fans].sort());
  });

  it("lets edit roles send; staff and viewers are refused, other founders get not found, nothing is sent", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Team" });
    const fans = await followers(database, project.id, ["Fay"]);
    const post = (body: string) => postProjectUpdate(database.db, ownerId, project.id, parse(projectUpdateSchema, { body }), new Date("2027-06-01T12:00:00.000Z"));
    const update = await post("Hired a nurse lead");
    const target = { id: project.id, ownerId };
    for (const role of ["staff", "viewer"] as const) {
      const memberId = await memberWith(database.db, target, role);
      await expect(send(database, memberId, project.id, update.id)).rejects.toMatchObject({ code: "forbidden" });
    }
    const stranger = await createUser(database.db);
    const theirs = await createProject(database.db, { ownerId: stranger });
    await expect(send(database, stranger, project.id, update.id)).rejects.toMatchObject({ code: "not_found" });
    // Another project's update, through one's own project, is not found either.
    await expect(send(database, stranger, theirs.id, update.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await digestsFor(database, fans)).toEqual([]);

    const coFounder = await memberWith(database.db, target, "co-founder");
    expect(await send(database, coFounder, project.id, update.id)).toMatchObject({ queued: 1 });
  });
});

/** `count` followers written straight into the table, at addresses of their own domain (a form would also queue a welcome each). */
async function manyFollowers(database: AppDatabase, projectId: string, count: number): Promise<string> {
  const domain = `${crypto.randomUUID().slice(0, 8)}.example.com`;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    project_id: projectId,
    name: `Fan ${i}`,
    email: `fan-${String(i).padStart(6, "0")}@${domain}`,
    intent: "Subscriber" as const,
    subscribed: true,
    role_tags: [],
    linkedin_url: null,
    note: null,
    user_id: null,
  }));
  for (let start = 0; start < rows.length; start += 500) await database.db.insertInto("contacts").values(rows.slice(start, start + 500)).execute();
  return domain;
}

/** How many digests went to addresses at `domain`, and to how many different addresses. */
async function digestsAt(database: AppDatabase, domain: string) {
  const row = await database.db
    .selectFrom("mail_outbox")
    .select((eb) => [eb.fn.countAll<number>().as("mails"), eb.fn.count<number>("recipient").distinct().as("recipients")])
    .where("kind", "=", "digest")
    .where("recipient", "like", `%@${domain}`)
    .executeTakeFirstOrThrow();
  return { mails: Number(row.mails), recipients: Number(row.recipients) };
}

describeEachDialect("send an update now to a large audience", (getDb) => {
  const scheduler = (database: AppDatabase, at: string) => new DigestScheduler(database.db, testMailLinks, { hour: 9, timeZone: "UTC" }, logger, { clock: () => new Date(at) });

  it("queues 60,000 followers exactly once: the request answers after the first batch, the digest's passes on two instances queue the rest", { timeout: 240_000 }, async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Crowd" });
    const domain = await manyFollowers(database, project.id, 60_000);
    const update = await postProjectUpdate(database.db, ownerId, project.id, parse(projectUpdateSchema, { body: "Sixty thousand" }), new Date("2027-06-01T10:00:00.000Z"));

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    // The monitor's first tick only starts its clock: let it tick before the send.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await send(database, ownerId, project.id, update.id)).toEqual({ queued: SEND_NOW_BATCH_SIZE, followers: 60_000, finished: false });
    await Promise.all([scheduler(database, "2027-06-02T12:00:30.000Z").runOnce(), scheduler(database, "2027-06-02T12:00:30.000Z").runOnce()]);
    // A loop held until now records its delay when it next turns.
    await new Promise((resolve) => setTimeout(resolve, 20));
    loop.disable();
    expect(await digestsAt(database, domain)).toEqual({ mails: 60_000, recipients: 60_000 });
    // The speed target (worst delay under 100 ms) is the bench's (`npm run bench send-now`); here only that the
    // loop was let in between batches rather than held for the whole queueing.
    expect(loop.max / 1e6).toBeLessThan(1_000);
    const run = await database.db.selectFrom("digest_runs").select(["messages", "finished_at", "project_id"]).where("slot", "=", `now:${update.id}`).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ messages: 60_000, project_id: project.id, finished_at: expect.anything() });
  });

  it("a Send now larger than a batch is finished by the digest's next pass, each follower once, in the zone it was sent in", async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Rest" });
    const domain = await manyFollowers(database, project.id, 450);
    const update = await postProjectUpdate(database.db, ownerId, project.id, parse(projectUpdateSchema, { body: "Late on a Monday" }), new Date("2027-06-01T23:30:00.000Z"));
    const sent = await sendUpdateNow(database.db, testMailLinks, ownerId, project.id, parse(sendUpdateNowSchema, { updateId: update.id }), "Asia/Tokyo", new Date("2027-06-02T12:00:00.000Z"), 200);
    expect(sent).toEqual({ queued: 200, followers: 450, finished: false });
    expect(await digestsAt(database, domain)).toEqual({ mails: 200, recipients: 200 });

    // A pass started by a scheduler in another zone (or a restart) writes the rest as the first batch was written.
    await scheduler(database, "2027-06-02T12:05:00.000Z").runOnce();
    expect(await digestsAt(database, domain)).toEqual({ mails: 450, recipients: 450 });
    await scheduler(database, "2027-06-02T12:06:00.000Z").runOnce();
    expect(await digestsAt(database, domain)).toEqual({ mails: 450, recipients: 450 });
    const last = await database.db.selectFrom("mail_outbox").select("text_body").where("recipient", "=", `fan-000449@${domain}`).executeTakeFirstOrThrow();
    expect(last.text_body).toContain("- Jun 2: Late on a Monday");
    await expect(send(database, ownerId, project.id, update.id)).rejects.toMatchObject({ code: "conflict" });
  });

  it(`allows ${SEND_NOW_LIMIT.max} Send nows per project per day, then says when the next one can go, counted in the database`, async () => {
    const database = getDb();
    const ownerId = await createUser(database.db);
    const project = await createProject(database.db, { ownerId, title: "Harbor Busy" });
    const other = await createProject(database.db, { ownerId, title: "Harbor Quiet" });
    const fans = await followers(database, project.id, ["Gus"]);
    const post = (projectId: string, body: string) => postProjectUpdate(database.db, ownerId, projectId, parse(projectUpdateSchema, { body }), new Date("2027-07-01T08:00:00.000Z"));
    const sendAt = (projectId: string, updateId: string, at: string) =>
      sendUpdateNow(database.db, testMailLinks, ownerId, projectId, parse(sendUpdateNowSchema, { updateId }), "UTC", new Date(at));
    const updates = [];
    for (let i = 0; i < SEND_NOW_LIMIT.max + 1; i++) updates.push(await post(project.id, `Update ${i}`));
    for (let i = 0; i < SEND_NOW_LIMIT.max; i++) expect(await sendAt(project.id, updates[i]!.id, `2027-07-01T1${i}:00:00.000Z`)).toMatchObject({ queued: 1 });

    const refused = sendAt(project.id, updates[SEND_NOW_LIMIT.max]!.id, "2027-07-01T20:00:00.000Z");
    await expect(refused).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 14 * 60 * 60 });
    await expect(refused).rejects.toThrow(/3 updates now per day\. The next one can be sent from Jul 2, 2027, 10:00 AM \(UTC\)/);
    // Refused: the update was not taken, it waits for Friday's digest or tomorrow.
    const waiting = await database.db.selectFrom("project_updates").select("digest_slot").where("id", "=", updates[SEND_NOW_LIMIT.max]!.id).executeTakeFirstOrThrow();
    expect(waiting.digest_slot).toBeNull();
    expect(await digestsFor(database, fans)).toHaveLength(SEND_NOW_LIMIT.max);

    // Another project's allowance is its own; an update already sent takes nothing from it.
    const elsewhere = await post(other.id, "Quiet news");
    expect(await sendAt(other.id, elsewhere.id, "2027-07-01T20:00:00.000Z")).toEqual({ queued: 0, followers: 0, finished: true });
    await expect(sendAt(other.id, elsewhere.id, "2027-07-01T20:01:00.000Z")).rejects.toMatchObject({ code: "conflict" });

    // A day after the first, it can go.
    expect(await sendAt(project.id, updates[SEND_NOW_LIMIT.max]!.id, "2027-07-02T10:00:00.000Z")).toMatchObject({ queued: 1 });
  });
});
