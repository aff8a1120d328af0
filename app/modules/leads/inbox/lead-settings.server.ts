import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { roleAllows } from "~/modules/access/roles";
import { listWebhookEndpoints } from "~/modules/webhooks/webhooks.server";
import { getAlertChannelSettings, listPushDevices } from "~/modules/founder-alerts/founder-alerts.server";
import { getLeadAlertSettings } from "./lead-alerts.server";
import { readQualifyingQuestion } from "./qualifying-question.server";

/**
 * Lead settings for one project: every member's own alert e-mails, push switches and devices with notifications
 * on; for a role that may change the project's settings (decision 61), also the qualifying question, the Slack
 * switches and the webhooks with their latest deliveries.
 */
export async function loadLeadSettings(db: Kysely<Database>, userId: string, projectId: string) {
  const project = await requireProjectRole(db, userId, projectId, "view");
  const projectWide = roleAllows(project.role, "settings");
  const [alerts, webhooks, question, channels, devices] = await Promise.all([
    getLeadAlertSettings(db, userId, project.id),
    projectWide ? listWebhookEndpoints(db, userId, project.id) : [],
    projectWide ? readQualifyingQuestion(db, project.id) : null,
    getAlertChannelSettings(db, userId, project.id),
    listPushDevices(db, userId),
  ]);
  const pushDevices = devices.map((device) => ({ id: device.id, device: device.device, endpoint: device.endpoint }));
  return { project: { id: project.id, title: project.title, slug: project.slug }, projectRole: project.role, alerts, webhooks, question, channels, pushDevices };
}
