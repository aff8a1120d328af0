import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { initial } from "./migrations/0001-initial.server";
import { visitorActions } from "./migrations/0002-visitor-actions.server";
import { founderAnalytics } from "./migrations/0003-founder-analytics.server";
import { mailOutbox } from "./migrations/0004-mail-outbox.server";
import { projectUpdates } from "./migrations/0005-project-updates.server";
import { doorCounting } from "./migrations/0006-door-counting.server";
import { visitorSubmissionKeys } from "./migrations/0007-visitor-submission-keys.server";
import { leadInbox } from "./migrations/0008-lead-inbox.server";
import { attribution } from "./migrations/0009-attribution.server";
import { uniqueQrLabels } from "./migrations/0010-unique-qr-labels.server";
import { wallMessageChoice } from "./migrations/0011-wall-message-choice.server";
import { oneContactPerAddress } from "./migrations/0012-one-contact-per-address.server";
import { deliveryClaimOwner } from "./migrations/0013-delivery-claim-owner.server";
import { wallSequence } from "./migrations/0014-wall-sequence.server";
import { repeatSignals } from "./migrations/0015-repeat-signals.server";
import { digestBatches } from "./migrations/0016-digest-batches.server";
import { mailHandedOver } from "./migrations/0017-mail-handed-over.server";
import { boothLinks } from "./migrations/0018-booth-links.server";
import { pitchSaves } from "./migrations/0019-pitch-saves.server";
import { addressConfirmations } from "./migrations/0020-address-confirmations.server";
import { signupInvitations } from "./migrations/0021-signup-invitations.server";
import { alertLeadLinks } from "./migrations/0022-alert-lead-links.server";
import { submissionFingerprints } from "./migrations/0023-submission-fingerprints.server";
import { mailBlocks } from "./migrations/0024-mail-blocks.server";
import { heldSubmissions } from "./migrations/0025-held-submissions.server";
import { appFetches } from "./migrations/0026-app-fetches.server";
import { founderTimeZone } from "./migrations/0027-founder-time-zone.server";
import { leadSource } from "./migrations/0028-lead-source.server";
import { leadFirstResponse } from "./migrations/0029-lead-first-response.server";
import { leadTemperature } from "./migrations/0030-lead-temperature.server";
import { webhookEndpointHealth } from "./migrations/0031-webhook-endpoint-health.server";
import { qualifyingQuestion } from "./migrations/0032-qualifying-question.server";
import { leadReplies } from "./migrations/0033-lead-replies.server";
import { boothLinkCode } from "./migrations/0034-booth-link-code.server";
import { founderPush } from "./migrations/0035-founder-push.server";
import { projectTeams } from "./migrations/0036-project-teams.server";
import { leadCaptures } from "./migrations/0037-lead-captures.server";
import { slugHistory } from "./migrations/0038-slug-history.server";
import { codeLifecycle } from "./migrations/0039-code-lifecycle.server";
import { morningAfterReport } from "./migrations/0040-morning-after-report.server";
import { scanAudience } from "./migrations/0041-scan-audience.server";
import { outreachLimits } from "./migrations/0042-outreach-limits.server";
import { whatMembersSetUp } from "./migrations/0043-what-members-set-up.server";
import { sentNowRuns } from "./migrations/0044-sent-now-runs.server";
import { recurringJobRuns } from "./migrations/0045-recurring-job-runs.server";
import { slackHandedOver } from "./migrations/0046-slack-handed-over.server";
import { emailConfirmation } from "./migrations/0048-email-confirmation.server";
import { responseClockStart } from "./migrations/0049-response-clock-start.server";
import { recordedAt } from "./migrations/0052-recorded-at.server";
import { acceptedForms } from "./migrations/0053-accepted-forms.server";
import { peopleMetWithoutEmail } from "./migrations/0054-people-met-without-email.server";
import { decks } from "./migrations/0055-decks.server";
import { deckReading } from "./migrations/0056-deck-reading.server";
import { deckReadingTime } from "./migrations/0057-deck-reading-time.server";

/** Migrations are listed in code (not read from disk) so they ship inside the server bundle. */
const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-visitor-actions": visitorActions,
  "0003-founder-analytics": founderAnalytics,
  "0004-mail-outbox": mailOutbox,
  "0005-project-updates": projectUpdates,
  "0006-door-counting": doorCounting,
  "0007-visitor-submission-keys": visitorSubmissionKeys,
  "0008-lead-inbox": leadInbox,
  "0009-attribution": attribution,
  "0010-unique-qr-labels": uniqueQrLabels,
  "0011-wall-message-choice": wallMessageChoice,
  "0012-one-contact-per-address": oneContactPerAddress,
  "0013-delivery-claim-owner": deliveryClaimOwner,
  "0014-wall-sequence": wallSequence,
  "0015-repeat-signals": repeatSignals,
  "0016-digest-batches": digestBatches,
  "0017-mail-handed-over": mailHandedOver,
  "0018-booth-links": boothLinks,
  "0019-pitch-saves": pitchSaves,
  "0020-address-confirmations": addressConfirmations,
  "0021-signup-invitations": signupInvitations,
  "0022-alert-lead-links": alertLeadLinks,
  "0023-submission-fingerprints": submissionFingerprints,
  "0024-mail-blocks": mailBlocks,
  "0025-held-submissions": heldSubmissions,
  "0026-app-fetches": appFetches,
  "0027-founder-time-zone": founderTimeZone,
  "0028-lead-source": leadSource,
  "0029-lead-first-response": leadFirstResponse,
  "0030-lead-temperature": leadTemperature,
  "0031-webhook-endpoint-health": webhookEndpointHealth,
  "0032-qualifying-question": qualifyingQuestion,
  "0033-lead-replies": leadReplies,
  "0034-booth-link-code": boothLinkCode,
  "0035-founder-push": founderPush,
  "0036-project-teams": projectTeams,
  "0037-lead-captures": leadCaptures,
  "0038-slug-history": slugHistory,
  "0039-code-lifecycle": codeLifecycle,
  "0040-morning-after-report": morningAfterReport,
  "0041-scan-audience": scanAudience,
  "0042-outreach-limits": outreachLimits,
  "0043-what-members-set-up": whatMembersSetUp,
  "0044-sent-now-runs": sentNowRuns,
  "0045-recurring-job-runs": recurringJobRuns,
  "0046-slack-handed-over": slackHandedOver,
  "0048-email-confirmation": emailConfirmation,
  "0049-response-clock-start": responseClockStart,
  "0052-recorded-at": recordedAt,
  "0053-accepted-forms": acceptedForms,
  "0054-people-met-without-email": peopleMetWithoutEmail,
  "0055-decks": decks,
  "0056-deck-reading": deckReading,
  "0057-deck-reading-time": deckReadingTime,
};

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

/** Applies the migrations up to and including `name` (a database as an older release left it). */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: new InCodeMigrationProvider() }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Brings the schema up to date; safe to call on every start and from several instances at once. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
