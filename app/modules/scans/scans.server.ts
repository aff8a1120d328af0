import { sql, type Kysely, type Transaction } from "kysely";
import { z } from "zod/mini";
import type { Database } from "~/db/schema";
import { addToProjectStats, type StatsDelta } from "~/modules/analytics/project-stats.server";
import { addToSourceStats, scanSource } from "~/modules/analytics/sources.server";

/** SPEC.md section 7's track-scan body. The fingerprint is the first 32 characters of an encoded trait string. */
export const trackScanSchema = z.object({
  projectId: z.string("projectId is required").check(z.trim(), z.minLength(1, "projectId is required"), z.maxLength(64, "Unknown project")),
  qrCodeId: z.nullish(z.string().check(z.trim(), z.maxLength(64, "Unknown QR code"))),
  viewerFingerprint: z.nullish(z.string().check(z.trim(), z.maxLength(64, "viewerFingerprint is too long"))),
});

/**
 * One scan. `addressHash` is the daily-salted hash of the visitor's address and user agent (decision 15): with
 * a fingerprint it is remembered beside a new viewer; without one (a returning browser that keeps no cookie)
 * the scan counts for a viewer already seen with that hash today, or for the hash itself.
 */
export type ScanInput = { projectId: string; qrCodeId: string | null; viewerFingerprint: string | null; addressHash?: string | null };

/** Why a page load of a published pitch was not counted as a scan (decision 15). */
export type ExclusionReason = "bot" | "preview" | "prefetch" | "owner";

const EXCLUSION_COLUMNS = {
  bot: "excluded_bots",
  preview: "excluded_previews",
  prefetch: "excluded_prefetches",
  owner: "excluded_owner_views",
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
 */
export async function recordScans(db: Kysely<Database>, scans: readonly ScanInput[]): Promise<boolean[]> {
  if (scans.length === 0) return [];
  return db.transaction().execute((trx) => recordScansIn(trx, scans));
}

async function recordScansIn(trx: Transaction<Database>, scans: readonly ScanInput[]): Promise<boolean[]> {
  const projectIds = [...new Set(scans.map((scan) => scan.projectId))];
  const known = new Set(
    (
      await trx.selectFrom("projects").select("id").where("id", "in", projectIds).where("status", "=", "published").execute()
    ).map((row) => row.id),
  );
  const stored = scans.map((scan) => known.has(scan.projectId));
  const qrIds = [...new Set(scans.flatMap((scan) => (scan.qrCodeId ? [scan.qrCodeId] : [])))];
  const qrProject = new Map(
    qrIds.length
      ? (await trx.selectFrom("qr_codes").select(["id", "project_id"]).where("id", "in", qrIds).execute()).map((row) => [row.id, row.project_id])
      : [],
  );

  const valid = await resolveCookielessViewers(
    trx,
    scans
      .filter((scan) => known.has(scan.projectId))
      .map((scan) => ({ ...scan, qrCodeId: scan.qrCodeId && qrProject.get(scan.qrCodeId) === scan.projectId ? scan.qrCodeId : null })),
  );
  if (valid.length === 0) return stored;

  const now = new Date().toISOString();
  await trx
    .insertInto("scans")
    .values(valid.map((scan) => ({ project_id: scan.projectId, qr_code_id: scan.qrCodeId, viewer_fingerprint: scan.viewerFingerprint, scanned_at: now })))
    .execute();

  const withViewer = valid.filter((scan) => scan.viewerFingerprint);
  const newProjectViewers = withViewer.length
    ? await trx
        .insertInto("project_viewers")
        .values(withViewer.map((scan) => ({ project_id: scan.projectId, viewer_fingerprint: scan.viewerFingerprint!, address_hash: scan.addressHash ?? null })))
        .onConflict((oc) => oc.columns(["project_id", "viewer_fingerprint"]).doNothing())
        .returning("project_id")
        .execute()
    : [];
  const withQrViewer = withViewer.filter((scan) => scan.qrCodeId);
  const newQrViewers = withQrViewer.length
    ? await trx
        .insertInto("qr_code_viewers")
        .values(withQrViewer.map((scan) => ({ qr_code_id: scan.qrCodeId!, viewer_fingerprint: scan.viewerFingerprint! })))
        .onConflict((oc) => oc.columns(["qr_code_id", "viewer_fingerprint"]).doNothing())
        .returning("qr_code_id")
        .execute()
    : [];

  await recordSources(trx, valid);

  const projectTotals = countBy(valid.map((scan) => scan.projectId));
  const projectUniques = countBy(newProjectViewers.map((row) => row.project_id));
  for (const [projectId, total] of projectTotals) {
    await addToProjectStats(trx, projectId, { total_scans: total, unique_scans: projectUniques.get(projectId) ?? 0 });
  }

  const hour = new Date(Math.floor(Date.parse(now) / 3_600_000) * 3_600_000).toISOString();
  for (const [key, scansInHour] of countBy(valid.map((scan) => `${scan.projectId}\u0000${scan.qrCodeId ?? ""}`))) {
    const [projectId = "", qrCodeId = ""] = key.split("\u0000");
    await trx
      .insertInto("scan_hours")
      .values({ project_id: projectId, qr_code_id: qrCodeId, hour, scans: scansInHour })
      .onConflict((oc) => oc.columns(["project_id", "qr_code_id", "hour"]).doUpdateSet({ scans: sql`scan_hours.scans + ${scansInHour}` }))
      .execute();
  }

  const qrTotals = countBy(valid.flatMap((scan) => (scan.qrCodeId ? [scan.qrCodeId] : [])));
  const qrUniques = countBy(newQrViewers.map((row) => row.qr_code_id));
  for (const [qrCodeId, total] of qrTotals) {
    await trx
      .updateTable("qr_codes")
      .set({
        total_scans: sql`total_scans + ${total}`,
        unique_scans: sql`unique_scans + ${qrUniques.get(qrCodeId) ?? 0}`,
      })
      .where("id", "=", qrCodeId)
      .execute();
  }
  return stored;
}

/**
 * Per source (decision 16): scans and first-time viewers of that source, and each viewer's latest source, which
 * the visitor's next action is attributed to.
 */
async function recordSources(trx: Transaction<Database>, scans: readonly ScanInput[]): Promise<void> {
  const key = (projectId: string, source: string) => `${projectId}\u0000${source}`;
  const withViewer = scans.filter((scan) => scan.viewerFingerprint);
  const newViewers = withViewer.length
    ? await trx
        .insertInto("source_viewers")
        .values(withViewer.map((scan) => ({ project_id: scan.projectId, source: scanSource(scan.qrCodeId), viewer_fingerprint: scan.viewerFingerprint! })))
        .onConflict((oc) => oc.columns(["project_id", "source", "viewer_fingerprint"]).doNothing())
        .returning(["project_id", "source"])
        .execute()
    : [];
  const viewersBySource = countBy(newViewers.map((row) => key(row.project_id, row.source)));
  for (const [sourceKey, total] of countBy(scans.map((scan) => key(scan.projectId, scanSource(scan.qrCodeId))))) {
    const [projectId = "", source = ""] = sourceKey.split("\u0000");
    await addToSourceStats(trx, projectId, source, { scans: total, viewers: viewersBySource.get(sourceKey) ?? 0 });
  }

  const latest = new Map<string, { projectId: string; fingerprint: string; source: string }>();
  for (const scan of withViewer) {
    latest.set(key(scan.projectId, scan.viewerFingerprint!), { projectId: scan.projectId, fingerprint: scan.viewerFingerprint!, source: scanSource(scan.qrCodeId) });
  }
  const bySource = new Map<string, string[]>();
  for (const viewer of latest.values()) {
    const fingerprints = bySource.get(key(viewer.projectId, viewer.source)) ?? [];
    fingerprints.push(viewer.fingerprint);
    bySource.set(key(viewer.projectId, viewer.source), fingerprints);
  }
  for (const [sourceKey, fingerprints] of bySource) {
    const [projectId = "", source = ""] = sourceKey.split("\u0000");
    await trx
      .updateTable("project_viewers")
      .set({ last_source: source })
      .where("project_id", "=", projectId)
      .where("viewer_fingerprint", "in", fingerprints)
      .execute();
  }
}

/**
 * A scan with an address hash but no fingerprint comes from a browser that has loaded the page before yet
 * sent no viewer cookie (it keeps none): it is the viewer already seen with that hash, or the hash itself.
 */
async function resolveCookielessViewers(trx: Transaction<Database>, scans: ScanInput[]): Promise<ScanInput[]> {
  const resolved: ScanInput[] = [];
  for (const scan of scans) {
    if (scan.viewerFingerprint || !scan.addressHash) {
      resolved.push(scan);
      continue;
    }
    const seen = await trx
      .selectFrom("project_viewers")
      .select("viewer_fingerprint")
      .where("project_id", "=", scan.projectId)
      .where("address_hash", "=", scan.addressHash)
      .limit(1)
      .executeTakeFirst();
    resolved.push({ ...scan, viewerFingerprint: seen?.viewer_fingerprint ?? scan.addressHash });
  }
  return resolved;
}

/** Adds excluded page loads to their projects' counters, in one transaction. */
export async function recordExclusions(db: Kysely<Database>, exclusions: ReadonlyMap<string, ReadonlyMap<ExclusionReason, number>>): Promise<void> {
  if (exclusions.size === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [projectId, reasons] of exclusions) {
      const delta: StatsDelta = {};
      for (const [reason, count] of reasons) delta[EXCLUSION_COLUMNS[reason]] = count;
      await addToProjectStats(trx, projectId, delta);
    }
  });
}

const EXCLUSION_FLUSH_MS = 1_000;

function countBy(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

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

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 200,
    private readonly onExclusionError: (error: unknown) => void = () => {},
  ) {}

  /** Resolves with whether the scan was stored (false for an unknown or unpublished project). */
  record(scan: ScanInput): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ scan, resolve, reject });
      if (!this.#flushing) this.#flushing = this.#drain();
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
    // Exclusions are a tally for the founder, acknowledged to no one: a failed write is reported, not retried.
    this.#writingExclusions = recordExclusions(this.db, exclusions)
      .catch((error: unknown) => this.onExclusionError(error))
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
        const stored = await recordScans(
          this.db,
          batch.map((item) => item.scan),
        );
        batch.forEach((item, index) => item.resolve(stored[index] ?? false));
      } catch {
        // One bad scan must not fail the good ones sent in the same tick: write them one by one.
        for (const item of batch) await this.#recordAlone(item);
      }
      // On SQLite a batch runs synchronously: let waiting requests be answered before the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#flushing = null;
  }

  async #recordAlone(item: { scan: ScanInput; resolve: (stored: boolean) => void; reject: (error: unknown) => void }): Promise<void> {
    try {
      const [stored] = await recordScans(this.db, [item.scan]);
      item.resolve(stored ?? false);
    } catch (error) {
      item.reject(error);
    }
  }
}
