import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, WebhookDeliveryStatus } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { MAX_WEBHOOKS_PER_PROJECT, WEBHOOK_NOT_FOUND_MESSAGE, type WebhookEndpointInput } from "./webhook-form";
import { resolveWebhookTarget, WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "./webhook-target.server";
import { isRecordId } from "~/modules/http/id-shape";
import type { QualifyingAnswer } from "~/modules/leads/inbox/qualifying-answer";
import { notALeftover } from "~/modules/team/team-setups.server";

export type WebhookEventType = "lead.intro" | "lead.subscription" | "lead.signal";

/** 'Send a test event': what a receiver gets to check its setup; it names no lead and no action. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
export type WebhookTestPayload = { id: string; type: typeof WEBHOOK_TEST_EVENT; createdAt: string; project: WebhookPayload["project"]; test: true };

/** `answer`: the person's answer to the project's qualifying question with the question asked, null when none. */
export type WebhookAction =
  | { kind: "intro"; roleTags: string[]; linkedinUrl: string | null; note: string; answer: QualifyingAnswer | null }
  | { kind: "subscription" }
  | { kind: "signal"; tier: string; rangeMin: number; rangeMax: number | null; message: string | null; public: boolean; messagePublic: boolean; answer: QualifyingAnswer | null };

/**
 * How much of the deck on the project's page now the lead had read when the event was made, over all their views of
 * it (decision 99): pages with any time, the deck's pages, and whole seconds counted.
 */
export type WebhookDeckReading = { pagesRead: number; pageCount: number; secondsRead: number };

/** The JSON a receiver gets: what happened, on which project, by whom, through which event. */
export type WebhookPayload = {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  project: { id: string; title: string; slug: string };
  /** `deck`: their reading of the deck, null when the page shows no deck or they read none of it. */
  lead: { id: string; name: string; email: string; deck: WebhookDeckReading | null };
  action: WebhookAction;
  /** The event of the QR code the visitor came through, or 'unknown'. */
  sourceEvent: string;
};

/** `sha256=` + hex HMAC-SHA256 over `timestamp.body`, keyed by the endpoint's secret. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

const SECRET_PREFIX = "whsec_";

/**
 * The Standard Webhooks `webhook-signature` (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 over
 * `id.timestamp.body`, keyed by the bytes the secret's base64 after `whsec_` encodes, so a stock verifier checks it.
 * Secrets from before decision 56 are base64url, which Node decodes as well.
 */
export function signStandardWebhook(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  return `v1,${crypto.createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`;
}

/** A new delivery of an event (`body`, its JSON) to one endpoint, due when the event happened. */
function deliveryRow(endpointId: string, payload: WebhookPayload | WebhookTestPayload, body: string) {
  return {
    id: crypto.randomUUID(),
    endpoint_id: endpointId,
    project_id: payload.project.id,
    event_id: payload.id,
    event_type: payload.type,
    payload: body,
    next_attempt_at: payload.createdAt,
    locked_until: null,
    last_error: null,
    response_status: null,
    created_at: payload.createdAt,
    delivered_at: null,
  };
}

/**
 * Queues the event for every webhook of the project, inside the caller's transaction (the visitor's write), so a
 * delivery exists exactly when the event does. The (endpoint, event) pair is unique: queued once per endpoint. A
 * webhook a removed member added gets nothing until the owner keeps it (decision 78).
 */
export async function enqueueWebhookEvent(trx: Kysely<Database>, payload: WebhookPayload): Promise<number> {
  const endpoints = await trx
    .selectFrom("webhook_endpoints")
    .select("id")
    .where("project_id", "=", payload.project.id)
    .where(notALeftover("webhook_endpoints", "webhook"))
    .execute();
  if (endpoints.length === 0) return 0;
  const body = JSON.stringify(payload);
  await trx
    .insertInto("webhook_deliveries")
    .values(endpoints.map((endpoint) => deliveryRow(endpoint.id, payload, body)))
    .onConflict((oc) => oc.columns(["endpoint_id", "event_id"]).doNothing())
    .execute();
  return endpoints.length;
}

/**
 * Adds an endpoint after checking where its URL points (https, public addresses only unless the operator allows
 * internal ones). Returns the signing secret, which is shown to the founder this once.
 */
export async function addWebhookEndpoint(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  input: WebhookEndpointInput,
  policy: WebhookTargetPolicy,
  resolve?: Resolver,
): Promise<{ id: string; secret: string }> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  try {
    await resolveWebhookTarget(input.url, policy, resolve);
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw new DomainError("invalid_input", error.message, { url: error.message });
    throw error;
  }
  const existing = await db.selectFrom("webhook_endpoints").select((eb) => eb.fn.countAll<number>().as("count")).where("project_id", "=", project.id).executeTakeFirstOrThrow();
  if (Number(existing.count) >= MAX_WEBHOOKS_PER_PROJECT) {
    const message = `A project can have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`;
    throw new DomainError("conflict", message, { url: message });
  }
  const id = crypto.randomUUID();
  const secret = `${SECRET_PREFIX}${crypto.randomBytes(24).toString("base64")}`;
  await db.insertInto("webhook_endpoints").values({ id, project_id: project.id, url: input.url, secret, created_at: new Date().toISOString(), added_by: ownerId }).execute();
  return { id, secret };
}

/** The owner's endpoint of this project, or not found (another project's, or no id at all). */
async function ownedEndpoint(db: Kysely<Database>, ownerId: string, projectId: string, endpointId: string) {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  const endpoint = isRecordId(endpointId)
    ? await db.selectFrom("webhook_endpoints").select(["id", "paused_at"]).where("id", "=", endpointId).where("project_id", "=", project.id).executeTakeFirst()
    : undefined;
  if (!endpoint) throw new DomainError("not_found", WEBHOOK_NOT_FOUND_MESSAGE);
  return { project, endpoint };
}

/** What 'Send a test event' tells the founder: whether the receiver took it, and its answer or the failure. */
export type WebhookTestOutcome = { delivered: boolean; detail: string };

export const WEBHOOK_PAUSED_TEST_MESSAGE = "This webhook is paused: resume it first, then send a test event";
/** Longer than a delivery's own deadline, so the test's one attempt has settled by then. */
const TEST_EVENT_WAIT_MS = 12_000;
const TEST_EVENT_POLL_MS = 150;

/**
 * 'Send a test event': queues one `webhook.test` delivery to this endpoint alone, signed like any other and tried
 * once (decision 56), has a worker (`wake`) send it, and waits for its outcome, read from the database so it does not
 * matter which instance's worker posted it.
 */
export async function sendWebhookTestEvent(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  endpointId: string,
  wake: () => void,
  now = new Date(),
): Promise<WebhookTestOutcome> {
  const { project, endpoint } = await ownedEndpoint(db, ownerId, projectId, endpointId);
  if (endpoint.paused_at) throw new DomainError("conflict", WEBHOOK_PAUSED_TEST_MESSAGE);
  const payload: WebhookTestPayload = {
    id: crypto.randomUUID(),
    type: WEBHOOK_TEST_EVENT,
    createdAt: now.toISOString(),
    project: { id: project.id, title: project.title, slug: project.slug },
    test: true,
  };
  const queued = deliveryRow(endpoint.id, payload, JSON.stringify(payload));
  await db.insertInto("webhook_deliveries").values(queued).execute();
  wake();
  const deadline = Date.now() + TEST_EVENT_WAIT_MS;
  for (;;) {
    const delivery = await db.selectFrom("webhook_deliveries").select(["status", "response_status", "last_error"]).where("id", "=", queued.id).executeTakeFirst();
    if (!delivery) return { delivered: false, detail: "The webhook was deleted" };
    if (delivery.status === "sent") return { delivered: true, detail: `Your endpoint answered ${delivery.response_status}` };
    if (delivery.status === "failed") return { delivered: false, detail: `Not delivered: ${delivery.last_error ?? "no answer"}` };
    if (Date.now() >= deadline) return { delivered: false, detail: "Still queued: its outcome shows under the webhook" };
    await new Promise((resolve) => setTimeout(resolve, TEST_EVENT_POLL_MS));
  }
}

/** Resumes a paused endpoint: its failing clock starts again, and what waited for it is due now, oldest first. */
export async function resumeWebhookEndpoint(db: Kysely<Database>, ownerId: string, projectId: string, endpointId: string, now = new Date()): Promise<void> {
  const { endpoint } = await ownedEndpoint(db, ownerId, projectId, endpointId);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("webhook_endpoints").set({ paused_at: null, failing_since: null }).where("id", "=", endpoint.id).execute();
    await trx
      .updateTable("webhook_deliveries")
      .set({ next_attempt_at: now.toISOString() })
      .where("endpoint_id", "=", endpoint.id)
      .where("status", "=", "pending")
      .where("next_attempt_at", ">", now.toISOString())
      .execute();
  });
}

export async function deleteWebhookEndpoint(db: Kysely<Database>, ownerId: string, projectId: string, endpointId: string): Promise<void> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  if (!isRecordId(endpointId)) throw new DomainError("not_found", WEBHOOK_NOT_FOUND_MESSAGE);
  const deleted = await db.deleteFrom("webhook_endpoints").where("id", "=", endpointId).where("project_id", "=", project.id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new DomainError("not_found", WEBHOOK_NOT_FOUND_MESSAGE);
}

export type WebhookDeliveryView = {
  id: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string;
};

export type WebhookEndpointView = {
  id: string;
  url: string;
  createdAt: string;
  /** The first failure since the endpoint last answered 2xx; null while healthy. */
  failingSince: string | null;
  /** Set once it failed for three days: nothing is posted until the founder resumes it. */
  pausedAt: string | null;
  deliveries: WebhookDeliveryView[];
};

const RECENT_DELIVERIES = 10;

/** The project's webhooks with their latest deliveries (never the secrets), for the owner. */
export async function listWebhookEndpoints(db: Kysely<Database>, ownerId: string, projectId: string): Promise<WebhookEndpointView[]> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  const endpoints = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "url", "created_at", "failing_since", "paused_at"])
    .where("project_id", "=", project.id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return Promise.all(
    endpoints.map(async (endpoint) => {
      const deliveries = await db
        .selectFrom("webhook_deliveries")
        .select(["id", "event_type", "status", "attempts", "response_status", "last_error", "created_at", "delivered_at", "next_attempt_at"])
        .where("endpoint_id", "=", endpoint.id)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(RECENT_DELIVERIES)
        .execute();
      return {
        id: endpoint.id,
        url: endpoint.url,
        createdAt: endpoint.created_at,
        failingSince: endpoint.failing_since,
        pausedAt: endpoint.paused_at,
        deliveries: deliveries.map((delivery) => ({
          id: delivery.id,
          eventType: delivery.event_type,
          status: delivery.status,
          attempts: Number(delivery.attempts),
          responseStatus: delivery.response_status === null ? null : Number(delivery.response_status),
          lastError: delivery.last_error,
          createdAt: delivery.created_at,
          deliveredAt: delivery.delivered_at,
          nextAttemptAt: delivery.next_attempt_at,
        })),
      };
    }),
  );
}
