import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { Database, MemberRole } from "~/db/schema";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { getLeadAlertSettings } from "~/modules/leads/inbox/lead-alerts.server";
import { acceptTeamInvitation, changeMemberRole, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

/** A new user who joins the project's team with `role` the way a person does: invited by the owner, link accepted. */
async function joinAs(db: Kysely<Database>, project: { id: string; ownerId: string }, role: MemberRole, confirmed = true) {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email, confirmed });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1] ?? "";
  await acceptTeamInvitation(db, { id, email }, token);
  return { id, email };
}

async function introAlertsTo(db: Kysely<Database>, email: string): Promise<number> {
  const rows = await db.selectFrom("mail_outbox").select("id").where("kind", "=", "intro-alert").where("recipient", "=", email).execute();
  return rows.length;
}

describeEachDialect("a member's e-mail alerts before they choose", (getDb) => {
  it("a co-founder who joins has the owner's defaults and is mailed the next intro; staff and viewers none", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const ref = { id: project.id, ownerId: project.ownerId };
    const ownerDefaults = await getLeadAlertSettings(db, project.ownerId, project.id);
    const ana = await joinAs(db, ref, "co-founder");
    const sam = await joinAs(db, ref, "staff");
    const val = await joinAs(db, ref, "viewer");
    expect(await getLeadAlertSettings(db, ana.id, project.id)).toEqual(ownerDefaults);
    expect(await getLeadAlertSettings(db, sam.id, project.id)).toEqual({ introAlerts: "off", signalAlerts: "off" });
    expect(await getLeadAlertSettings(db, val.id, project.id)).toEqual({ introAlerts: "off", signalAlerts: "off" });

    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Bo", email: "bo@example.com", note: "n" }), { userId: null });
    expect(await introAlertsTo(db, ana.email)).toBe(1);
    expect(await introAlertsTo(db, sam.email)).toBe(0);
    expect(await introAlertsTo(db, val.email)).toBe(0);
  });

  it("follows the role: staff made co-founder get the defaults; an unconfirmed co-founder is mailed nothing until confirmed", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const ref = { id: project.id, ownerId: project.ownerId };
    const sam = await joinAs(db, ref, "staff");
    await changeMemberRole(db, project.ownerId, project.id, { userId: sam.id, role: "co-founder" });
    const newcomer = await joinAs(db, ref, "co-founder", false);
    expect(await getLeadAlertSettings(db, sam.id, project.id)).toEqual(await getLeadAlertSettings(db, project.ownerId, project.id));

    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Bo", email: "bo@example.com", note: "n" }), { userId: null });
    expect(await introAlertsTo(db, sam.email)).toBe(1);
    expect(await introAlertsTo(db, newcomer.email)).toBe(0);
  });
});
