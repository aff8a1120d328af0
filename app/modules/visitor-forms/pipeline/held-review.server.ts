import type { AppServices } from "~/services.server";
import { readHeldSubmission, takeHeldSubmission } from "~/modules/held/held-submissions.server";
import { validateSubmission, writeSubmission } from "./visitor-submission.server";

/**
 * The founder accepts a held form (decision 50): it is written as the visitor's post would have been, with the
 * time they sent it and the code they came through then, and everything a form's write does happens now: the
 * lead, its counters and funnel row, the booth's line, the webhooks, the founder's alert and the visitor's mail
 * (an intro's copy, a subscription's welcome, a signal's confirmation). The held row is taken in the same
 * transaction, so it is written once however many times it is accepted. Only the project's owner may; a form
 * whose schema has since changed (a tier removed) is answered with the schema's error and stays held.
 */
export async function acceptHeldSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks" | "mail" | "webhooks" | "alerts">,
  ownerId: string,
  projectId: string,
  heldId: string,
): Promise<{ name: string }> {
  const held = await readHeldSubmission(services.database.db, ownerId, projectId, heldId);
  const valid = validateSubmission(held.intent, held.submitted_fields);
  await writeSubmission(
    services,
    held.project_id,
    valid,
    { userId: held.user_id, identity: heldIdentity(held.browser_key), sent: { at: new Date(held.sent_at ?? held.received_at), source: held.source } },
    (trx) => takeHeldSubmission(trx, held.project_id, held.id),
  );
  services.mail.wake();
  services.webhooks.wake();
  services.alerts.wake();
  return { name: held.name };
}

/**
 * The viewer a held form came from, by the browser key it was held under (`{viewer}:{address hash}`, or the address
 * hash alone for a browser without a cookie): accepted, it ties that viewer's deck reading to the lead as a form
 * written at once would.
 */
function heldIdentity(browserKey: string) {
  const separator = browserKey.indexOf(":");
  return { viewerFingerprint: separator > 0 ? browserKey.slice(0, separator) : null, addressHash: null };
}
