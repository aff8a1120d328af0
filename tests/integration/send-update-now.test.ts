// 'Send now' (decision 65): an update mailed to every current follower at once, once, with the digest's own e-mail;
// Friday's digest skips it afterwards. Every test uses its own addresses and weeks, so they share one database.
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
import { previewUpdateMails, sendUpdateNow } from "~/modules/updates/send-update-now.server";
import { DigestScheduler } from "~/modules/updates/weekly-digest.server";
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

    expect(await send(database, ownerId, project.id, update.id)).toEqual({ queued: 2 });
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
    expect(await send(database, coFounder, project.id, update.id)).toEqual({ queued: 1 });
  });
});
