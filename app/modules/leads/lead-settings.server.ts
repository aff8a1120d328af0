import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { assertOwner } from "~/modules/projects/founder-projects.server";
import { listWebhookEndpoints } from "~/modules/webhooks/webhooks.server";
import { getAlertChannelSettings, listPushDevices } from "~/modules/founder-alerts/founder-alerts.server";
import { getLeadAlertSettings } from "./lead-alerts.server";
import { readQualifyingQuestion } from "./qualifying-question.server";

/**
 * The owner's follow-up settings for one project: the qualifying question, alert e-mails, webhooks with their latest
 * deliveries, the push and Slack switches, and the founder's devices with notifications on.
 */
export async function loadLeadSettings(db: Kysely<Database>, ownerId: string, projectId: string) {
  const project = await assertOwner(db, ownerId, projectId);
  const [alerts, webhooks, question, channels, devices] = await Promise.all([
    getLeadAlertSettings(db, ownerId, project.id),
    listWebhookEndpoints(db, ownerId, project.id),
    readQualifyingQuestion(db, project.id),
    getAlertChannelSettings(db, ownerId, project.id),
    listPushDevices(db, ownerId),
  ]);
  const pushDevices = devices.map((device) => ({ id: device.id, device: device.device, endpoint: device.endpoint }));
  return { project: { id: project.id, title: project.title, slug: project.slug }, alerts, webhooks, question, channels, pushDevices };
}
