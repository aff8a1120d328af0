import { sql, type Kysely, type Transaction } from "kysely";
import { z } from "zod/mini";
import { retryOnConflict, type ConflictRetryOptions } from "~/db/retry.server";
import type { Database } from "~/db/schema";
import { addToProjectStats, type StatsDelta } from "~/modules/analytics/project-stats.server";
import type { Audience } from "~/modules/analytics/audience";
import { addToSourceStats, DIRECT, qrCodeIdOfSource, scanSource } from "~/modules/analytics/sources.server";
import { isRecordId, isViewerFingerprint } from "~/modules/http/id-shape";
import { PageLoadsElsewhere, type SharedPageLoad } from "./page-loads-elsewhere.server";

/** SPEC.md section 7's track-scan body. The fingerprint is the first 32 characters of an encoded trait string. */
export const trackScanSchema = z.object({
  projectId: z.string("projectId is required").check(z.trim(), z.minLength(1, "projectId is required"), z.refine(isRecordId, "Unknown project")),
  qrCodeId: z.nullish(z.string().check(z.trim(), z.refine((id) => id === "" || isRecordId(id), "Unknown QR code"))),
  viewerFingerprint: z.nullish(
    z.string().check(z.trim(), z.maxLength(64, "viewerFingerprint is too long"), z.refine((fingerprint) => fingerprint === "" || isViewerFingerprint(fingerprint), "viewerFingerprint is malformed")),
  ),
});

/**
 * One scan. `addressHash` is the daily-salted hash of the visitor's address and user agent (decision 15): with
 * a fingerprint it is remembered beside a new viewer; without one (a returning browser that keeps no cookie)
 * the scan counts for a viewer seen with that hash today whose cookie never came back, or for the hash itself
 * (decision 52). `cookieKept`: the browser sent its viewer cookie back, so the hash never stands for it again.
 */
export type ScanInput = {
  projectId: string;
  qrCodeId: string | null;
  viewerFingerprint: string | null;
  addressHash?: string | null;
  cookieKept?: boolean;
  /**
   * A cookie-less reload's viewer id as issued in the cookie set on that load, hashed: when the address hash finds no
   * viewer, the scan counts for this one, so the browser coming back with that cookie is the same viewer.
   */
  issuedFingerprint?: string | null;
  /** How it arrived, from the request's user agent (decision 67): counted with the scan, in its transaction. */
  audience?: Audience | null;
  /** When the door saw the page load (the recorder stamps it as queued); else the batch's instant. */
  arrivedAt?: Date;
};

/** Why a page load of a published pitch was not counted as a scan (decision 15). */
export type ExclusionReason = "bot" | "preview" | "prefetch" | "owner" | "app";

const EXCLUSION_COLUMNS = {
  bot: "excluded_bots",
  preview: "excluded_previews",
  prefetch: "excluded_prefetches",
  owner: "excluded_owner_views",
  app: "excluded_app_fetches",
} as const satisfies Record<ExclusionReason, keyof StatsDelta>;

export function normalizeScan(input: z.infer<typeof trackScanSchema>): ScanInput {
  return {
    projectId: input.projectId,
    qrCodeId: input.qrCodeId || null,
    viewerFingerprint: input.viewerFingerprint ? input.viewerFingerprint.slice(0, 32) : null,
  };
}

export async function readProjectOwnerId(db: Kysely<Database>, projectId: string): Promise<string | null> {
  const row = await db.selectFrom("projects").select("owner_id").where("id", "=", projectId).executeTakeFirst();
  return row?.owner_id ?? null;
}

/**
 * Records a batch of scans in one transaction, set-based: the scan rows, the per-project and per-QR sets of
 * seen viewers, and the counters derived from them. A scan for an unknown or unpublished project is dropped;
 * a QR code of another project is ignored (the scan still counts for its project). Returns, per scan, whether
 * it was stored.
 *
 * Several instances write batches holding the same new viewers at the same moment. Every write here takes its
 * rows table by table in one fixed order and, within a table, sorted by key, so two batches wait for each other
 * instead of deadlocking; the counter rows every scan shares come last, to hold their locks for the shortest
 * time. A conflict that still happens (with another write path) runs the whole batch again.
 * `at` is when the batch happened (now; a replayed or scripted batch may name its own instant).
 */
export async function recordScans(db: Kysely<Database>, scans: readonly ScanInput[], retry?: ConflictRetryOptions, at: Date = new Date()): Promise<boolean[]> {
  if (scans.length === 0) return [];
  return retryOnConflict(() => db.transaction().execute((trx) => recordScansIn(trx, scans, at)), retry);
}

async function recordScansIn(trx: Transaction<Database>, scans: readonly ScanInput[], at: Date): Promise<boolean[]> {
  const projectIds = [...new Set(scans.map((scan) => scan.projectId))];
  const known = new Set(
    (
      await trx.selectFrom("projects").select("id").where("id", "in", projectIds).where("status", "=", "published").execute()
    ).map((row) => row.id),
  );
  const stored = scans.map((scan) => known.has(scan.projectId));
  const resolved = await resolveViewers(
    trx,
    scans.filter((scan) => known.has(scan.projectId)),
  );
  const qrIds = [...new Set(resolved.flatMap((scan) => (scan.qrCodeId ? [scan.qrCodeId] : [])))];
  const qrProject = new Map(
    qrIds.length
      ? (await trx.selectFrom("qr_codes").select(["id", "project_id"]).where("id", "in", qrIds).execute()).map((row) => [row.id, row.project_id])
      : [],
  );

  const valid = resolved.map((scan) => ({ ...scan, qrCodeId: scan.qrCodeId && qrProject.get(scan.qrCodeId) === scan.projectId ? scan.qrCodeId : null }));
  if (valid.length === 0) return stored;

  const now = at.toISOString();
  await trx
    .insertInto("scans")
    .values(
      valid.map((scan) => ({
        project_id: scan.projectId,
        qr_code_id: scan.qrCodeId,
        viewer_fingerprint: scan.viewerFingerprint,
        scanned_at: scan.arrivedAt ? scan.arrivedAt.toISOString() : now,
      })),
    )
    .execute();

  // Each viewer's latest source in this batch (scans queue in arrival order): their next action is attributed to it.
  const latestSource = new Map<string, string>();
  for (const scan of valid) if (scan.viewerFingerprint) latestSource.set(viewerKey(scan.projectId, scan.viewerFingerprint), scanSource(scan.qrCodeId));
  const withViewer = valid.filter((scan): scan is ScanInput & { viewerFingerprint: string } => !!scan.viewerFingerprint);

  const projectViewers = sortedDistinct(withViewer, (scan) => [scan.projectId, scan.viewerFingerprint]);
  const newProjectViewers = projectViewers.length
    ? await trx
        .insertInto("project_viewers")
        .values(
          projectViewers.map((scan) => ({
            project_id: scan.projectId,
            viewer_fingerprint: scan.viewerFingerprint,
            address_hash: scan.cookieKept ? null : (scan.addressHash ?? null),
            last_source: latestSource.get(viewerKey(scan.projectId, scan.viewerFingerprint)) ?? null,
          })),
        )
        .onConflict((oc) => oc.columns(["project_id", "viewer_fingerprint"]).doNothing())
        .returning("project_id")
        .execute()
    : [];
  const qrViewers = sortedDistinct(
    withViewer.filter((scan) => scan.qrCodeId),
    (scan) => [scan.qrCodeId!, scan.viewerFingerprint],
  );
  const newQrViewers = qrViewers.length
    ? await trx
        .insertInto("qr_code_viewers")
        .values(qrViewers.map((scan) => ({ qr_code_id: scan.qrCodeId!, viewer_fingerprint: scan.viewerFingerprint })))
        .onConflict((oc) => oc.columns(["qr_code_id", "viewer_fingerprint"]).doNothing())
        .returning("qr_code_id")
        .execute()
    : [];
  const sourceViewers = sortedDistinct(withViewer, (scan) => [scan.projectId, scanSource(scan.qrCodeId), scan.viewerFingerprint]);
  const newSourceViewers = sourceViewers.length
    ? await trx
        .insertInto("source_viewers")
        .values(sourceViewers.map((scan) => ({ project_id: scan.projectId, source: scanSource(scan.qrCodeId), viewer_fingerprint: scan.viewerFingerprint })))
        .onConflict((oc) => oc.columns(["project_id", "source", "viewer_fingerprint"]).doNothing())
        .returning(["project_id", "source"])
        .execute()
    : [];
  await updateLatestSources(trx, latestSource);
  await forgetAddressesOfCookieKeepers(trx, withViewer.filter((scan) => scan.cookieKept));

  // The counters every instance shares, in one order: projects, sources, QR codes, hours, audience hours.
  const newByProject = tally(newProjectViewers, (row) => [row.project_id]);
  for (const { key, count } of tally(valid, (scan) => [scan.projectId])) {
    await addToProjectStats(trx, key[0]!, { total_scans: count, unique_scans: newByProject.get(key) ?? 0 });
  }
  const newBySource = tally(newSourceViewers, (row) => [row.project_id, row.source]);
  for (const { key, count } of tally(valid, (scan) => [scan.projectId, scanSource(scan.qrCodeId)])) {
    await addToSourceStats(trx, key[0]!, key[1]!, { scans: count, viewers: newBySource.get(key) ?? 0 });
  }
  const newByQr = tally(newQrViewers, (row) => [row.qr_code_id]);
  for (const { key, count } of tally(
    valid.filter((scan) => scan.qrCodeId),
    (scan) => [scan.qrCodeId!],
  )) {
    await trx
      .updateTable("qr_codes")
      .set({ total_scans: sql`total_scans + ${count}`, unique_scans: sql`unique_scans + ${newByQr.get(key) ?? 0}` })
      .where("id", "=", key[0]!)
      .execute();
  }
  const hour = new Date(Math.floor(Date.parse(now) / 3_600_000) * 3_600_000).toISOString();
  for (const { key, count } of tally(valid, (scan) => [scan.projectId, scan.qrCodeId ?? ""])) {
    await trx
      .insertInto("scan_hours")
      .values({ project_id: key[0]!, qr_code_id: key[1]!, hour, scans: count })
      .onConflict((oc) => oc.columns(["project_id", "qr_code_id", "hour"]).doUpdateSet({ scans: sql`scan_hours.scans + ${count}` }))
      .execute();
  }
  for (const { key, count } of tally(
    valid.filter((scan) => scan.audience),
    (scan) => [scan.projectId, scan.qrCodeId ?? "", scan.audience!.device, scan.audience!.browser, scan.audience!.inApp ?? ""],
  )) {
    const [projectId, qrCodeId, device, browser, inApp] = key as [string, string, string, string, string];
    await trx
      .insertInto("scan_audience_hours")
      .values({ project_id: projectId, qr_code_id: qrCodeId, hour, device, browser, in_app: inApp, scans: count })
      .onConflict((oc) =>
        oc.columns(["project_id", "qr_code_id", "hour", "device", "browser", "in_app"]).doUpdateSet({ scans: sql`scan_audience_hours.scans + ${count}` }),
      )
      .execute();
  }
  return stored;
}

const viewerKey = (projectId: string, viewerFingerprint: string) => JSON.stringify([projectId, viewerFingerprint]);

/**
 * Points each returning viewer's `last_source` at their latest source (decision 16; a new viewer got it with
 * its insert). One statement per project, so its rows are locked in one order whatever sources the batch mixes;
 * rows already right are left alone.
 */
async function updateLatestSources(trx: Transaction<Database>, latestSource: ReadonlyMap<string, string>): Promise<void> {
  const byProject = new Map<string, { fingerprint: string; source: string }[]>();
  for (const [key, source] of latestSource) {
    const [projectId, fingerprint] = JSON.parse(key) as [string, string];
    const viewers = byProject.get(projectId) ?? [];
    viewers.push({ fingerprint, source });
    byProject.set(projectId, viewers);
  }
  for (const projectId of [...byProject.keys()].sort(compareText)) {
    const viewers = byProject.get(projectId)!.sort((a, b) => compareText(a.fingerprint, b.fingerprint));
    const sourceOf = sql<string>`case viewer_fingerprint ${sql.join(
      viewers.map((viewer) => sql`when ${viewer.fingerprint} then ${viewer.source}`),
      sql` `,
    )} end`;
    await trx
      .updateTable("project_viewers")
      .set({ last_source: sourceOf })
      .where("project_id", "=", projectId)
      .where(
        "viewer_fingerprint",
        "in",
        viewers.map((viewer) => viewer.fingerprint),
      )
      .where(sql<boolean>`coalesce(last_source, '') <> ${sourceOf}`)
      .execute();
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const order = compareText(a[index] ?? "", b[index] ?? "");
    if (order) return order;
  }
  return 0;
}

/** The first row of each key, sorted by key: every batch inserts the rows it shares with others in one order. */
function sortedDistinct<T>(rows: readonly T[], keyOf: (row: T) => string[]): T[] {
  const byKey = new Map<string, { key: string[]; row: T }>();
  for (const row of rows) {
    const key = keyOf(row);
    const id = JSON.stringify(key);
    if (!byKey.has(id)) byKey.set(id, { key, row });
  }
  return [...byKey.values()].sort((a, b) => compareKeys(a.key, b.key)).map((entry) => entry.row);
}

/** Rows counted per key, sorted by key, with `get(key)` to look a count up. */
function tally<T>(rows: readonly T[], keyOf: (row: T) => string[]) {
  const counts = new Map<string, { key: string[]; count: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const id = JSON.stringify(key);
    const entry = counts.get(id);
    if (entry) entry.count += 1;
    else counts.set(id, { key, count: 1 });
  }
  const sorted = [...counts.values()].sort((a, b) => compareKeys(a.key, b.key));
  return Object.assign(sorted, { get: (key: readonly string[]) => counts.get(JSON.stringify(key))?.count });
}

/**
 * Who each scan is and where it came from (decision 52):
 * - A scan with an address hash but no fingerprint comes from a browser that has loaded the page before yet sent
 *   no viewer cookie (it keeps none). It is the viewer seen with that hash today, through the same source, whose
 *   cookie never came back (its own first load, or a phone it cannot be told apart from that changes nothing by
 *   being taken for it); else it is the viewer named by the cookie issued on that load (or the hash, when none
 *   was). It never resolves to a browser that kept its cookie,
 *   so it never adds to another person's codes or moves their latest source.
 * - A load of the plain link by a viewer who came through a QR code (Back to a history entry that dropped `?qr=`, a
 *   tab reopened) counts for that code: the plain link never takes a person away from the code that brought them.
 */
async function resolveViewers(trx: Transaction<Database>, scans: ScanInput[]): Promise<ScanInput[]> {
  const resolved: ScanInput[] = [];
  for (const scan of scans) {
    if (!scan.viewerFingerprint && scan.addressHash) {
      const source = scanSource(scan.qrCodeId);
      const seen = await trx
        .selectFrom("project_viewers")
        .select("viewer_fingerprint")
        .where("project_id", "=", scan.projectId)
        .where("address_hash", "=", scan.addressHash)
        .where(sql<boolean>`coalesce(last_source, '') = ${source}`)
        .orderBy("viewer_fingerprint")
        .limit(1)
        .executeTakeFirst();
      resolved.push({ ...scan, viewerFingerprint: seen?.viewer_fingerprint ?? scan.issuedFingerprint ?? scan.addressHash });
      continue;
    }
    // Only a viewer whose cookie came back can have been seen before (a new id has no row yet).
    if (!scan.qrCodeId && scan.viewerFingerprint && scan.cookieKept) {
      const viewer = await trx
        .selectFrom("project_viewers")
        .select("last_source")
        .where("project_id", "=", scan.projectId)
        .where("viewer_fingerprint", "=", scan.viewerFingerprint)
        .executeTakeFirst();
      resolved.push({ ...scan, qrCodeId: qrCodeIdOfSource(viewer?.last_source ?? DIRECT) });
      continue;
    }
    resolved.push(scan);
  }
  return resolved;
}

/** Viewers whose cookie came back keep cookies: their address hash is forgotten, so no cookie-less browser resolves to them. */
async function forgetAddressesOfCookieKeepers(trx: Transaction<Database>, scans: readonly (ScanInput & { viewerFingerprint: string })[]): Promise<void> {
  const byProject = new Map<string, Set<string>>();
  for (const scan of scans) byProject.set(scan.projectId, (byProject.get(scan.projectId) ?? new Set()).add(scan.viewerFingerprint));
  for (const projectId of [...byProject.keys()].sort(compareText)) {
    await trx
      .updateTable("project_viewers")
      .set({ address_hash: null })
      .where("project_id", "=", projectId)
      .where("viewer_fingerprint", "in", [...byProject.get(projectId)!].sort(compareText))
      .where("address_hash", "is not", null)
      .execute();
  }
}

/** Adds excluded page loads to their projects' counters, in one transaction. */
export async function recordExclusions(
  db: Kysely<Database>,
  exclusions: ReadonlyMap<string, ReadonlyMap<ExclusionReason, number>>,
  retry?: ConflictRetryOptions,
): Promise<void> {
  if (exclusions.size === 0) return;
  await retryOnConflict(
    () =>
    db.transaction().execute(async (trx) => {
      for (const projectId of [...exclusions.keys()].sort(compareText)) {
        const delta: StatsDelta = {};
        for (const [reason, count] of exclusions.get(projectId)!) delta[EXCLUSION_COLUMNS[reason]] = count;
        await addToProjectStats(trx, projectId, delta);
      }
    }),
    retry,
  );
}

const EXCLUSION_FLUSH_MS = 1_000;

/**
 * Queues scans and writes them in batches, so a burst of visitors costs one transaction per few
 * milliseconds instead of one each. `record` resolves only after the batch holding the scan committed:
 * an acknowledged scan is never lost.
 */
export class ScanRecorder {
  #queue: { scan: ScanInput; resolve: (stored: boolean) => void; reject: (error: unknown) => void }[] = [];
  #exclusions = new Map<string, Map<ExclusionReason, number>>();
  #exclusionTimer: NodeJS.Timeout | null = null;
  #writingExclusions: Promise<void> | null = null;
  #flushing: Promise<void> | null = null;
  #unshared: SharedPageLoad[] = [];

  /** The page loads other instances told this one of (decision 80), fed by `services.server.ts`. */
  readonly elsewhere = new PageLoadsElsewhere();
  readonly #retry: ConflictRetryOptions;
  readonly #onExclusionError: (error: unknown) => void;
  readonly #onScansStored: (projectIds: string[]) => void;
  readonly #onScansQueued: ((loads: SharedPageLoad[]) => void) | null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 200,
    reports: {
      onExclusionError?: (error: unknown) => void;
      /** A batch that lost a race with another transaction (deadlock, serialization) and is written again. */
      onConflictRetried?: (error: unknown) => void;
      /** After a batch committed: the projects it stored scans for, each once (booth screens reread on it). */
      onScansStored?: (projectIds: string[]) => void;
      /**
       * The viewers' page loads queued in one tick, as they were queued (before they are written): shared with
       * the other instances for their speed check (decision 80).
       */
      onScansQueued?: (loads: SharedPageLoad[]) => void;
    } = {},
  ) {
    this.#onExclusionError = reports.onExclusionError ?? (() => {});
    this.#onScansStored = reports.onScansStored ?? (() => {});
    this.#onScansQueued = reports.onScansQueued ?? null;
    this.#retry = { onRetry: reports.onConflictRetried };
  }

  /** Resolves with whether the scan was stored (false for an unknown or unpublished project). */
  record(input: ScanInput): Promise<boolean> {
    // Stamped as it arrives, not when its batch is written: a busy database must not make a page load look later
    // than the form sent from it (the speed check, decision 50).
    const scan = { ...input, arrivedAt: input.arrivedAt ?? new Date() };
    if (scan.viewerFingerprint) this.#share({ projectId: scan.projectId, viewerFingerprint: scan.viewerFingerprint, at: scan.arrivedAt.getTime() });
    return new Promise((resolve, reject) => {
      this.#queue.push({ scan, resolve, reject });
      if (!this.#flushing) this.#flushing = this.#drain();
    });
  }

  /** Whether the page loads queued here are shared with other instances, which may then have served a page too. */
  get sharesPageLoads(): boolean {
    return this.#onScansQueued !== null;
  }

  /** Told at once, not after the batch ahead of it is written: one message for the loads of a tick. */
  #share(load: SharedPageLoad): void {
    const onScansQueued = this.#onScansQueued;
    if (!onScansQueued) return;
    this.#unshared.push(load);
    if (this.#unshared.length > 1) return;
    setImmediate(() => {
      const loads = this.#unshared;
      this.#unshared = [];
      onScansQueued(loads);
    });
  }

  /** Counts a page load that is not a scan (a bot, a preview, a prefetch, the owner), written with the next batch. */
  exclude(projectId: string, reason: ExclusionReason): void {
    let reasons = this.#exclusions.get(projectId);
    if (!reasons) this.#exclusions.set(projectId, (reasons = new Map()));
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    // A tally, written once a second: a flood of bots costs one small transaction a second, not one per tick.
    this.#exclusionTimer ??= setTimeout(() => {
      this.#exclusionTimer = null;
      void this.#writeExclusions();
    }, EXCLUSION_FLUSH_MS).unref();
  }

  /** Waits until every scan queued so far is written (or failed): what the door counted is then in `scans`. */
  async written(): Promise<void> {
    while (this.#flushing) await this.#flushing.catch(() => undefined);
  }

  /** Waits until every queued scan and tallied exclusion is written (used at shutdown). */
  async idle(): Promise<void> {
    if (this.#exclusionTimer) clearTimeout(this.#exclusionTimer);
    this.#exclusionTimer = null;
    await this.#writeExclusions();
    while (this.#flushing) await this.#flushing;
  }

  async #writeExclusions(): Promise<void> {
    await this.#writingExclusions;
    if (this.#exclusions.size === 0) return;
    const exclusions = this.#exclusions;
    this.#exclusions = new Map();
    // Exclusions are a tally for the founder, acknowledged to no one: a failed write (other than a lost race) is reported, not retried.
    this.#writingExclusions = recordExclusions(this.db, exclusions, this.#retry)
      .catch((error: unknown) => this.#onExclusionError(error))
      .finally(() => {
        this.#writingExclusions = null;
      });
    await this.#writingExclusions;
  }

  async #drain(): Promise<void> {
    // Let the requests arriving in the same tick join this batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length) {
      const batch = this.#queue.splice(0, this.maxBatch);
      try {
        // A deadlock or serialization failure is retried inside: the scans answer 200 once the retry commits.
        const stored = await recordScans(
          this.db,
          batch.map((item) => item.scan),
          this.#retry,
        );
        batch.forEach((item, index) => item.resolve(stored[index] ?? false));
        this.#reportStored(batch.filter((_, index) => stored[index]).map((item) => item.scan.projectId));
      } catch {
        // One bad scan must not fail the good ones sent in the same tick: write them one by one.
        const storedAlone: string[] = [];
        for (const item of batch) if (await this.#recordAlone(item)) storedAlone.push(item.scan.projectId);
        this.#reportStored(storedAlone);
      }
      // On SQLite a batch runs synchronously: let waiting requests be answered before the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#flushing = null;
  }

  #reportStored(projectIds: string[]): void {
    if (projectIds.length) this.#onScansStored([...new Set(projectIds)]);
  }

  async #recordAlone(item: { scan: ScanInput; resolve: (stored: boolean) => void; reject: (error: unknown) => void }): Promise<boolean> {
    try {
      const [stored] = await recordScans(this.db, [item.scan], this.#retry);
      item.resolve(stored ?? false);
      return stored ?? false;
    } catch (error) {
      item.reject(error);
      return false;
    }
  }
}
