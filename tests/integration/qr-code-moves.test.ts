// Re-pointing a printed code needs the role that owns both ends (decision 79): a co-founder cannot take the owner's
// codes into a project of their own, the owner of both can, the code's home owner can always bring it back, and a
// code never stays in a project of someone who left its home's team.
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import type { ProjectRole } from "~/modules/access/roles";
import { validate } from "~/modules/forms/validation";
import { codeMovedTo } from "~/modules/pitch/moved-pitch.server";
import { listCodesAway, moveQrCodeBack } from "~/modules/qr/qr-code-moves.server";
import { createQrCode, listQrCodes, loadQrCodesSection, repointQrCode } from "~/modules/qr/qr-codes.server";
import { REPOINT_NOT_YOURS } from "~/modules/qr/qr-form";
import { acceptTeamInvitation, inviteToTeam, leaveProject, removeMember, transferOwnership } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { recordScans } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, TEST_PUBLIC_URL, testMailLinks, withEvents } from "../support/fixtures";

async function joinTeam(db: Kysely<Database>, project: { id: string; ownerId: string }, userId: string, role: Exclude<ProjectRole, "owner">) {
  const user = await db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow();
  const input = validate(teamInvitationSchema, { email: user.email, role });
  if (!input.ok) throw new Error(input.formError);
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, input.data);
  const mail = await db
    .selectFrom("mail_outbox")
    .select("text_body")
    .where("kind", "=", "team-invitation")
    .where("recipient", "=", user.email)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1] ?? "";
  await acceptTeamInvitation(db, { id: userId, email: user.email }, token);
}

const codeIds = async (db: Kysely<Database>, userId: string, projectId: string) => (await listQrCodes(db, userId, projectId)).map((code) => code.id);
const moves = (db: Kysely<Database>, qrCodeId: string) =>
  db.selectFrom("qr_code_moves").select(["from_project_id", "to_project_id"]).where("qr_code_id", "=", qrCodeId).orderBy("moved_at").orderBy("id").execute();

describeEachDialect("who may move a printed code", (get) => {
  it("a co-founder of the owner's project who owns another cannot move the owner's code into it; nothing changes", async () => {
    const { db } = get();
    const owners = await createProject(db, { title: "Harbor" });
    const coFounder = await createUser(db);
    const theirs = await createProject(db, { ownerId: coFounder, title: "Side Project" });
    await joinTeam(db, owners, coFounder, "co-founder");
    const code = await createQrCode(db, owners.ownerId, owners.id, { label: "Flyer", eventTag: null });

    await expect(repointQrCode(db, coFounder, owners.id, { qrCodeId: code.id, targetProjectId: theirs.id })).rejects.toMatchObject({
      code: "invalid_input",
      message: REPOINT_NOT_YOURS,
    });
    // Nor is it offered: a member who does not own this project is offered nowhere to move its codes.
    expect((await loadQrCodesSection(db, coFounder, owners.id, TEST_PUBLIC_URL)).repointTargets).toEqual([]);
    expect(await codeIds(db, owners.ownerId, owners.id)).toEqual([code.id]);
    expect(await moves(db, code.id)).toEqual([]);

    // A co-founder of both, owned by the same owner, may not move codes between them either: only the owner.
    const second = await createProject(db, { ownerId: owners.ownerId, title: "Orbit" });
    await joinTeam(db, second, coFounder, "co-founder");
    await expect(repointQrCode(db, coFounder, owners.id, { qrCodeId: code.id, targetProjectId: second.id })).rejects.toMatchObject({ message: REPOINT_NOT_YOURS });
    // The owner of a project may not push a code into a project they are only a co-founder of.
    const owned = await createQrCode(db, coFounder, theirs.id, { label: "Sticker", eventTag: null });
    await expect(repointQrCode(db, coFounder, theirs.id, { qrCodeId: owned.id, targetProjectId: owners.id })).rejects.toMatchObject({ message: REPOINT_NOT_YOURS });
  });

  it("a code's scans belong to the project they were made for: each project's table and card show its own part, the moved code both", async () => {
    const { db } = get();
    const home = await createProject(db, { title: "Harbor" });
    const other = await createProject(db, { ownerId: home.ownerId, title: "Orbit", status: "published" });
    const code = await createQrCode(db, home.ownerId, home.id, { label: "Demo Day", eventTag: null });
    const scan = (projectId: string, viewer: string) => ({ projectId, qrCodeId: code.id, viewerFingerprint: viewer });
    await recordScans(db, [scan(home.id, "a"), scan(home.id, "b"), scan(home.id, "b"), scan(home.id, "c")]);
    await repointQrCode(db, home.ownerId, home.id, { qrCodeId: code.id, targetProjectId: other.id });
    await recordScans(db, [scan(other.id, "d"), scan(other.id, "e")]);

    const homeAnalytics = await loadProjectAnalytics(db, home.ownerId, home.id);
    expect(homeAnalytics.qrCodes).toEqual([{ id: code.id, label: "Demo Day", eventTag: null, totalScans: 4, uniqueScans: 3, endedOn: null, movedAway: true }]);
    expect(homeAnalytics.qrCodes.reduce((sum, row) => sum + row.totalScans, 0)).toBe(homeAnalytics.totalScans);
    const otherAnalytics = await loadProjectAnalytics(db, home.ownerId, other.id);
    expect(otherAnalytics.qrCodes).toEqual([{ id: code.id, label: "Demo Day", eventTag: null, totalScans: 2, uniqueScans: 2, endedOn: null, movedAway: false }]);
    expect(otherAnalytics.totalScans).toBe(2);
    const card = (await loadQrCodesSection(db, home.ownerId, other.id, TEST_PUBLIC_URL)).codes.find((row) => row.id === code.id);
    expect([card?.here, card?.scansElsewhere]).toEqual([{ scans: 2, viewers: 2 }, 4]);
  });

  it("the owner of both moves a code and back; its home's owner brings it back from wherever it opens now", async () => {
    const { db } = get();
    const home = await createProject(db, { title: "Harbor" });
    const other = await createProject(db, { ownerId: home.ownerId, title: "Orbit" });
    const code = await createQrCode(db, home.ownerId, home.id, { label: "Demo Day", eventTag: null });
    expect((await loadQrCodesSection(db, home.ownerId, home.id, TEST_PUBLIC_URL)).repointTargets).toEqual([{ id: other.id, title: "Orbit" }]);

    await repointQrCode(db, home.ownerId, home.id, { qrCodeId: code.id, targetProjectId: other.id });
    expect(await codeMovedTo(db, code.id, home.id, null)).toBe(other.slug);
    expect(await listCodesAway(db, home.ownerId, home.id)).toEqual([{ id: code.id, label: "Demo Day", projectTitle: "Orbit" }]);
    await repointQrCode(db, home.ownerId, other.id, { qrCodeId: code.id, targetProjectId: home.id });
    expect(await codeIds(db, home.ownerId, home.id)).toEqual([code.id]);
    expect(await listCodesAway(db, home.ownerId, home.id)).toEqual([]);

    // Moved again, then Orbit is handed to someone else: Harbor's owner is now only a co-founder there, and still
    // brings the code home, from Harbor's page or from Orbit's.
    await repointQrCode(db, home.ownerId, home.id, { qrCodeId: code.id, targetProjectId: other.id });
    const newOwner = await createUser(db);
    await joinTeam(db, other, newOwner, "co-founder");
    await transferOwnership(db, home.ownerId, other.id, newOwner);
    await expect(moveQrCodeBack(db, newOwner, other.id, code.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(moveQrCodeBack(db, newOwner, home.id, code.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await moveQrCodeBack(db, home.ownerId, home.id, code.id)).toEqual({ label: "Demo Day" });
    expect(await codeIds(db, home.ownerId, home.id)).toEqual([code.id]);
    await expect(moveQrCodeBack(db, home.ownerId, home.id, code.id)).rejects.toMatchObject({ code: "conflict" });

    // Moving back from the current project's page, with only a co-founder's role there.
    const again = await createQrCode(db, home.ownerId, home.id, { label: "Banner", eventTag: null });
    await db.updateTable("qr_codes").set({ project_id: other.id }).where("id", "=", again.id).execute();
    await db.insertInto("qr_code_moves").values({ id: crypto.randomUUID(), qr_code_id: again.id, from_project_id: home.id, to_project_id: other.id, moved_at: new Date().toISOString() }).execute();
    await repointQrCode(db, home.ownerId, other.id, { qrCodeId: again.id, targetProjectId: home.id });
    expect((await codeIds(db, home.ownerId, home.id)).sort()).toEqual([code.id, again.id].sort());
  });

  it("a member removed or leaving takes no code with them: the team's codes in their projects come back, renamed on a clash", async () => {
    const { db } = get();
    const founder = await createUser(db);
    const home = await createProject(db, { ownerId: founder, title: "Harbor" });
    const side = await createProject(db, { ownerId: founder, title: "Side" });
    const flyer = await createQrCode(db, founder, home.id, { label: "Flyer", eventTag: null });
    const badge = await createQrCode(db, founder, home.id, { label: "Badge", eventTag: null });
    await repointQrCode(db, founder, home.id, { qrCodeId: flyer.id, targetProjectId: side.id });
    await repointQrCode(db, founder, home.id, { qrCodeId: badge.id, targetProjectId: side.id });
    // Harbor is handed to a co-founder; the founder stays a co-founder, with Harbor's codes in their Side project.
    const heir = await createUser(db);
    await joinTeam(db, home, heir, "co-founder");
    await transferOwnership(db, founder, home.id, heir);
    await createQrCode(db, heir, home.id, { label: "flyer", eventTag: null });

    await removeMember(withEvents(db).deps, heir, home.id, founder);
    const back = await listQrCodes(db, heir, home.id);
    expect(back.filter((code) => code.id === flyer.id || code.id === badge.id).map((code) => code.label).sort()).toEqual(["Badge", "Flyer (moved back)"]);
    expect(await codeIds(db, founder, side.id)).toEqual([]);
    expect(await codeMovedTo(db, flyer.id, side.id, null)).toBe(home.slug);
    expect((await moves(db, flyer.id)).at(-1)).toEqual({ from_project_id: side.id, to_project_id: home.id });

    // Leaving works the same way.
    const code = await createQrCode(db, heir, home.id, { label: "Poster", eventTag: null });
    const member = await createUser(db);
    const theirs = await createProject(db, { ownerId: member, title: "Theirs" });
    await joinTeam(db, { id: home.id, ownerId: heir }, member, "co-founder");
    // As decision 64 let a co-founder do before: the code moved to a project only they own.
    await db.updateTable("qr_codes").set({ project_id: theirs.id }).where("id", "=", code.id).execute();
    await db.insertInto("qr_code_moves").values({ id: crypto.randomUUID(), qr_code_id: code.id, from_project_id: home.id, to_project_id: theirs.id, moved_at: new Date().toISOString() }).execute();
    await leaveProject(withEvents(db).deps, member, home.id);
    expect(await codeIds(db, heir, home.id)).toContain(code.id);
    expect(await codeIds(db, member, theirs.id)).toEqual([]);
  });
});
