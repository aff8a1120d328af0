// Team invitations cannot be multiplied into roles: one open invitation per address and project (a unique index on
// both databases), and a link never changes the role of someone on the team nor lets a removed member back in.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppConfig } from "~/config.server";
import type { Database, MemberRole } from "~/db/schema";
import { signUp } from "~/modules/auth/gateway.server";
import { INVITATION_ENDED_MESSAGE, signUpAccess, TEAM_INVITATION_ADDRESS_MESSAGE } from "~/modules/auth/invitations.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import { migrateToLatest } from "~/db/migrate.server";
import { acceptTeamInvitation, changeMemberRole, INVITATION_CROSSED_MESSAGE, inviteToTeam, leaveProject, loadTeam, removeMember } from "~/modules/team/team.server";
import { INVITATION_PROBLEMS, teamInvitationSchema } from "~/modules/team/team-forms";
import { createTestDatabase, DIALECTS, describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, createUser, insertProjectRows, minutesAgo, testMailLinks, withEvents } from "../support/fixtures";
import { createTestAuth } from "../support/test-auth";

const invitation = (email: string, role: MemberRole) => teamInvitationSchema.parse({ email, role });

/** The token in the newest invitation mailed to `email`. */
async function mailedToken(db: Kysely<Database>, email: string): Promise<string> {
  const mail = await db
    .selectFrom("mail_outbox")
    .select("text_body")
    .where("kind", "=", "team-invitation")
    .where("recipient", "=", email)
    .orderBy("next_attempt_at", "desc")
    .executeTakeFirstOrThrow();
  return /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
}

/**
 * A second open link to an address that is already on the team, as the race between concurrent invitations left
 * them before the unique index: the index allows it only because the address's first link was used.
 */
async function spareLink(db: Kysely<Database>, projectId: string, email: string, role: MemberRole, invitedBy: string): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  await db
    .insertInto("team_invitations")
    .values({
      id: crypto.randomUUID(),
      project_id: projectId,
      email,
      role,
      token_hash: crypto.createHash("sha256").update(token).digest("hex"),
      invited_by: invitedBy,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

async function openLinks(db: Kysely<Database>, projectId: string, email: string) {
  return db.selectFrom("team_invitations").select("id").where("project_id", "=", projectId).where("email", "=", email).where("accepted_at", "is", null).where("revoked_at", "is", null).execute();
}

describeEachDialect("one open team invitation per address", (getDb) => {
  it("ten invitations of one address sent at once leave exactly one working link, and one mail for it", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const email = `race-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => inviteToTeam(db, testMailLinks, project.ownerId, project.id, invitation(email, "co-founder"))));
    const refused = results.filter((result) => result.status === "rejected");
    for (const result of refused) expect(result.reason).toMatchObject({ code: "conflict", message: INVITATION_CROSSED_MESSAGE });
    expect(results.length - refused.length).toBeGreaterThanOrEqual(1);
    expect(await openLinks(db, project.id, email)).toHaveLength(1);

    // Of every link mailed, exactly one joins.
    const mails = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).execute();
    const userId = await createUser(db, { email });
    const joined = [];
    for (const mail of mails) {
      const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
      const outcome = await acceptTeamInvitation(db, { id: userId, email }, token).catch(() => null);
      if (outcome) joined.push(outcome);
    }
    expect(joined).toHaveLength(1);
  });

  it("a link to someone already on the team joins nothing and keeps their role, and says so", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const email = `kept-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const userId = await createUser(db, { email });
    await inviteToTeam(db, testMailLinks, project.ownerId, project.id, invitation(email, "co-founder"), minutesAgo(5));
    expect(await acceptTeamInvitation(db, { id: userId, email }, await mailedToken(db, email), minutesAgo(4))).toMatchObject({ keptRole: null });
    const spare = await spareLink(db, project.id, email, "co-founder", project.ownerId);
    await changeMemberRole(db, project.ownerId, project.id, { userId, role: "viewer" });

    expect(await acceptTeamInvitation(db, { id: userId, email }, spare)).toEqual({ projectId: project.id, ownerId: project.ownerId, keptRole: "viewer" });
    expect((await loadTeam(db, userId, project.id)).project.role).toBe("viewer");
  });

  it("removing or leaving withdraws the links still open to that address: a spare one does not bring them back", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    for (const leaves of [false, true]) {
      const email = `back-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const userId = await createUser(db, { email });
      await inviteToTeam(db, testMailLinks, project.ownerId, project.id, invitation(email, "viewer"));
      await acceptTeamInvitation(db, { id: userId, email }, await mailedToken(db, email));
      const spare = await spareLink(db, project.id, email, "co-founder", project.ownerId);
      if (leaves) await leaveProject(withEvents(db).deps, userId, project.id);
      else await removeMember(withEvents(db).deps, project.ownerId, project.id, userId);

      await expect(acceptTeamInvitation(db, { id: userId, email }, spare)).rejects.toMatchObject({ message: INVITATION_PROBLEMS.revoked });
      await expect(loadTeam(db, userId, project.id)).rejects.toMatchObject({ code: "not_found" });
      // The owner can invite them again: a new link, made after they left, works.
      await inviteToTeam(db, testMailLinks, project.ownerId, project.id, invitation(email, "staff"));
      await acceptTeamInvitation(db, { id: userId, email }, await mailedToken(db, email));
      expect((await loadTeam(db, userId, project.id)).project.role).toBe("staff");
    }
  });
});

describe.each(DIALECTS)("migration 0043 keeps the newest of an address's open invitations [%s]", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { upTo: "0041-scan-audience" });
  });
  afterAll(() => database.destroy());

  it("withdraws the older duplicates an earlier release left, then refuses a second open one", async () => {
    const { db } = database;
    const project = await insertProjectRows(db);
    const email = "twice@example.com";
    const ids = ["a", "b", "c"].map(() => crypto.randomUUID());
    for (const [index, id] of ids.entries()) {
      await db
        .insertInto("team_invitations")
        .values({
          id,
          project_id: project.id,
          email,
          role: "co-founder",
          token_hash: crypto.randomUUID(),
          invited_by: project.ownerId,
          created_at: minutesAgo(10 - index).toISOString(),
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          accepted_at: null,
          accepted_by: null,
          revoked_at: null,
        })
        .execute();
    }
    await migrateToLatest(db.withoutPlugins());
    expect((await openLinks(db, project.id, email)).map((row) => row.id)).toEqual([ids[2]]);
    await expect(spareLink(db, project.id, email, "viewer", project.ownerId)).rejects.toThrow();
  });
});

const INVITE_ONLY = {
  publicUrl: "http://pitch.test",
  publicOrigin: "http://pitch.test",
  authSecret: "integration-test-secret-that-is-long-enough-0123456789",
  signup: "invite",
} as AppConfig;

describeEachDialect("a team invitation under SIGNUP=invite", (getDb, dialect) => {
  it("admits a sign-up with the invited address only, and the new account then joins with the link", async () => {
    const database = getDb();
    const { db } = database;
    const auth = createTestAuth(database, dialect, INVITE_ONLY);
    const request = () => new Request("http://pitch.test/auth", { method: "POST", headers: { [CLIENT_IP_HEADER]: `10.9.0.${Math.floor(Math.random() * 250)}` } });
    const project = await createProject(db, { title: "Harbor" });
    const email = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await inviteToTeam(db, testMailLinks, project.ownerId, project.id, invitation(email, "staff"));
    const token = await mailedToken(db, email);
    const form = (address: string) => ({ email: address, password: "welcome-aboard", name: "", invitation: token, timeZone: "" });

    expect(await signUpAccess(db, "invite", token)).toMatchObject({ form: true, invitation: token, notice: `You are invited to join Harbor. Create your account with ${email}, then join the team.` });
    const stranger = `stranger-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await expect(signUp(auth, db, INVITE_ONLY, request(), form(stranger))).rejects.toMatchObject({ code: "forbidden", message: TEAM_INVITATION_ADDRESS_MESSAGE });
    expect(await db.selectFrom("users").select("id").where("email", "=", stranger).execute()).toEqual([]);

    const created = await signUp(auth, db, INVITE_ONLY, request(), form(email));
    expect(created.userId).toBeTruthy();
    await acceptTeamInvitation(db, { id: created.userId!, email }, token);
    expect((await loadTeam(db, created.userId!, project.id)).project.role).toBe("staff");
    // Used, the link admits no other sign-up.
    await expect(signUp(auth, db, INVITE_ONLY, request(), form(`late-${email}`))).rejects.toMatchObject({ code: "forbidden", message: INVITATION_ENDED_MESSAGE });
  });
});
