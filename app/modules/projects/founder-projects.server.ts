import type { Kysely, Transaction } from "kysely";
import { isUniqueViolation } from "~/db/normalize.server";
import type { Database, Project, SignalTier } from "~/db/schema";
import { bumpContentVersion } from "./projects.server";
import { type ProjectFormInput } from "./project-form";
import { claimSlug, rememberSlug, slugTaken } from "./slug-history.server";
import { onTeamOf, requireProjectRole, rolesOn } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";

/** `qrCodeCount`: the project's codes, archived ones too; the slug field says they keep working when it changes. */
export type EditableProject = Project & { tiers: SignalTier[]; role: ProjectRole; qrCodeCount: number };

/** A project with its tiers, for a member whose role may edit it; anyone else learns nothing, not even that it exists. */
export async function getEditableProject(db: Kysely<Database>, userId: string, projectId: string): Promise<EditableProject> {
  const { role } = await requireProjectRole(db, userId, projectId, "edit");
  const project = await db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirstOrThrow();
  const [tiers, codes] = await Promise.all([
    db.selectFrom("signal_tiers").selectAll().where("project_id", "=", project.id).orderBy("sort_order").orderBy("id").execute(),
    db.selectFrom("qr_codes").select((eb) => eb.fn.countAll<number>().as("count")).where("project_id", "=", project.id).executeTakeFirstOrThrow(),
  ]);
  return { ...project, tiers, role, qrCodeCount: Number(codes.count) };
}

function projectColumns(input: ProjectFormInput) {
  return {
    title: input.title,
    slug: input.slug,
    one_liner: input.oneLiner,
    summary: input.summary,
    video_url: input.videoUrl,
    deck_url: input.deckUrl,
    calendly_url: input.calendlyUrl,
    metrics: input.metrics,
    problem_points: input.problemPoints,
    solution_points: input.solutionPoints,
    status: input.status,
  };
}

/** Replaces the project's tiers with the submitted list: kept ids are updated, others deleted, new ones added. */
async function saveTiers(trx: Transaction<Database>, projectId: string, tiers: ProjectFormInput["tiers"]) {
  const existing = new Set((await trx.selectFrom("signal_tiers").select("id").where("project_id", "=", projectId).execute()).map((row) => row.id));
  const kept = tiers.filter((tier) => tier.id && existing.has(tier.id)).map((tier) => tier.id!);
  const removed = [...existing].filter((id) => !kept.includes(id));
  if (removed.length) await trx.deleteFrom("signal_tiers").where("id", "in", removed).execute();
  for (const [index, tier] of tiers.entries()) {
    const values = { range_label: tier.rangeLabel, range_min: tier.rangeMin, range_max: tier.rangeMax, perks: tier.perks.filter(Boolean), sort_order: index };
    if (tier.id && existing.has(tier.id)) await trx.updateTable("signal_tiers").set(values).where("id", "=", tier.id).execute();
    else await trx.insertInto("signal_tiers").values({ id: crypto.randomUUID(), project_id: projectId, ...values }).execute();
  }
}

export async function createProject(db: Kysely<Database>, ownerId: string, input: ProjectFormInput): Promise<{ id: string; slug: string }> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("projects")
        .values({ id, owner_id: ownerId, ...projectColumns(input), last_shipped_at: null, created_at: now, updated_at: now })
        .execute();
      await claimSlug(trx, id, input.slug);
      await saveTiers(trx, id, input.tiers);
      await trx.insertInto("project_stats").values({ project_id: id }).onConflict((oc) => oc.column("project_id").doNothing()).execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
  return { id, slug: input.slug };
}

export async function updateProject(db: Kysely<Database>, userId: string, projectId: string, input: ProjectFormInput): Promise<{ id: string; slug: string }> {
  await requireProjectRole(db, userId, projectId, "edit");
  try {
    await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("projects").select("slug").where("id", "=", projectId).executeTakeFirstOrThrow();
      await trx
        .updateTable("projects")
        .set({ ...projectColumns(input), updated_at: new Date().toISOString() })
        .where("id", "=", projectId)
        .execute();
      // The new slug becomes this project's for good; the old one stays it, so printed codes keep opening it (decision 63).
      await rememberSlug(trx, projectId, before.slug);
      await claimSlug(trx, projectId, input.slug);
      await saveTiers(trx, projectId, input.tiers);
      await bumpContentVersion(trx, projectId);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
  return { id: projectId, slug: input.slug };
}

export type ProjectCard = Pick<Project, "id" | "title" | "slug" | "one_liner" | "status" | "created_at"> & {
  /** The signed-in user's role on it (decision 61). */
  role: ProjectRole;
  signals: number;
  intros: number;
  subscribers: number;
};

/** The projects whose team the user is on, newest first, with their role and counters (My Projects, Dashboard). */
export async function listTeamProjects(db: Kysely<Database>, userId: string): Promise<ProjectCard[]> {
  const rows = await db
    .selectFrom("projects")
    .leftJoin("project_stats", "project_stats.project_id", "projects.id")
    .select([
      "projects.id",
      "projects.title",
      "projects.slug",
      "projects.one_liner",
      "projects.status",
      "projects.created_at",
      "projects.owner_id",
      "project_stats.signals",
      "project_stats.intros",
      "project_stats.subscribers",
    ])
    .where(onTeamOf(userId))
    .orderBy("projects.created_at", "desc")
    .orderBy("projects.id", "desc")
    .execute();
  const roles = await rolesOn(db, userId, rows);
  return rows.map(({ owner_id: _owner, ...row }) => ({ ...row, role: roles.get(row.id) ?? "viewer", signals: Number(row.signals ?? 0), intros: Number(row.intros ?? 0), subscribers: Number(row.subscribers ?? 0) }));
}

/** A user is a founder if they own at least one project, or (decision 61) are on one's team. */
export async function isFounder(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("projects").select("id").where(onTeamOf(userId)).limit(1).executeTakeFirst();
  return Boolean(row);
}
