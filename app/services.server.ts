import type { AppConfig, DatabaseTarget } from "~/config.server";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import { migrateToLatest } from "~/db/migrate.server";
import { findSqliteDataLeftBehind } from "~/db/sqlite-left-behind.server";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { queueEmailConfirmationMail } from "~/modules/auth/email-confirmation.server";
import { queuePasswordResetMail } from "~/modules/auth/password-reset.server";
import { seedDemoProject } from "~/modules/demo/seed.server";
import { seedDemoDeck } from "~/modules/demo/demo-deck.server";
import { createFlashCookie, type FlashCookie } from "~/modules/flash/flash.server";
import type { Logger } from "~/modules/logging/logger.server";
import { LiveStreams } from "~/modules/realtime/live-streams.server";
import { announce, createLocalProjectEvents, createPostgresProjectEvents, type ProjectEvents } from "~/modules/realtime/project-events.server";
import { createUnsubscribeTokens, type UnsubscribeTokens } from "~/modules/contacts/unsubscribe-token.server";
import { createMailLinks, type MailLinks } from "~/modules/mail/mail-links.server";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createMailTransport } from "~/modules/mail/transport.server";
import { createListMailCookie, type ListMailCookie } from "~/modules/saved/list-mail-cookie.server";
import { PageDoor, RecentPageLoads } from "~/modules/scans/page-door.server";
import type { SharedPageLoad } from "~/modules/scans/page-loads-elsewhere.server";
import { ScanRecorder } from "~/modules/scans/scans.server";
import { DigestScheduler } from "~/modules/updates/weekly-digest.server";
import { LeadAlertScheduler } from "~/modules/leads/inbox/lead-alerts.server";
import { MorningReportScheduler } from "~/modules/reports/morning-report.server";
import { WebhookWorker } from "~/modules/webhooks/webhook-delivery.server";
import { HeldFormExpiry } from "~/modules/held/held-expiry.server";
import { AlertWorker } from "~/modules/founder-alerts/alert-delivery.server";
import { VisitSummaryPass } from "~/modules/deck-reading/reading-summaries.server";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DeckRenderer } from "~/modules/deck/deck-renderer.server";
import { openObjectStore } from "~/modules/storage/open-object-store.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";

/** Everything a request handler needs, created once per process. */
export type AppServices = {
  config: AppConfig;
  database: AppDatabase;
  auth: Auth;
  logger: Logger;
  flashCookie: FlashCookie;
  events: ProjectEvents;
  scans: ScanRecorder;
  /** Decides what a pitch page load counts as (decision 15). */
  pageDoor: PageDoor;
  /** Page loads counted in the last minute, so `track-scan` after the same load does not count it again. */
  recentPageLoads: RecentPageLoads;
  streams: LiveStreams;
  mail: MailWorker;
  unsubscribeTokens: UnsubscribeTokens;
  mailLinks: MailLinks;
  /** The address a browser confirmed for its saved-list mail (decision 38). */
  listMailCookie: ListMailCookie;
  digests: DigestScheduler;
  leadAlerts: LeadAlertScheduler;
  /** The morning-after reports to founders (decision 66). */
  morningReports: MorningReportScheduler;
  webhooks: WebhookWorker;
  /** Pushes to the founders' devices and posts to their projects' Slack (decision 56). */
  alerts: AlertWorker;
  /** Sums up each deck visit of a reader who is no lead once it ended, in a push and a Slack post (decision 99). */
  visitSummaries: VisitSummaryPass;
  /** Deletes held forms after 30 days, once an hour across instances (decision 80). */
  heldExpiry: HeldFormExpiry;
  /** Where uploaded files are kept (decision 97). */
  store: ObjectStore;
  /** Draws uploaded decks in a worker thread, across instances (decision 97). */
  decks: DeckRenderer;
  /**
   * What this start did to the database, for the start-up lines server.js prints; and, on an empty PostgreSQL
   * database, the SQLite database with projects still in the data folder (its data was not moved).
   */
  startup: { migrationsApplied: string[]; demoSeeded: boolean; sqliteLeftBehind: { file: string; projects: number } | null };
};

export async function startServices(config: AppConfig, logger: Logger): Promise<AppServices> {
  const database = openDatabase(config.database, { onIdleConnectionError: (error) => logger.warn({ err: error }, "idle database connection closed") });
  const applied = await migrate(config.database, database);
  const sqliteLeftBehind =
    config.database.dialect === "postgres" ? await findSqliteDataLeftBehind(database.db, path.join(config.dataDir, "app.sqlite")) : null;
  // Such a database is left empty for the copy, which goes only into an empty database (decision: SQLite to
  // PostgreSQL): no demo, and no digest or lead-summary run recorded until the data is there.
  const demoSeeded = sqliteLeftBehind ? false : await seedDemoProject(database.db);
  const flashCookie = createFlashCookie(config.authSecret, config.publicUrl.startsWith("https://"));
  const events =
    config.database.dialect === "postgres" ? await createPostgresProjectEvents(config.database.url, logger) : createLocalProjectEvents();
  const scans = new ScanRecorder(database.db, undefined, {
    onExclusionError: (error) => logger.error({ err: error }, "excluded page loads could not be counted"),
    onConflictRetried: (error) => logger.warn({ err: error }, "a scan batch conflicted with another transaction; written again"),
    onScansStored: (projectIds) => {
      for (const projectId of projectIds) void announce(events, logger, { projectId, kind: "activity" });
    },
    // Only PostgreSQL is shared by several instances; one process on SQLite has nobody to tell (decision 80).
    ...(config.database.dialect === "postgres"
      ? {
          onScansQueued: (loads: SharedPageLoad[]) => {
            events.sharePageLoads(loads).catch((error: unknown) => logger.warn({ err: error }, "page loads could not be shared with the other instances"));
          },
        }
      : {}),
  });
  events.onPageLoads((loads) => scans.elsewhere.remember(loads));
  const pageDoor = new PageDoor({ secret: config.authSecret, secureCookie: config.publicUrl.startsWith("https://") });
  const transport = createMailTransport(config);
  const mail = new MailWorker(database.db, transport, logger);
  mail.start();
  const auth = createAuth({
    config,
    db: database.db.withoutPlugins(),
    dialect: database.dialect,
    sendPasswordReset: async (reset) => {
      await queuePasswordResetMail(database.db, config.publicUrl, reset);
      mail.wake();
    },
    sendEmailConfirmation: async (confirmation) => {
      await queueEmailConfirmationMail(database.db, config.publicUrl, confirmation);
      mail.wake();
    },
    logger,
  });
  const unsubscribeTokens = createUnsubscribeTokens(config.authSecret);
  const mailLinks = createMailLinks(config.publicUrl, unsubscribeTokens);
  const digests = new DigestScheduler(database.db, mailLinks, config.digest, logger, { onMailQueued: () => mail.wake() });
  if (!sqliteLeftBehind) digests.start();
  const leadAlerts = new LeadAlertScheduler(database.db, mailLinks, config.digest, logger, { onMailQueued: () => mail.wake() });
  if (!sqliteLeftBehind) leadAlerts.start();
  const morningReports = new MorningReportScheduler(database.db, mailLinks, config.digest, logger, { onMailQueued: () => mail.wake() });
  if (!sqliteLeftBehind) morningReports.start();
  const webhooks = new WebhookWorker(database.db, config.webhooks, logger, mailLinks, { onMailQueued: () => mail.wake() });
  webhooks.start();
  const alerts = new AlertWorker(database.db, { publicUrl: config.publicUrl, push: config.push, webhooks: config.webhooks }, logger);
  alerts.start();
  const visitSummaries = new VisitSummaryPass(database.db, logger, { onQueued: () => alerts.wake() });
  visitSummaries.start();
  const heldExpiry = new HeldFormExpiry(database.db, logger);
  if (!sqliteLeftBehind) heldExpiry.start();
  const store = openObjectStore(config.storage);
  await store.check().catch((error: unknown) => logger.error({ err: error }, `file storage (${store.kind}) cannot be written: uploaded decks fail until it can`));
  // The worker is built beside the server build's entry, which this module is bundled into.
  const decks = new DeckRenderer(database.db, store, new URL("./deck-render-worker.js", import.meta.url), logger, {
    onPublished: (projectId) => announce(events, logger, { projectId, kind: "content" }),
  });
  decks.start();
  // The demo's deck as the build drew it (beside this bundle); a start whose seed fails still serves the demo.
  if (!sqliteLeftBehind) {
    await seedDemoDeck(database.db, store, fileURLToPath(new URL("./demo-deck/", import.meta.url))).catch((error: unknown) => logger.error({ err: error }, "the demo project's deck could not be made"));
  }
  // A deck left half drawn by the last run is taken up now (once its claim has run out), not at the first tick.
  decks.wake();
  return {
    startup: { migrationsApplied: applied, demoSeeded, sqliteLeftBehind },
    config,
    database,
    auth,
    logger,
    flashCookie,
    events,
    scans,
    pageDoor,
    recentPageLoads: new RecentPageLoads(),
    streams: new LiveStreams(),
    mail,
    unsubscribeTokens,
    mailLinks,
    listMailCookie: createListMailCookie(config.authSecret, config.publicUrl.startsWith("https://")),
    digests,
    leadAlerts,
    morningReports,
    webhooks,
    alerts,
    visitSummaries,
    heldExpiry,
    store,
    decks,
  };
}

/** Finishes queued writes, then closes connections; called after the HTTP server stopped taking requests. */
export async function stopServices(services: AppServices): Promise<void> {
  await services.scans.idle();
  await services.digests.stop();
  await services.leadAlerts.stop();
  await services.morningReports.stop();
  await services.webhooks.stop();
  await services.visitSummaries.stop();
  await services.alerts.stop();
  await services.heldExpiry.stop();
  await services.decks.stop();
  await services.mail.stop();
  await services.events.close();
  await services.database.close();
}

/**
 * Brings the schema up to date. A migration may rightly take long (an index over a big table): on PostgreSQL it runs
 * over a connection of its own, without the serving pool's time limits; SQLite's one connection has none.
 */
async function migrate(target: DatabaseTarget, serving: AppDatabase): Promise<string[]> {
  if (target.dialect === "sqlite") return migrateToLatest(serving.db.withoutPlugins());
  const unbounded = openDatabase(target, { use: "unbounded" });
  try {
    return await migrateToLatest(unbounded.db.withoutPlugins());
  } finally {
    await unbounded.close();
  }
}
