// Subscriptions the project's own team types in wait for the address (decision 79): a confirmation link instead of
// the welcome, and no update, Send now or Friday digest until the person confirms. A visitor's own form is single
// opt-in, as before, and confirms a pending one for the same address.
import pino from "pino";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { checkSubscriptionConfirmation, confirmSubscription } from "~/modules/contacts/subscription-confirmation.server";
import { validate } from "~/modules/forms/validation";
import { acceptTeamInvitation, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { projectUpdateSchema, sendUpdateNowSchema } from "~/modules/updates/project-update-form";
import { postProjectUpdate } from "~/modules/updates/project-updates.server";
import { countFollowers, sendUpdateNow } from "~/modules/updates/send-update-now.server";
import { DigestScheduler } from "~/modules/updates/weekly-digest.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

const logger = pino({ level: "silent" });

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const address = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const subscribe = (db: Kysely<Database>, projectId: string, email: string, userId: string | null) =>
  subscribeToUpdates(db, testMailLinks, projectId, parse(subscribeSchema, { consent: "on", name: "Met At Booth", email }), { userId });
const mailsTo = (db: Kysely<Database>, email: string) =>
  db.selectFrom("mail_outbox").select(["kind", "text_body", "created_at"]).where("recipient", "=", email).orderBy("created_at").orderBy("id").execute();
const confirmationToken = (text: string) => /\/follow\/confirm\?token=([A-Za-z0-9_%-]+)/.exec(text)?.[1] ?? "";

async function staffOf(db: Kysely<Database>, project: { id: string; ownerId: string }) {
  const email = address("staff");
  const id = await createUser(db, { email });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role: "staff" }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1] ?? "");
  return id;
}

describeEachDialect("subscriptions the team types in", (get) => {
  it("addresses the owner and staff type in get a confirmation, and no update until they confirm; the link confirms once", async () => {
    const { db } = get();
    const project = await createProject(db, { title: "Harbor Booth" });
    const staff = await staffOf(db, project);
    const typed = [address("ada"), address("bo"), address("cy")];
    await subscribe(db, project.id, typed[0]!, project.ownerId);
    await subscribe(db, project.id, typed[1]!, project.ownerId);
    await subscribe(db, project.id, typed[2]!, staff);
    for (const email of typed) expect((await mailsTo(db, email)).map((mail) => mail.kind)).toEqual(["subscription-confirmation"]);
    expect(await countFollowers(db, project.id)).toBe(0);

    // Three updates sent now and Friday's digest: nothing reaches an address that has not confirmed.
    for (const [i, body] of ["One", "Two", "Three"].entries()) {
      const update = await postProjectUpdate(db, project.ownerId, project.id, parse(projectUpdateSchema, { body }), new Date(`2027-08-0${i + 1}T10:00:00.000Z`));
      expect(await sendUpdateNow(db, testMailLinks, project.ownerId, project.id, parse(sendUpdateNowSchema, { updateId: update.id }), "UTC", new Date(`2027-08-0${i + 1}T11:00:00.000Z`))).toMatchObject({ queued: 0, followers: 0 });
    }
    await postProjectUpdate(db, project.ownerId, project.id, parse(projectUpdateSchema, { body: "Four" }), new Date("2027-08-04T10:00:00.000Z"));
    await new DigestScheduler(db, testMailLinks, { hour: 9, timeZone: "UTC" }, logger, { clock: () => new Date("2027-08-06T09:30:00.000Z") }).runOnce();
    for (const email of typed) expect((await mailsTo(db, email)).map((mail) => mail.kind)).toEqual(["subscription-confirmation"]);

    // Typing the address again mails nothing more.
    await subscribe(db, project.id, typed[0]!, project.ownerId);
    expect(await mailsTo(db, typed[0]!)).toHaveLength(1);

    // Opening the link changes nothing; its button confirms, once.
    const token = decodeURIComponent(confirmationToken((await mailsTo(db, typed[0]!))[0]!.text_body));
    expect(await checkSubscriptionConfirmation(db, token)).toEqual({ status: "valid", email: typed[0], projectTitle: "Harbor Booth" });
    expect(await countFollowers(db, project.id)).toBe(0);
    expect(await confirmSubscription(db, token)).toEqual({ status: "valid", email: typed[0], projectTitle: "Harbor Booth" });
    expect(await confirmSubscription(db, token)).toEqual({ status: "used" });
    expect(await checkSubscriptionConfirmation(db, "not-a-token")).toEqual({ status: "unknown" });
    expect(await countFollowers(db, project.id)).toBe(1);

    const next = await postProjectUpdate(db, project.ownerId, project.id, parse(projectUpdateSchema, { body: "Five" }), new Date("2027-08-09T10:00:00.000Z"));
    expect(await sendUpdateNow(db, testMailLinks, project.ownerId, project.id, parse(sendUpdateNowSchema, { updateId: next.id }), "UTC", new Date("2027-08-09T11:00:00.000Z"))).toMatchObject({ queued: 1, followers: 1 });
    expect((await mailsTo(db, typed[0]!)).map((mail) => mail.kind)).toEqual(["subscription-confirmation", "digest"]);
    expect((await mailsTo(db, typed[1]!)).map((mail) => mail.kind)).toEqual(["subscription-confirmation"]);
  });

  it("a visitor's own subscription is single opt-in as before, and confirms one the team typed in for the same address", async () => {
    const { db } = get();
    const project = await createProject(db, { title: "Harbor Visitors" });
    const visitor = address("dee");
    await subscribe(db, project.id, visitor, null);
    expect((await mailsTo(db, visitor)).map((mail) => mail.kind)).toEqual(["welcome"]);
    expect(await countFollowers(db, project.id)).toBe(1);

    // A signed-in founder of another project following this one is a visitor here.
    const otherFounder = await createUser(db);
    const theirs = address("eve");
    await subscribe(db, project.id, theirs, otherFounder);
    expect((await mailsTo(db, theirs)).map((mail) => mail.kind)).toEqual(["welcome"]);

    // The team typed an address in; the person then follows from the pitch page themselves.
    const typed = address("fay");
    await subscribe(db, project.id, typed, project.ownerId);
    expect(await countFollowers(db, project.id)).toBe(2);
    await subscribe(db, project.id, typed, null);
    // The confirmation went first; both can be stamped the same millisecond, so the order is read from their times.
    const typedMails = await mailsTo(db, typed);
    expect(typedMails.map((mail) => mail.kind).sort()).toEqual(["subscription-confirmation", "welcome"]);
    const sentAt = (kind: string) => new Date(typedMails.find((mail) => mail.kind === kind)!.created_at).getTime();
    expect(sentAt("subscription-confirmation")).toBeLessThanOrEqual(sentAt("welcome"));
    expect(await countFollowers(db, project.id)).toBe(3);
    // The team typing an address that already follows changes nothing.
    await subscribe(db, project.id, visitor, project.ownerId);
    expect(await mailsTo(db, visitor)).toHaveLength(1);
    expect(await countFollowers(db, project.id)).toBe(3);
  });
});
