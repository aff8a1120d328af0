// Removing a member removes what they set up: the webhook, Slack channel, booth link and push devices they added
// get nothing (and open nothing) from the moment they leave, are listed to the owner as theirs, and the owner keeps
// (it works again, now the owner's) or deletes each.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { Database, MemberRole } from "~/db/schema";
import { checkBoothToken, createBoothLink, listActiveBoothLinks } from "~/modules/booth/booth-links.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { pushSubscriptionSchema } from "~/modules/founder-alerts/alert-channel-form";
import { addPushSubscription, saveSlackUrl } from "~/modules/founder-alerts/founder-alerts.server";
import { KNOWN_PUSH_SERVICES } from "~/modules/founder-alerts/push-services";
import { acceptTeamInvitation, inviteToTeam, leaveProject, loadTeam, removeMember } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { decideLeftover, LEFTOVER_NOT_FOUND_MESSAGE, SLACK_ITEM_ID } from "~/modules/team/team-setups.server";
import { addWebhookEndpoint } from "~/modules/webhooks/webhooks.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks, withEvents } from "../support/fixtures";
import { browserSubscription } from "../support/push-service";

const PUBLIC_DNS = async () => [{ address: "34.200.1.1", family: 4 }];
const POLICY = { allowPrivateTargets: false };
const SLACK_URL = "https://hooks.slack.com/services/T000/B000/XXXXXXXX";

async function member(db: Kysely<Database>, project: { id: string; ownerId: string }, role: MemberRole, name: string) {
  const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  await db.updateTable("users").set({ name }).where("id", "=", id).execute();
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, teamInvitationSchema.parse({ email, role }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!);
  return id;
}

/** Everything a co-founder can set up for the project: a webhook, the Slack channel, a booth link and a phone's pushes. */
async function setUpEverything(db: Kysely<Database>, userId: string, projectId: string) {
  const webhook = await addWebhookEndpoint(db, userId, projectId, { url: `https://hooks.example/${crypto.randomUUID()}` }, POLICY, PUBLIC_DNS);
  await saveSlackUrl(db, userId, projectId, { slackUrl: SLACK_URL }, POLICY, PUBLIC_DNS);
  const booth = await createBoothLink(db, userId, projectId, { days: 7, code: null });
  const phone = browserSubscription("https://fcm.googleapis.com", "Ana's phone");
  const device = await addPushSubscription(db, userId, projectId, pushSubscriptionSchema.parse(phone.input), KNOWN_PUSH_SERVICES);
  return { webhook: webhook.id, booth, device: device.id };
}

async function intro(db: Kysely<Database>, projectId: string) {
  await submitIntro(db, testMailLinks, projectId, introSchema.parse({ name: "Ada", email: `ada-${crypto.randomUUID().slice(0, 6)}@example.com`, note: "Hello" }), { userId: null });
}

/** What the project's latest lead queued: webhook deliveries per endpoint, and pushes and Slack posts per target. */
async function deliveriesSince(db: Kysely<Database>, projectId: string, since: string) {
  const [webhooks, alerts] = await Promise.all([
    db.selectFrom("webhook_deliveries").select("endpoint_id").where("project_id", "=", projectId).where("created_at", ">=", since).execute(),
    db.selectFrom("alert_deliveries").select("target").where("project_id", "=", projectId).where("created_at", ">=", since).execute(),
  ]);
  return { webhooks: webhooks.map((row) => row.endpoint_id), alerts: alerts.map((row) => row.target).sort() };
}

describeEachDialect("what a removed member set up", (getDb) => {
  it("the Team page says who added each thing; removal stops each at once and lists it to the owner alone", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await db.updateTable("users").set({ name: "Olive Owner" }).where("id", "=", project.ownerId).execute();
    const ana = await member(db, project, "co-founder", "Ana");
    const bob = await member(db, project, "co-founder", "Bob");
    const ana_ = await setUpEverything(db, ana, project.id);
    const boothToken = ana_.booth.token;

    const before = await loadTeam(db, bob, project.id);
    expect(before.setups.things.map((thing) => [thing.kind, thing.addedBy])).toEqual([
      ["webhook", "Ana"],
      ["slack", "Ana"],
      ["booth", "Ana"],
      ["push", "Ana"],
    ]);
    expect(before.setups.leftovers).toEqual([]);

    const { deps, published } = withEvents(db);
    await removeMember(deps, project.ownerId, project.id, ana);
    expect(published).toEqual([{ projectId: project.id, kind: "booth" }]);

    // Nothing goes to what Ana set up, and her booth link opens nothing.
    const since = new Date().toISOString();
    await intro(db, project.id);
    expect(await deliveriesSince(db, project.id, since)).toEqual({ webhooks: [], alerts: [] });
    expect(await checkBoothToken(db, project.id, boothToken)).toEqual({ kind: "ended" });
    expect(await listActiveBoothLinks(db, project.ownerId, project.id)).toEqual([]);

    // The owner sees it as what Ana set up; a co-founder sees it nowhere and cannot decide.
    const owners = await loadTeam(db, project.ownerId, project.id);
    expect(owners.setups.things).toEqual([]);
    expect(owners.setups.leftovers).toEqual([
      {
        userId: ana,
        name: "Ana",
        things: [
          { kind: "webhook", id: ana_.webhook, label: expect.stringMatching(/^https:\/\/hooks\.example\//), until: null, addedBy: "Ana" },
          { kind: "slack", id: SLACK_ITEM_ID, label: "", until: null, addedBy: "Ana" },
          { kind: "booth", id: ana_.booth.id, label: "", until: ana_.booth.expiresAt, addedBy: "Ana" },
          { kind: "push", id: ana_.device, label: "Ana's phone", until: null, addedBy: "Ana" },
        ],
      },
    ]);
    expect((await loadTeam(db, bob, project.id)).setups).toEqual({ things: [], leftovers: [] });
    await expect(decideLeftover(db, bob, project.id, { kind: "webhook", itemId: ana_.webhook, decision: "keep" })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("Keep makes a thing work again as the owner's; Delete removes it; a departed member's things wait the same way", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await db.updateTable("users").set({ name: "Olive Owner" }).where("id", "=", project.ownerId).execute();
    const ana = await member(db, project, "co-founder", "Ana");
    const things = await setUpEverything(db, ana, project.id);
    await leaveProject(withEvents(db).deps, ana, project.id);
    expect((await loadTeam(db, project.ownerId, project.id)).setups.leftovers.map((left) => [left.name, left.things.length])).toEqual([["Ana", 4]]);

    await decideLeftover(db, project.ownerId, project.id, { kind: "webhook", itemId: things.webhook, decision: "keep" });
    await decideLeftover(db, project.ownerId, project.id, { kind: "booth", itemId: things.booth.id, decision: "keep" });
    await decideLeftover(db, project.ownerId, project.id, { kind: "slack", itemId: SLACK_ITEM_ID, decision: "delete" });
    await decideLeftover(db, project.ownerId, project.id, { kind: "push", itemId: things.device, decision: "delete" });
    await expect(decideLeftover(db, project.ownerId, project.id, { kind: "push", itemId: things.device, decision: "keep" })).rejects.toMatchObject({
      code: "not_found",
      message: LEFTOVER_NOT_FOUND_MESSAGE,
    });

    const since = new Date().toISOString();
    await intro(db, project.id);
    // The kept webhook gets the lead again; the deleted Slack channel and the removed phone get nothing.
    expect(await deliveriesSince(db, project.id, since)).toEqual({ webhooks: [things.webhook], alerts: [] });
    expect(await checkBoothToken(db, project.id, things.booth.token)).toMatchObject({ kind: "valid" });
    const team = await loadTeam(db, project.ownerId, project.id);
    expect(team.setups.leftovers).toEqual([]);
    expect(team.setups.things.map((thing) => [thing.kind, thing.addedBy])).toEqual([
      ["webhook", "Olive Owner"],
      ["booth", "Olive Owner"],
    ]);
  });

  it("a kept push device is the owner's from then on, and gets the project's alerts again", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const sam = await member(db, project, "staff", "Sam");
    const phone = browserSubscription("https://fcm.googleapis.com", "Booth tablet");
    const device = await addPushSubscription(db, sam, project.id, pushSubscriptionSchema.parse(phone.input), KNOWN_PUSH_SERVICES);
    await removeMember(withEvents(db).deps, project.ownerId, project.id, sam);
    const gap = new Date().toISOString();
    await intro(db, project.id);
    expect((await deliveriesSince(db, project.id, gap)).alerts).toEqual([]);

    await decideLeftover(db, project.ownerId, project.id, { kind: "push", itemId: device.id, decision: "keep" });
    const since = new Date().toISOString();
    await intro(db, project.id);
    expect((await deliveriesSince(db, project.id, since)).alerts).toEqual([device.id]);
  });
});
