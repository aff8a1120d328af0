import type { Kysely, Updateable } from "kysely";
import type { Database, ProjectAlertSettingsTable } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { roleAllows } from "~/modules/access/roles";
import { resolveWebhookTarget, WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "~/modules/webhooks/webhook-target.server";
import {
  PUSH_ENDPOINT_REFUSED_MESSAGE,
  type AlertChannels,
  type AlertKind,
  type PushSubscriptionInput,
  type SlackUrlInput,
} from "./alert-channel-form";
import { isAllowedPushEndpoint, type PushService } from "./push-services";

const DEFAULT_CHANNELS: AlertChannels = {
  pushIntro: true,
  pushSignal: true,
  pushFollow: true,
  pushReading: true,
  slackIntro: true,
  slackSignal: true,
  slackFollow: true,
  slackReading: true,
};

export type AlertChannelSettings = { channels: AlertChannels; slackUrl: string | null };

async function channelSettingsOf(db: Kysely<Database>, projectId: string): Promise<AlertChannelSettings> {
  const row = await db
    .selectFrom("project_alert_settings")
    .select(["push_intro", "push_signal", "push_follow", "push_reading", "slack_intro", "slack_signal", "slack_follow", "slack_reading", "slack_url"])
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  if (!row) return { channels: DEFAULT_CHANNELS, slackUrl: null };
  return {
    channels: {
      pushIntro: row.push_intro,
      pushSignal: row.push_signal,
      pushFollow: row.push_follow,
      pushReading: row.push_reading,
      slackIntro: row.slack_intro,
      slackSignal: row.slack_signal,
      slackFollow: row.slack_follow,
      slackReading: row.slack_reading,
    },
    slackUrl: row.slack_url,
  };
}

/** A member's own push switches on a project (decision 61): on for every kind until they turn one off. */
async function memberPushOf(db: Kysely<Database>, projectId: string, userId: string): Promise<Pick<AlertChannels, "pushIntro" | "pushSignal" | "pushFollow" | "pushReading">> {
  const row = await db
    .selectFrom("member_alert_settings")
    .select(["push_intro", "push_signal", "push_follow", "push_reading"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row
    ? { pushIntro: row.push_intro, pushSignal: row.push_signal, pushFollow: row.push_follow, pushReading: row.push_reading }
    : { pushIntro: true, pushSignal: true, pushFollow: true, pushReading: true };
}

/** The project's Slack channel with the signed-in member's own push switches (the owner's are the project's). */
export async function getAlertChannelSettings(db: Kysely<Database>, userId: string, projectId: string): Promise<AlertChannelSettings> {
  const access = await requireProjectRole(db, userId, projectId, "view");
  const project = await channelSettingsOf(db, access.id);
  if (access.role === "owner") return project;
  return { ...project, channels: { ...project.channels, ...(await memberPushOf(db, access.id, userId)) } };
}

/** Upserts some of the project's alert settings, the others keeping their defaults or stored values. */
async function saveSettingsColumns(db: Kysely<Database>, projectId: string, values: Omit<Updateable<ProjectAlertSettingsTable>, "project_id">) {
  await db
    .insertInto("project_alert_settings")
    .values({ project_id: projectId, ...values })
    .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
    .execute();
}

/**
 * Saves the signed-in member's push switches (the owner's are the project's) and, for a role that may change the
 * project's settings, the Slack switches; a role that may not has no Slack switches on its form, and none are saved.
 */
export async function saveAlertChannels(db: Kysely<Database>, userId: string, projectId: string, input: AlertChannels): Promise<void> {
  const project = await requireProjectRole(db, userId, projectId, "view");
  const push = { push_intro: input.pushIntro, push_signal: input.pushSignal, push_follow: input.pushFollow, push_reading: input.pushReading };
  const slack = { slack_intro: input.slackIntro, slack_signal: input.slackSignal, slack_follow: input.slackFollow, slack_reading: input.slackReading };
  const mayChangeSlack = roleAllows(project.role, "settings");
  await db.transaction().execute(async (trx) => {
    if (project.role === "owner") await saveSettingsColumns(trx, project.id, { ...push, ...slack });
    else {
      await trx
        .insertInto("member_alert_settings")
        .values({ project_id: project.id, user_id: userId, ...push })
        .onConflict((oc) => oc.columns(["project_id", "user_id"]).doUpdateSet(push))
        .execute();
      if (mayChangeSlack) await saveSettingsColumns(trx, project.id, slack);
    }
  });
}

/**
 * Sets the project's Slack incoming webhook after checking where it points with the webhooks' rules: https, and
 * every address its host resolves to public (unless the operator allows internal targets). The shape
 * (`https://hooks.slack.com/…`) is the form schema's.
 */
export async function saveSlackUrl(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  input: SlackUrlInput,
  policy: WebhookTargetPolicy,
  resolve?: Resolver,
): Promise<void> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  try {
    await resolveWebhookTarget(input.slackUrl, policy, resolve);
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw new DomainError("invalid_input", error.message, { slackUrl: error.message });
    throw error;
  }
  await db.transaction().execute(async (trx) => {
    await saveSettingsColumns(trx, project.id, { slack_url: input.slackUrl, slack_added_by: ownerId });
    await trx.deleteFrom("member_leftovers").where("project_id", "=", project.id).where("kind", "=", "slack").execute();
  });
}

/** Removes the Slack channel; posts already queued for it are dropped. */
export async function removeSlackUrl(db: Kysely<Database>, ownerId: string, projectId: string): Promise<void> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  await db.transaction().execute(async (trx) => {
    await saveSettingsColumns(trx, project.id, { slack_url: null, slack_added_by: null });
    await trx.deleteFrom("member_leftovers").where("project_id", "=", project.id).where("kind", "=", "slack").execute();
    await trx.deleteFrom("alert_deliveries").where("project_id", "=", project.id).where("channel", "=", "slack").where("status", "=", "pending").execute();
  });
}

export type PushDevice = { id: string; device: string; endpoint: string; createdAt: string };

/**
 * Turns notifications on for one of the founder's devices, from the settings of one of their projects (a device
 * gets every project's pushes, as each project's switches allow): its subscription is kept if its endpoint is on a
 * push service we deliver to (`services`); subscribing the same browser again replaces its keys (and its founder,
 * when another one signed in on it).
 */
export async function addPushSubscription(
  db: Kysely<Database>,
  userId: string,
  projectId: string,
  input: PushSubscriptionInput,
  services: readonly PushService[],
  now = new Date(),
): Promise<PushDevice> {
  await requireProjectRole(db, userId, projectId, "view");
  if (!isAllowedPushEndpoint(input.endpoint, services)) throw new DomainError("invalid_input", PUSH_ENDPOINT_REFUSED_MESSAGE, { endpoint: PUSH_ENDPOINT_REFUSED_MESSAGE });
  const values = { user_id: userId, p256dh: input.p256dh, auth: input.auth, device: input.device };
  const row = await db
    .insertInto("push_subscriptions")
    .values({ id: crypto.randomUUID(), endpoint: input.endpoint, created_at: now.toISOString(), ...values })
    .onConflict((oc) => oc.column("endpoint").doUpdateSet(values))
    .returning(["id", "device", "endpoint", "created_at"])
    .executeTakeFirstOrThrow();
  return { id: row.id, device: row.device, endpoint: row.endpoint, createdAt: row.created_at };
}

/** Turns notifications off on one device: only that subscription of this founder goes (with its queued pushes). */
export async function removePushSubscription(db: Kysely<Database>, userId: string, projectId: string, endpoint: string): Promise<boolean> {
  await requireProjectRole(db, userId, projectId, "view");
  const deleted = await db.deleteFrom("push_subscriptions").where("endpoint", "=", endpoint).where("user_id", "=", userId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export async function listPushDevices(db: Kysely<Database>, userId: string): Promise<PushDevice[]> {
  const rows = await db.selectFrom("push_subscriptions").select(["id", "device", "endpoint", "created_at"]).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
  return rows.map((row) => ({ id: row.id, device: row.device, endpoint: row.endpoint, createdAt: row.created_at }));
}

/** Whether the project's Slack channel was set by a member since removed, and waits for the owner (decision 78). */
async function isSlackLeftOver(db: Kysely<Database>, projectId: string): Promise<boolean> {
  const row = await db.selectFrom("member_leftovers").select("item_id").where("project_id", "=", projectId).where("kind", "=", "slack").executeTakeFirst();
  return row !== undefined;
}

/** A lead's action, as a push and a Slack post tell it. */
export type LeadAlertEvent = {
  /** The event's id (the webhook payload's): each target gets it once. */
  id: string;
  project: { id: string; title: string };
  leadId: string;
  kind: AlertKind;
  name: string;
  /** The code the visitor came through, named (`leadEventOf`), or null when not known. */
  eventSource: string | null;
  at: string;
};

/**
 * What every channel renders: the line, the project, and the lead in the inbox (a path; made absolute when sent);
 * `link` names the path in Slack when it is not a lead ("Open the lead").
 */
export type AlertMessage = { title: string; body: string; path: string; tag: string; link?: string };

const KIND_PHRASES: Record<AlertKind, string> = {
  intro: "requested an intro",
  signal: "sent a signal of interest",
  follow: "now follows your updates",
  reading: "is reading your deck",
};

/** "Ana Kovač requested an intro — Demo Day hall A" (decision 56). */
export function alertMessageOf(event: LeadAlertEvent): AlertMessage {
  const source = event.eventSource ? ` — ${event.eventSource}` : "";
  return {
    title: `${event.name} ${KIND_PHRASES[event.kind]}${source}`,
    body: event.project.title,
    path: `/project/${encodeURIComponent(event.project.id)}/leads?lead=${encodeURIComponent(event.leadId)}`,
    tag: `lead-${event.leadId}`,
  };
}

const KIND_COLUMNS = {
  intro: { push: "pushIntro", slack: "slackIntro" },
  signal: { push: "pushSignal", slack: "slackSignal" },
  follow: { push: "pushFollow", slack: "slackFollow" },
  reading: { push: "pushReading", slack: "slackReading" },
} as const satisfies Record<AlertKind, { push: keyof AlertChannels; slack: keyof AlertChannels }>;

const MEMBER_PUSH_COLUMNS = {
  intro: "member_alert_settings.push_intro",
  signal: "member_alert_settings.push_signal",
  follow: "member_alert_settings.push_follow",
  reading: "member_alert_settings.push_reading",
} as const satisfies Record<AlertKind, string>;

/**
 * Queues the event's pushes (one per device of each team member who wants this kind) and its Slack post, as the project's settings
 * say for this kind, inside the caller's transaction (the visitor's write): a delivery exists exactly when the
 * event does. Returns how many were queued.
 */
export async function queueLeadAlerts(trx: Kysely<Database>, event: LeadAlertEvent): Promise<number> {
  return queueAlert(trx, { id: event.id, projectId: event.project.id, kind: event.kind, message: alertMessageOf(event), at: event.at });
}

/** One alert of a kind, its message made: what `queueLeadAlerts` queues, and what tells of a reader who is no lead. */
export type ProjectAlert = { id: string; projectId: string; kind: AlertKind; message: AlertMessage; at: string };

/** Queues an alert's pushes and Slack post as `queueLeadAlerts` does, inside the caller's transaction. */
export async function queueAlert(trx: Kysely<Database>, event: ProjectAlert): Promise<number> {
  const settings = await channelSettingsOf(trx, event.projectId);
  const columns = KIND_COLUMNS[event.kind];
  const pushOn = settings.channels[columns.push];
  const slackUrl = settings.channels[columns.slack] && !(await isSlackLeftOver(trx, event.projectId)) ? settings.slackUrl : null;
  const memberColumn = MEMBER_PUSH_COLUMNS[event.kind];
  const [ownerDevices, memberDevices] = await Promise.all([
    pushOn
      ? trx
          .selectFrom("push_subscriptions")
          .innerJoin("projects", "projects.owner_id", "push_subscriptions.user_id")
          .select("push_subscriptions.id")
          .where("projects.id", "=", event.projectId)
          .execute()
      : [],
    // Each member's devices, as that member's own switch for this kind says (on until turned off; decision 61).
    trx
      .selectFrom("push_subscriptions")
      .innerJoin("project_members", "project_members.user_id", "push_subscriptions.user_id")
      .leftJoin("member_alert_settings", (join) =>
        join.onRef("member_alert_settings.project_id", "=", "project_members.project_id").onRef("member_alert_settings.user_id", "=", "project_members.user_id"),
      )
      .select("push_subscriptions.id")
      .where("project_members.project_id", "=", event.projectId)
      .where((eb) => eb.or([eb(memberColumn, "is", null), eb(memberColumn, "=", true)]))
      .execute(),
  ]);
  const devices = [...ownerDevices, ...memberDevices];
  if (devices.length === 0 && !slackUrl) return 0;
  const payload = JSON.stringify(event.message);
  const common = { project_id: event.projectId, event_id: event.id, payload, next_attempt_at: event.at, created_at: event.at, locked_until: null, last_error: null, response_status: null, delivered_at: null };
  const rows = [
    ...devices.map((device) => ({ ...common, id: crypto.randomUUID(), channel: "push" as const, push_subscription_id: device.id, slack_url: null, target: device.id })),
    ...(slackUrl ? [{ ...common, id: crypto.randomUUID(), channel: "slack" as const, push_subscription_id: null, slack_url: slackUrl, target: "slack" }] : []),
  ];
  if (rows.length === 0) return 0;
  await trx
    .insertInto("alert_deliveries")
    .values(rows)
    .onConflict((oc) => oc.columns(["target", "event_id"]).doNothing())
    .execute();
  return rows.length;
}
