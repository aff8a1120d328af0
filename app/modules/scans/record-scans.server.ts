import { sql, type Kysely, type Transaction } from "kysely";
import { retryOnConflict, type ConflictRetryOptions } from "~/db/retry.server";
import type { Database } from "~/db/schema";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import { addToSourceStats, DIRECT, qrCodeIdOfSource, scanSource } from "~/modules/analytics/sources.server";
import { compareText, sortedDistinct, tally } from "./lock-order";
import type { ScanInput } from "./scan-input";

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
