// Founder alerts on instances of the built app sharing one PostgreSQL: the app's settings for a push service and a
// Slack of the test's own on 127.0.0.1, a founder whose phone and Slack channel are set through the domain functions
// the settings page calls, and visitors' intros sent over HTTP to any instance.
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { pushSubscriptionSchema } from "~/modules/founder-alerts/alert-channel-form";
import { addPushSubscription, saveSlackUrl } from "~/modules/founder-alerts/founder-alerts.server";
import { KNOWN_PUSH_SERVICES } from "~/modules/founder-alerts/push-services";
import { validate } from "~/modules/forms/validation";
import { nextClientAddress } from "./clients";
import type { AppServer } from "./app-server";
import { PHONE_USER_AGENT } from "./demo-on-postgres";
import { createProject } from "./fixtures";
import { browserSubscription, type startTestPushService } from "./push-service";

type PushServiceForTests = Awaited<ReturnType<typeof startTestPushService>>;

/**
 * The app's settings for alerts that stay on this machine: the test's push service allowed, and Slack posts allowed
 * to a loopback address over plain HTTP (the operator's switch for internal targets), since hooks.slack.com is not
 * reachable here.
 */
export function localAlertEnv(pushService: PushServiceForTests): Record<string, string> {
  return { PUSH_SERVICE_ORIGINS: pushService.origin, WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" };
}

/** A Slack incoming-webhook URL on a test receiver listening on `port`. */
export const localSlackUrl = (port: number, channel: string) => `http://127.0.0.1:${port}/services/T0000TEST/B0000TEST/${channel}`;

/**
 * A founder with a published project, one phone subscribed on `pushService` and the project's Slack channel at
 * `slackUrl`, every alert switch on (the default).
 */
export async function founderWithAlerts(db: Kysely<Database>, pushService: PushServiceForTests, slackUrl: string, title: string) {
  const project = await createProject(db, { title });
  const phone = browserSubscription(pushService.origin);
  const subscription = validate(pushSubscriptionSchema, phone.input);
  if (!subscription.ok) throw new Error(`fixture invalid: ${subscription.formError}`);
  await addPushSubscription(db, project.ownerId, project.id, subscription.data, [...KNOWN_PUSH_SERVICES, pushService.service]);
  await saveSlackUrl(db, project.ownerId, project.id, { slackUrl }, { allowPrivateTargets: true });
  return { projectId: project.id, phone };
}

/** A visitor's intro request, as the pitch page's form sends it, from a client address of its own; throws unless it was taken. */
export async function sendIntro(app: AppServer, projectId: string, name: string): Promise<void> {
  const response = await fetch(`${app.url}/api/functions/submit-intro`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, "user-agent": PHONE_USER_AGENT, "x-forwarded-for": nextClientAddress() },
    body: JSON.stringify({ projectId, contact: { name, email: `${name.toLowerCase().replace(/\W+/g, ".")}.${process.pid}@example.com` }, note: "Met at the booth" }),
  });
  const body = (await response.json()) as { success?: boolean; held?: boolean };
  if (response.status !== 200 || !body.success || body.held) throw new Error(`the intro answered ${response.status}: ${JSON.stringify(body)}`);
}

/** The visitor's name at the start of a push's or Slack post's line ("Ana Kovač requested an intro"). */
export const visitorNamed = (line: string) => line.replace(/ requested an intro.*$/s, "");
