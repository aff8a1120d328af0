import { expect, it } from "vitest";
import { validate } from "~/modules/forms/validation";
import { acceptTeamInvitation, inviteToTeam, loadTeam, readTeamInvitation } from "~/modules/team/team.server";
import { issueInvitationLink, teamProjectOfLink } from "~/modules/team/team-links.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const tokenOf = (joinUrl: string) => new URL(joinUrl).searchParams.get("token")!;

describeEachDialect("copying an invite link", (getDb) => {
  it("gives the owner a fresh working link for the same invitation; the one before stops working", async () => {
    const { db } = getDb();
    const project = await createProject(db, { title: "Harbor" });
    const email = `grace-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const invitation = await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role: "co-founder" }));
    const first = await issueInvitationLink(db, testMailLinks, project.ownerId, project.id, invitation.id);
    expect(first.email).toBe(email);
    expect(await readTeamInvitation(db, tokenOf(first.joinUrl))).toEqual({ kind: "open", projectTitle: "Harbor", email, role: "co-founder" });
    const second = await issueInvitationLink(db, testMailLinks, project.ownerId, project.id, invitation.id);
    expect(await readTeamInvitation(db, tokenOf(first.joinUrl))).toEqual({ kind: "refused", problem: "unknown" });
    expect(await readTeamInvitation(db, tokenOf(second.joinUrl))).toMatchObject({ kind: "open", email });
    expect((await loadTeam(db, project.ownerId, project.id)).invitations).toEqual([invitation]);

    const grace = await createUser(db, { email });
    await acceptTeamInvitation(db, { id: grace, email }, tokenOf(second.joinUrl));
    // Used: no link is issued for it any more, and it takes a member of the team to the project.
    await expect(issueInvitationLink(db, testMailLinks, project.ownerId, project.id, invitation.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await teamProjectOfLink(db, grace, tokenOf(second.joinUrl))).toBe(project.id);
    expect(await teamProjectOfLink(db, await createUser(db), tokenOf(second.joinUrl))).toBeNull();
  });

  it("is the owner's alone: a co-founder or a stranger gets no link, and the invitation's link is unchanged", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const coEmail = `ana-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const coInvitation = await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email: coEmail, role: "co-founder" }));
    const ana = await createUser(db, { email: coEmail });
    await acceptTeamInvitation(db, { id: ana, email: coEmail }, tokenOf((await issueInvitationLink(db, testMailLinks, project.ownerId, project.id, coInvitation.id)).joinUrl));
    const open = await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email: "sam@example.com", role: "staff" }));
    const link = await issueInvitationLink(db, testMailLinks, project.ownerId, project.id, open.id);

    await expect(issueInvitationLink(db, testMailLinks, ana, project.id, open.id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(issueInvitationLink(db, testMailLinks, await createUser(db), project.id, open.id)).rejects.toMatchObject({ code: "not_found" });
    const other = await createProject(db);
    await expect(issueInvitationLink(db, testMailLinks, other.ownerId, other.id, open.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await readTeamInvitation(db, tokenOf(link.joinUrl))).toMatchObject({ kind: "open", email: "sam@example.com" });
  });
});
