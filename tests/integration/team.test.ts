import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { loadActivityFeed } from "~/modules/activity/activity.server";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { createBoothLink, listActiveBoothLinks } from "~/modules/booth/booth-links.server";
import { loadBoothScreen } from "~/modules/booth/booth.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { listHeldSubmissions } from "~/modules/held/held-submissions.server";
import { getLeadAlertSettings, saveLeadAlertSettings } from "~/modules/leads/inbox/lead-alerts.server";
import { loadReplyTemplate, logLeadCall, openReplyComposer, saveReplyTemplate, sendLeadReply } from "~/modules/leads/replies/lead-replies.server";
import { exportLeadVCards, leadVCard } from "~/modules/leads/capture/lead-vcards.server";
import { loadLeadSettings } from "~/modules/leads/inbox/lead-settings.server";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { setLeadTemperature, updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { saveQualifyingQuestion } from "~/modules/leads/inbox/qualifying-question.server";
import { leadReplySchema } from "~/modules/leads/replies/reply-form";
import { getEditableProject, isFounder, listTeamProjects, updateProject } from "~/modules/projects/founder-projects.server";
import { projectFormSchema, type ProjectFormInput } from "~/modules/projects/project-form";
import { loadPrintPageSheet } from "~/modules/qr/print-sheet.server";
import { createQrCode, deleteQrCode, listQrCodes, loadQrCodesSection, renderQrImages } from "~/modules/qr/qr-codes.server";
import { roleAllows, type ProjectAction, type ProjectRole } from "~/modules/access/roles";
import {
  acceptTeamInvitation,
  changeMemberRole,
  inviteToTeam,
  leaveProject,
  loadTeam,
  OWNER_CANNOT_LEAVE_MESSAGE,
  readTeamInvitation,
  removeMember,
  revokeTeamInvitation,
  transferOwnership,
} from "~/modules/team/team.server";
import { INVITATION_PROBLEMS, teamInvitationSchema } from "~/modules/team/team-forms";
import { listProjectUpdates, postProjectUpdate } from "~/modules/updates/project-updates.server";
import { addWebhookEndpoint, listWebhookEndpoints } from "~/modules/webhooks/webhooks.server";
import { setDeckDownload } from "~/modules/deck/deck-download.server";
import { loadDeckSection } from "~/modules/deck/deck-section.server";
import { removeDeck } from "~/modules/deck/remove-deck.server";
import { uploadDeck } from "~/modules/deck/upload-deck.server";
import { createDiskStore } from "~/modules/storage/disk-store.server";
import { makeDeckPdf } from "../support/deck-pdfs";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, minutesAgo, testMailLinks, withEvents } from "../support/fixtures";

const PUBLIC_URL = "https://pitch.example";
const DAY = 24 * 3_600_000;

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

/** The token of the newest invitation mailed to `email`, read from the link in the queued message. */
async function invitationTokenFor(db: Kysely<Database>, email: string): Promise<string> {
  const mail = await db
    .selectFrom("mail_outbox")
    .select("text_body")
    .where("kind", "=", "team-invitation")
    .where("recipient", "=", email)
    .orderBy("next_attempt_at", "desc")
    .executeTakeFirstOrThrow();
  const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
  if (!token) throw new Error("no invitation link in the mail");
  return token;
}

/**
 * A new user on the project's team with `role`, joined the way a person joins: invited by the owner, link accepted,
 * both at `at` when given (a test that reads members in the order they joined gives each its own minute).
 */
async function memberWith(db: Kysely<Database>, project: { id: string; ownerId: string }, role: Exclude<ProjectRole, "owner">, at?: Date) {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role }), at);
  await acceptTeamInvitation(db, { id, email }, await invitationTokenFor(db, email), at);
  return { id, email };
}

function projectInput(slug: string): ProjectFormInput {
  return parse(projectFormSchema, {
    title: "Harbor",
    slug,
    oneLiner: "Cold chain",
    summary: "",
    videoUrl: "",
    deckUrl: "",
    calendlyUrl: "",
    metrics: [],
    problemPoints: [],
    solutionPoints: [],
    status: "published",
    tiers: [{ rangeLabel: "Angel", rangeMin: 5000, rangeMax: 25000, perks: ["Updates"] }],
  });
}

type Target = { projectId: string; slug: string; qrCodeId: string; leadId: string; ownerId: string };
type Operation = { name: string; action: ProjectAction; run: (db: Kysely<Database>, userId: string, t: Target) => Promise<unknown> };

const ANY_LEAD = { action: null, event: null, status: null, q: null, after: null };
const drain = async (body: AsyncIterable<unknown>) => {
  for await (const chunk of body) void chunk;
};
const resolvesPublic = async () => [{ address: "93.184.216.34", family: 4 as const }];

const deckFiles = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-team-decks-"));
const deckStore = createDiskStore(deckFiles);
const deckPdf = Buffer.from(await makeDeckPdf(1));
afterAll(() => fs.rmSync(deckFiles, { recursive: true, force: true }));

/** Every founder function, with what it needs (decision 61). */
const OPERATIONS: Operation[] = [
  { name: "project read for editing", action: "edit", run: (db, u, t) => getEditableProject(db, u, t.projectId) },
  { name: "project update", action: "edit", run: (db, u, t) => updateProject(db, u, t.projectId, projectInput(t.slug)) },
  { name: "QR list", action: "view", run: (db, u, t) => listQrCodes(db, u, t.projectId) },
  { name: "QR codes page", action: "view", run: (db, u, t) => loadQrCodesSection(db, u, t.projectId, PUBLIC_URL) },
  { name: "QR download", action: "view", run: (db, u, t) => renderQrImages(db, u, PUBLIC_URL, t.slug, t.qrCodeId) },
  { name: "print sheet", action: "view", run: (db, u, t) => loadPrintPageSheet(db, u, PUBLIC_URL, t.projectId, t.qrCodeId, "a6") },
  { name: "QR create", action: "edit", run: (db, u, t) => createQrCode(db, u, t.projectId, { label: `x-${crypto.randomUUID().slice(0, 6)}`, eventTag: null }) },
  { name: "QR delete", action: "edit", run: (db, u, t) => deleteQrCode(db, u, t.projectId, t.qrCodeId) },
  { name: "updates list", action: "view", run: (db, u, t) => listProjectUpdates(db, u, t.projectId) },
  { name: "update post", action: "edit", run: (db, u, t) => postProjectUpdate(db, u, t.projectId, { body: "Shipped" }) },
  { name: "booth links", action: "edit", run: (db, u, t) => listActiveBoothLinks(db, u, t.projectId) },
  { name: "booth link create", action: "edit", run: (db, u, t) => createBoothLink(db, u, t.projectId, { days: 1, code: null }) },
  { name: "booth screen", action: "booth", run: (db, u, t) => loadBoothScreen(db, { kind: "member", userId: u }, t.projectId, PUBLIC_URL) },
  { name: "analytics", action: "view", run: (db, u, t) => loadProjectAnalytics(db, u, t.projectId) },
  { name: "CSV export", action: "export", run: async (db, u, t) => drain((await exportContactsCsv(db, u, t.projectId)).body) },
  { name: "leads inbox", action: "view", run: (db, u, t) => openLeadInbox(db, u, t.projectId, ANY_LEAD) },
  { name: "lead status and note", action: "triage", run: (db, u, t) => updateLeadTriage(db, u, t.projectId, { leadId: t.leadId, status: "contacted", note: "mine" }) },
  { name: "lead temperature", action: "triage", run: (db, u, t) => setLeadTemperature(db, u, t.projectId, { leadId: t.leadId, temperature: "hot" }) },
  { name: "lead call", action: "triage", run: (db, u, t) => logLeadCall(db, u, t.projectId, { leadId: t.leadId, note: "" }) },
  {
    name: "lead reply composer",
    action: "triage",
    run: (db, u, t) => openReplyComposer(db, testMailLinks, { id: u, name: "M", email: "m@example.com", timeZone: "UTC" }, t.projectId, t.leadId),
  },
  {
    name: "lead reply",
    action: "triage",
    run: (db, u, t) =>
      sendLeadReply(db, testMailLinks, { id: u, name: "M", email: "m@example.com", timeZone: "UTC" }, t.projectId, t.leadId, parse(leadReplySchema, { subject: "Hi", body: "Hello" })),
  },
  { name: "lead vCard", action: "export", run: (db, u, t) => leadVCard(db, u, t.projectId, t.leadId) },
  { name: "leads vCards", action: "export", run: async (db, u, t) => drain((await exportLeadVCards(db, u, t.projectId, ANY_LEAD)).body) },
  { name: "reply template read", action: "settings", run: (db, u, t) => loadReplyTemplate(db, testMailLinks, u, t.projectId) },
  { name: "reply template save", action: "settings", run: (db, u, t) => saveReplyTemplate(db, u, t.projectId, { subject: "Hi {first_name}", body: "Hello" }) },
  { name: "lead settings page", action: "view", run: (db, u, t) => loadLeadSettings(db, u, t.projectId) },
  { name: "qualifying question", action: "settings", run: (db, u, t) => saveQualifyingQuestion(db, u, t.projectId, null) },
  { name: "held submissions", action: "settings", run: (db, u, t) => listHeldSubmissions(db, u, t.projectId) },
  { name: "webhooks list", action: "settings", run: (db, u, t) => listWebhookEndpoints(db, u, t.projectId) },
  {
    name: "webhook add",
    action: "settings",
    run: (db, u, t) => addWebhookEndpoint(db, u, t.projectId, { url: "https://hooks.example/in" }, { allowPrivateTargets: false }, resolvesPublic),
  },
  { name: "team page", action: "view", run: (db, u, t) => loadTeam(db, u, t.projectId) },
  { name: "deck section", action: "view", run: (db, u, t) => loadDeckSection(db, u, t.projectId) },
  { name: "deck upload", action: "edit", run: (db, u, t) => uploadDeck(db, deckStore, u, t.projectId, { name: "deck.pdf", bytes: deckPdf }) },
  { name: "deck download setting", action: "edit", run: (db, u, t) => setDeckDownload(db, u, t.projectId, true) },
  { name: "deck remove", action: "edit", run: (db, u, t) => removeDeck(db, deckStore, u, t.projectId) },
  { name: "team invite", action: "team", run: (db, u, t) => inviteToTeam(db, testMailLinks, u, t.projectId, parse(teamInvitationSchema, { email: `new-${crypto.randomUUID().slice(0, 6)}@example.com`, role: "viewer" })) },
];

/** What a refused call must leave as it was: the project, its codes, its lead, its team and its updates. */
async function snapshot(db: Kysely<Database>, t: Target) {
  const [project, codes, lead, members, invitations, updates, hooks, links, decks] = await Promise.all([
    db.selectFrom("projects").select(["title", "slug", "owner_id", "question_prompt", "deck_id", "deck_download"]).where("id", "=", t.projectId).executeTakeFirstOrThrow(),
    db.selectFrom("qr_codes").select("id").where("project_id", "=", t.projectId).orderBy("id").execute(),
    db.selectFrom("leads").select(["status", "note", "temperature"]).where("id", "=", t.leadId).executeTakeFirstOrThrow(),
    db.selectFrom("project_members").select(["user_id", "role"]).where("project_id", "=", t.projectId).orderBy("user_id").execute(),
    db.selectFrom("team_invitations").select("id").where("project_id", "=", t.projectId).orderBy("id").execute(),
    db.selectFrom("project_updates").select("id").where("project_id", "=", t.projectId).orderBy("id").execute(),
    db.selectFrom("webhook_endpoints").select("id").where("project_id", "=", t.projectId).orderBy("id").execute(),
    db.selectFrom("lead_follow_ups").select("id").where("project_id", "=", t.projectId).orderBy("id").execute(),
    db.selectFrom("decks").select(["id", "status"]).where("project_id", "=", t.projectId).orderBy("id").execute(),
  ]);
  return { project, codes, lead, members, invitations, updates, hooks, links, decks };
}

async function teamProject(db: Kysely<Database>) {
  const project = await createProject(db);
  const { id: qrCodeId } = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "demo" });
  await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada", email: `ada-${crypto.randomUUID().slice(0, 6)}@example.com`, note: "n" }), { userId: null });
  const { id: leadId } = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).executeTakeFirstOrThrow();
  await uploadDeck(db, deckStore, project.ownerId, project.id, { name: "deck.pdf", bytes: deckPdf });
  return { projectId: project.id, slug: project.slug, ownerId: project.ownerId, qrCodeId, leadId };
}

const ROLES: ProjectRole[] = ["owner", "co-founder", "staff", "viewer"];

describeEachDialect("the role matrix: every founder function for every role", (getDb) => {
  describe.each(OPERATIONS)("$name ($action)", ({ action, run }) => {
    it("runs for the roles that allow it; refuses the others with 403 and a stranger with 404, changing nothing", async () => {
      const { db } = getDb();
      const target = await teamProject(db);
      const users: Record<ProjectRole, string> = {
        owner: target.ownerId,
        "co-founder": (await memberWith(db, { id: target.projectId, ownerId: target.ownerId }, "co-founder")).id,
        staff: (await memberWith(db, { id: target.projectId, ownerId: target.ownerId }, "staff")).id,
        viewer: (await memberWith(db, { id: target.projectId, ownerId: target.ownerId }, "viewer")).id,
      };
      const stranger = await createUser(db);
      const before = await snapshot(db, target);
      const refused = await run(db, stranger, target).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "not_found" });
      for (const role of ROLES.filter((candidate) => !roleAllows(candidate, action))) {
        const error = await run(db, users[role], target).catch((caught: unknown) => caught);
        expect(error, role).toMatchObject({ code: "forbidden" });
        expect((error as Error).message, role).toContain("does not allow this");
      }
      expect(await snapshot(db, target)).toEqual(before);
      // The roles that may, each on a fresh lead and code, as the earlier ones may have changed them.
      for (const role of ROLES.filter((candidate) => roleAllows(candidate, action))) {
        const fresh = { ...target, ...(await freshTargets(db, target)) };
        await expect(run(db, users[role], fresh), role).resolves.not.toThrow();
      }
    });
  });
});

async function freshTargets(db: Kysely<Database>, target: Target) {
  const { id: qrCodeId } = await createQrCode(db, target.ownerId, target.projectId, { label: `Code ${crypto.randomUUID().slice(0, 6)}`, eventTag: null });
  const email = `b-${crypto.randomUUID().slice(0, 6)}@example.com`;
  await submitIntro(db, testMailLinks, target.projectId, parse(introSchema, { name: "Bo", email, note: "n" }), { userId: null });
  const { id: leadId } = await db.selectFrom("leads").select("id").where("project_id", "=", target.projectId).where("email", "=", email).executeTakeFirstOrThrow();
  await uploadDeck(db, deckStore, target.ownerId, target.projectId, { name: "deck.pdf", bytes: deckPdf });
  return { qrCodeId, leadId };
}

describeEachDialect("team invitations", (getDb) => {
  it("admits the invited address once, with the role, and the member sees the project with it", async () => {
    const { db } = getDb();
    const project = await createProject(db, { title: "Harbor Cold Chain" });
    const email = "grace@example.com";
    const grace = await createUser(db, { email });
    await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email: "Grace@Example.com", role: "co-founder" }));
    const mail = await db.selectFrom("mail_outbox").select(["subject", "text_body"]).where("recipient", "=", email).executeTakeFirstOrThrow();
    expect(mail.subject).toBe("Founder invited you to Harbor Cold Chain");
    expect(mail.text_body).toContain("as Co-founder");
    const token = await invitationTokenFor(db, email);
    expect(await readTeamInvitation(db, token)).toEqual({ kind: "open", projectTitle: "Harbor Cold Chain", email, role: "co-founder" });
    expect(await isFounder(db, grace)).toBe(false);

    await acceptTeamInvitation(db, { id: grace, email }, token);
    expect((await listTeamProjects(db, grace)).map((card) => [card.id, card.role])).toEqual([[project.id, "co-founder"]]);
    expect(await isFounder(db, grace)).toBe(true);
    expect((await loadActivityFeed(db, grace)).length).toBeGreaterThanOrEqual(0);

    await expect(acceptTeamInvitation(db, { id: grace, email }, token)).rejects.toMatchObject({ message: INVITATION_PROBLEMS.used });
    expect(await readTeamInvitation(db, token)).toEqual({ kind: "refused", problem: "used" });
  });

  it("refuses an expired, withdrawn, unknown or someone else's link with its message, granting nothing", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const email = "sam@example.com";
    const sam = await createUser(db, { email });
    const mallory = await createUser(db, { email: "mallory@example.com" });
    // Each invitation gets its own minute, so "the newest mail" is never a tie between two made in one millisecond.
    const invite = (minutes: number) =>
      inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role: "staff" }), minutesAgo(minutes));

    await invite(3);
    const expiring = await invitationTokenFor(db, email);
    const later = new Date(Date.now() + 7 * DAY + 60_000);
    await expect(acceptTeamInvitation(db, { id: sam, email }, expiring, later)).rejects.toMatchObject({ message: INVITATION_PROBLEMS.expired });
    expect(await readTeamInvitation(db, expiring, later)).toEqual({ kind: "refused", problem: "expired" });
    await expect(acceptTeamInvitation(db, { id: mallory, email: "mallory@example.com" }, expiring)).rejects.toMatchObject({
      code: "forbidden",
      message: INVITATION_PROBLEMS.otherAddress,
    });

    const [open] = (await loadTeam(db, project.ownerId, project.id)).invitations;
    await revokeTeamInvitation(db, project.ownerId, project.id, open!.id);
    await expect(acceptTeamInvitation(db, { id: sam, email }, expiring)).rejects.toMatchObject({ message: INVITATION_PROBLEMS.revoked });
    await expect(acceptTeamInvitation(db, { id: sam, email }, "x".repeat(43))).rejects.toMatchObject({ code: "not_found", message: INVITATION_PROBLEMS.unknown });

    // A second invitation withdraws the first: only the newest link works.
    await invite(2);
    const first = await invitationTokenFor(db, email);
    await invite(1);
    const second = await invitationTokenFor(db, email);
    await expect(acceptTeamInvitation(db, { id: sam, email }, first)).rejects.toMatchObject({ message: INVITATION_PROBLEMS.revoked });
    expect(await db.selectFrom("project_members").selectAll().where("project_id", "=", project.id).execute()).toEqual([]);
    await acceptTeamInvitation(db, { id: sam, email }, second);
    expect((await loadTeam(db, sam, project.id)).members.map((member) => member.role)).toEqual(["owner", "staff"]);
  });

  it("refuses inviting someone already on the team, and bad input, sending nothing", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const member = await memberWith(db, { id: project.id, ownerId: project.ownerId }, "viewer");
    const mailsBefore = await db.selectFrom("mail_outbox").select("id").execute();
    await expect(inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email: member.email, role: "staff" }))).rejects.toMatchObject({
      code: "conflict",
    });
    expect(validate(teamInvitationSchema, { email: "not-an-address", role: "staff" })).toMatchObject({ ok: false, fieldErrors: { email: "Invalid email address" } });
    expect(validate(teamInvitationSchema, { email: "a@example.com", role: "owner" })).toMatchObject({ ok: false, fieldErrors: { role: "Choose a role" } });
    expect(await db.selectFrom("mail_outbox").select("id").execute()).toEqual(mailsBefore);
  });
});

describeEachDialect("ownership and leaving", (getDb) => {
  it("hands ownership to a co-founder (the old owner becomes one); the owner can neither leave nor be removed", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const ref = { id: project.id, ownerId: project.ownerId };
    // Members are listed in the order they joined: each joins (and the old owner becomes a member) in its own minute.
    const ana = await memberWith(db, ref, "co-founder", minutesAgo(3));
    const sam = await memberWith(db, ref, "staff", minutesAgo(2));

    await expect(leaveProject(withEvents(db).deps, project.ownerId, project.id)).rejects.toMatchObject({ message: OWNER_CANNOT_LEAVE_MESSAGE });
    await expect(removeMember(withEvents(db).deps, project.ownerId, project.id, project.ownerId)).rejects.toMatchObject({ message: OWNER_CANNOT_LEAVE_MESSAGE });
    await expect(transferOwnership(db, project.ownerId, project.id, sam.id)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(transferOwnership(db, ana.id, project.id, ana.id)).rejects.toMatchObject({ code: "forbidden" });

    await transferOwnership(db, project.ownerId, project.id, ana.id, minutesAgo(1));
    const team = await loadTeam(db, ana.id, project.id);
    expect(team.project.role).toBe("owner");
    expect(team.members.map((member) => [member.userId, member.role])).toEqual([
      [ana.id, "owner"],
      [sam.id, "staff"],
      [project.ownerId, "co-founder"],
    ]);
    // The former owner now needs the new owner for the team's changes.
    await expect(removeMember(withEvents(db).deps, project.ownerId, project.id, sam.id)).rejects.toMatchObject({ code: "forbidden" });
    await changeMemberRole(db, ana.id, project.id, { userId: sam.id, role: "viewer" });
    await expect(updateLeadTriageAs(db, sam.id, project.id)).rejects.toMatchObject({ code: "forbidden" });

    await leaveProject(withEvents(db).deps, sam.id, project.id);
    await expect(loadTeam(db, sam.id, project.id)).rejects.toMatchObject({ code: "not_found" });
    await removeMember(withEvents(db).deps, ana.id, project.id, project.ownerId);
    expect((await loadTeam(db, ana.id, project.id)).members.map((member) => member.role)).toEqual(["owner"]);
  });
});

async function updateLeadTriageAs(db: Kysely<Database>, userId: string, projectId: string) {
  return updateLeadTriage(db, userId, projectId, { leadId: crypto.randomUUID(), status: "contacted", note: null });
}

describeEachDialect("who changed a lead", (getDb) => {
  it("records each member's status, temperature and note changes and shows who, 'You' for the one looking", async () => {
    const { db } = getDb();
    const target = await teamProject(db);
    await db.updateTable("users").set({ name: "Grace Hopper" }).where("id", "=", target.ownerId).execute();
    const sam = await memberWith(db, { id: target.projectId, ownerId: target.ownerId }, "staff");
    await db.updateTable("users").set({ name: "Sam Staff" }).where("id", "=", sam.id).execute();

    await updateLeadTriage(db, sam.id, target.projectId, { leadId: target.leadId, status: "contacted", note: "Met at the booth" }, new Date("2026-11-27T10:00:00Z"));
    await setLeadTemperature(db, target.ownerId, target.projectId, { leadId: target.leadId, temperature: "hot" }, new Date("2026-11-27T10:05:00Z"));
    // Saving the same status and note again is no change, and adds no line.
    await updateLeadTriage(db, sam.id, target.projectId, { leadId: target.leadId, status: "contacted", note: "Met at the booth" }, new Date("2026-11-27T10:06:00Z"));
    await logLeadCall(db, sam.id, target.projectId, { leadId: target.leadId, note: "" }, new Date("2026-11-27T10:10:00Z"));

    const asOwner = (await openLeadInbox(db, target.ownerId, target.projectId, ANY_LEAD)).leads[0]!;
    const lines = asOwner.activity.filter((item) => item.kind === "change" || item.kind === "call");
    expect(lines.map((item) => (item.kind === "change" ? [item.field, item.value, item.by] : [item.kind, item.by]))).toEqual([
      ["call", { name: "Sam Staff", you: false }],
      ["temperature", "hot", { name: "Grace Hopper", you: true }],
      ["note", "Met at the booth", { name: "Sam Staff", you: false }],
      ["status", "contacted", { name: "Sam Staff", you: false }],
    ]);
    const asSam = (await openLeadInbox(db, sam.id, target.projectId, ANY_LEAD)).leads[0]!;
    expect(asSam.activity.find((item) => item.kind === "call")).toMatchObject({ by: { name: "Sam Staff", you: true } });
  });
});

describeEachDialect("alerts per member", (getDb) => {
  it("keeps each member's e-mail alert choice apart from the owner's", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const ana = await memberWith(db, { id: project.id, ownerId: project.ownerId }, "co-founder");
    await saveLeadAlertSettings(db, ana.id, project.id, { introAlerts: "daily", signalAlerts: "off" });
    expect(await getLeadAlertSettings(db, project.ownerId, project.id)).toEqual({ introAlerts: "instant", signalAlerts: "instant" });
    expect(await getLeadAlertSettings(db, ana.id, project.id)).toEqual({ introAlerts: "daily", signalAlerts: "off" });
  });
});
