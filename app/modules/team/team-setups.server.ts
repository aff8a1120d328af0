import { expressionBuilder, type ExpressionBuilder, type Kysely } from "kysely";
import type { Database, LeftoverKind } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { roleAllows, type ProjectRole } from "~/modules/access/roles";
import type { LeftoverInput } from "./team-forms";

export const LEFTOVER_NOT_FOUND_MESSAGE = "This was already kept or deleted.";
/** The id a project's one Slack channel has in `member_leftovers`. */
export const SLACK_ITEM_ID = "slack";

/**
 * A where-clause for the booth links or webhooks a query sends on: none that a removed member added and the owner
 * has not yet kept (decision 78).
 */
export function notALeftover<Table extends "booth_links" | "webhook_endpoints">(table: Table, kind: "booth" | "webhook") {
  const leftover = expressionBuilder<Database, "booth_links" | "webhook_endpoints">()
    .selectFrom("member_leftovers")
    .select("item_id")
    .whereRef("member_leftovers.project_id", "=", `${table}.project_id`)
    .where("member_leftovers.kind", "=", kind)
    .whereRef("member_leftovers.item_id", "=", `${table}.id`);
  return (eb: ExpressionBuilder<Database, Table>) => eb.not(eb.exists(leftover));
}

/** A webhook, the Slack channel, a booth link or a push device the project's alerts go to, and who added it. */
export type SetUpThing = {
  kind: LeftoverKind;
  id: string;
  /** The webhook's URL, the device's name; empty for the Slack channel and a booth link. */
  label: string;
  /** A booth link's end. */
  until: string | null;
  /** The name (or address) of who added it; null when they have no account any more. */
  addedBy: string | null;
};

/** What one member set up before they were removed or left: disabled, waiting for the owner's Keep or Delete. */
export type MemberLeftovers = { userId: string; name: string; things: SetUpThing[] };

export type TeamSetups = { things: SetUpThing[]; leftovers: MemberLeftovers[] };

type Found = SetUpThing & { adderId: string | null };

/** Every thing set up for the project (its team's push devices, and the devices a removed member left), with who added it. */
async function findThings(db: Kysely<Database>, projectId: string, ownerId: string, leftoverDevices: string[], now: Date): Promise<Found[]> {
  const [webhooks, slack, booths, devices] = await Promise.all([
    db.selectFrom("webhook_endpoints").select(["id", "url", "added_by"]).where("project_id", "=", projectId).orderBy("created_at").orderBy("id").execute(),
    db.selectFrom("project_alert_settings").select(["slack_url", "slack_added_by"]).where("project_id", "=", projectId).where("slack_url", "is not", null).executeTakeFirst(),
    db
      .selectFrom("booth_links")
      .select(["id", "expires_at", "added_by"])
      .where("project_id", "=", projectId)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .orderBy("expires_at", "desc")
      .orderBy("id", "desc")
      .execute(),
    db
      .selectFrom("push_subscriptions")
      .select(["id", "device", "user_id"])
      .where((eb) =>
        eb.or([
          eb("user_id", "=", ownerId),
          eb("user_id", "in", eb.selectFrom("project_members").select("user_id").where("project_id", "=", projectId)),
          ...(leftoverDevices.length ? [eb("id", "in", leftoverDevices)] : []),
        ]),
      )
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  return [
    ...webhooks.map((row) => ({ kind: "webhook" as const, id: row.id, label: row.url, until: null, adderId: row.added_by })),
    ...(slack ? [{ kind: "slack" as const, id: SLACK_ITEM_ID, label: "", until: null, adderId: slack.slack_added_by }] : []),
    ...booths.map((row) => ({ kind: "booth" as const, id: row.id, label: "", until: row.expires_at, adderId: row.added_by })),
    ...devices.map((row) => ({ kind: "push" as const, id: row.id, label: row.device, until: null, adderId: row.user_id })),
  ].map((thing) => ({ ...thing, addedBy: null }));
}

/**
 * What is set up for the project and who added it, for a role that may see the project's settings; and, for the
 * owner, what each removed member left, waiting for Keep or Delete.
 */
export async function loadTeamSetups(db: Kysely<Database>, project: { id: string; owner_id: string; role: ProjectRole }, now = new Date()): Promise<TeamSetups> {
  if (!roleAllows(project.role, "settings")) return { things: [], leftovers: [] };
  const leftoverRows = await db.selectFrom("member_leftovers").select(["kind", "item_id", "added_by"]).where("project_id", "=", project.id).orderBy("removed_at").orderBy("item_id").execute();
  const leftOver = new Map(leftoverRows.map((row) => [`${row.kind}:${row.item_id}`, row.added_by]));
  const found = await findThings(
    db,
    project.id,
    project.owner_id,
    leftoverRows.filter((row) => row.kind === "push").map((row) => row.item_id),
    now,
  );
  const userIds = [...new Set([...found.map((thing) => thing.adderId), ...leftoverRows.map((row) => row.added_by)].filter((id): id is string => id !== null))];
  const users = userIds.length ? await db.selectFrom("users").select(["id", "name", "email"]).where("id", "in", userIds).execute() : [];
  const names = new Map(users.map((user) => [user.id, user.name || user.email]));
  const things = found.map(({ adderId, ...thing }) => ({ ...thing, addedBy: adderId ? (names.get(adderId) ?? null) : null, leftBy: leftOver.get(`${thing.kind}:${thing.id}`) }));
  const leftovers = new Map<string, MemberLeftovers>();
  if (project.role === "owner") {
    for (const { leftBy, ...thing } of things) {
      if (!leftBy) continue;
      const member = leftovers.get(leftBy) ?? { userId: leftBy, name: names.get(leftBy) ?? "A former member", things: [] };
      member.things.push(thing);
      leftovers.set(leftBy, member);
    }
  }
  return { things: things.filter((thing) => !thing.leftBy).map(({ leftBy: _, ...thing }) => thing), leftovers: [...leftovers.values()] };
}

/**
 * Disables, inside the caller's transaction (the one that ends the membership), what the member set up for the
 * project: each webhook, the Slack channel, each booth link still working and each of their push devices is listed
 * for the owner, and nothing is delivered to it (what was queued is dropped) nor a booth opened with it until the
 * owner keeps it. Returns whether a booth link was disabled (its open screens are then told to recheck).
 */
export async function disableWhatMemberSetUp(trx: Kysely<Database>, projectId: string, memberId: string, now: Date): Promise<{ boothLinks: number }> {
  const [webhooks, slack, booths, devices] = await Promise.all([
    trx.selectFrom("webhook_endpoints").select("id").where("project_id", "=", projectId).where("added_by", "=", memberId).execute(),
    trx.selectFrom("project_alert_settings").select("project_id").where("project_id", "=", projectId).where("slack_url", "is not", null).where("slack_added_by", "=", memberId).executeTakeFirst(),
    trx
      .selectFrom("booth_links")
      .select("id")
      .where("project_id", "=", projectId)
      .where("added_by", "=", memberId)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .execute(),
    trx.selectFrom("push_subscriptions").select("id").where("user_id", "=", memberId).execute(),
  ]);
  const items: { kind: LeftoverKind; id: string }[] = [
    ...webhooks.map((row) => ({ kind: "webhook" as const, id: row.id })),
    ...(slack ? [{ kind: "slack" as const, id: SLACK_ITEM_ID }] : []),
    ...booths.map((row) => ({ kind: "booth" as const, id: row.id })),
    ...devices.map((row) => ({ kind: "push" as const, id: row.id })),
  ];
  if (items.length === 0) return { boothLinks: 0 };
  await trx
    .insertInto("member_leftovers")
    .values(items.map((item) => ({ project_id: projectId, kind: item.kind, item_id: item.id, added_by: memberId, removed_at: now.toISOString() })))
    .onConflict((oc) => oc.columns(["project_id", "kind", "item_id"]).doNothing())
    .execute();
  if (webhooks.length) {
    await trx
      .deleteFrom("webhook_deliveries")
      .where("endpoint_id", "in", webhooks.map((row) => row.id))
      .where("status", "=", "pending")
      .execute();
  }
  if (slack) await trx.deleteFrom("alert_deliveries").where("project_id", "=", projectId).where("channel", "=", "slack").where("status", "=", "pending").execute();
  if (devices.length) {
    await trx
      .deleteFrom("alert_deliveries")
      .where("project_id", "=", projectId)
      .where("push_subscription_id", "in", devices.map((row) => row.id))
      .where("status", "=", "pending")
      .execute();
  }
  return { boothLinks: booths.length };
}

/**
 * The owner's choice for one thing a removed member left. Keep: it works again, and is now the owner's (a push
 * device becomes the owner's device). Delete: the webhook is deleted, the Slack channel removed, the booth link
 * ended; a push device stays its person's but gets nothing of this project.
 */
export async function decideLeftover(db: Kysely<Database>, userId: string, projectId: string, input: LeftoverInput, now = new Date()): Promise<void> {
  const access = await requireProjectRole(db, userId, projectId, "team");
  await db.transaction().execute(async (trx) => {
    const decided = await trx
      .deleteFrom("member_leftovers")
      .where("project_id", "=", access.id)
      .where("kind", "=", input.kind)
      .where("item_id", "=", input.itemId)
      .executeTakeFirst();
    if (Number(decided.numDeletedRows) === 0) throw new DomainError("not_found", LEFTOVER_NOT_FOUND_MESSAGE);
    const owner = access.owner_id;
    const keep = input.decision === "keep";
    switch (input.kind) {
      case "webhook":
        if (keep) await trx.updateTable("webhook_endpoints").set({ added_by: owner }).where("id", "=", input.itemId).where("project_id", "=", access.id).execute();
        else await trx.deleteFrom("webhook_endpoints").where("id", "=", input.itemId).where("project_id", "=", access.id).execute();
        return;
      case "slack":
        await trx
          .updateTable("project_alert_settings")
          .set(keep ? { slack_added_by: owner } : { slack_url: null, slack_added_by: null })
          .where("project_id", "=", access.id)
          .execute();
        return;
      case "booth":
        await trx
          .updateTable("booth_links")
          .set(keep ? { added_by: owner } : { revoked_at: now.toISOString() })
          .where("id", "=", input.itemId)
          .where("project_id", "=", access.id)
          .execute();
        return;
      case "push":
        if (keep) await trx.updateTable("push_subscriptions").set({ user_id: owner }).where("id", "=", input.itemId).execute();
        return;
    }
  });
}
