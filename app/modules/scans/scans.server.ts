import type { Kysely } from "kysely";
import type { ConflictRetryOptions } from "~/db/retry.server";
import type { Database } from "~/db/schema";
import { PageLoadsElsewhere, type SharedPageLoad } from "./page-loads-elsewhere.server";
import { recordExclusions } from "./record-exclusions.server";
import { recordScans } from "./record-scans.server";
import type { ExclusionReason, ScanInput } from "./scan-input";

// The scans module's entry: the recorder the server queues page loads on, and what the rest of the app reads from it.
export { recordScans } from "./record-scans.server";
export { normalizeScan, trackScanSchema, type ExclusionReason, type ScanInput } from "./scan-input";

export async function readProjectOwnerId(db: Kysely<Database>, projectId: string): Promise<string | null> {
  const row = await db.selectFrom("projects").select("owner_id").where("id", "=", projectId).executeTakeFirst();
  return row?.owner_id ?? null;
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
