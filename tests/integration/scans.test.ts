import { expect, it } from "vitest";
import { recordScans, ScanRecorder } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject } from "../support/fixtures";

describeEachDialect("scan tracking", (getDb) => {
  async function setup() {
    const { db } = getDb();
    const project = await createProject(db);
    const qrIds = ["booth", "badge"].map((label) => `${label}-${project.id.slice(0, 8)}`);
    await db
      .insertInto("qr_codes")
      .values(qrIds.map((id, index) => ({ id, project_id: project.id, label: index ? "Badge" : "Booth", event_tag: null })))
      .execute();
    return { db, project, qrIds };
  }

  async function counters(db: ReturnType<typeof getDb>["db"], projectId: string) {
    const stats = await db.selectFrom("project_stats").selectAll().where("project_id", "=", projectId).executeTakeFirst();
    const codes = await db.selectFrom("qr_codes").select(["id", "total_scans", "unique_scans"]).where("project_id", "=", projectId).execute();
    const rows = await db.selectFrom("scans").select("id").where("project_id", "=", projectId).execute();
    return { stats, codes: Object.fromEntries(codes.map((code) => [code.id, [code.total_scans, code.unique_scans]])), rows: rows.length };
  }

  it("counts totals and distinct non-empty fingerprints per project and per QR code", async () => {
    const { db, project, qrIds } = await setup();
    const [booth, badge] = qrIds as [string, string];
    const stored = await recordScans(db, [
      { projectId: project.id, qrCodeId: booth, viewerFingerprint: "viewer-a" },
      { projectId: project.id, qrCodeId: booth, viewerFingerprint: "viewer-a" },
      { projectId: project.id, qrCodeId: badge, viewerFingerprint: "viewer-a" },
      { projectId: project.id, qrCodeId: booth, viewerFingerprint: "viewer-b" },
      { projectId: project.id, qrCodeId: null, viewerFingerprint: null },
    ]);
    expect(stored).toEqual([true, true, true, true, true]);
    const result = await counters(db, project.id);
    expect(result.stats).toMatchObject({ project_id: project.id, total_scans: 5, unique_scans: 2 });
    expect(result.codes).toEqual({ [booth]: [3, 2], [badge]: [1, 1] });
    expect(result.rows).toBe(5);
    const hours = await db.selectFrom("scan_hours").select(["qr_code_id", "scans"]).where("project_id", "=", project.id).orderBy("qr_code_id").execute();
    expect(hours).toEqual([
      { qr_code_id: "", scans: 1 },
      { qr_code_id: badge, scans: 1 },
      { qr_code_id: booth, scans: 3 },
    ].sort((a, b) => a.qr_code_id.localeCompare(b.qr_code_id)));
  });

  it("drops scans of unknown or draft projects and ignores a QR code of another project", async () => {
    const { db, project, qrIds } = await setup();
    const other = await createProject(db);
    const draft = await createProject(db, { status: "draft" });
    const stored = await recordScans(db, [
      { projectId: "no-such-project", qrCodeId: null, viewerFingerprint: "x" },
      { projectId: draft.id, qrCodeId: null, viewerFingerprint: "x" },
      { projectId: other.id, qrCodeId: qrIds[0]!, viewerFingerprint: "x" },
    ]);
    expect(stored).toEqual([false, false, true]);
    expect((await counters(db, project.id)).codes[qrIds[0]!]).toEqual([0, 0]);
    const otherScan = await db.selectFrom("scans").selectAll().where("project_id", "=", other.id).executeTakeFirstOrThrow();
    expect(otherScan.qr_code_id).toBeNull();
  });

  it("keeps counts exact under concurrent scans, each in its own transaction", async () => {
    const { db, project, qrIds } = await setup();
    const scans = Array.from({ length: 120 }, (_, i) => ({
      projectId: project.id,
      qrCodeId: qrIds[i % 2]!,
      viewerFingerprint: `viewer-${i % 30}`,
    }));
    await Promise.all(scans.map((scan) => recordScans(db, [scan])));
    const result = await counters(db, project.id);
    expect(result.rows).toBe(120);
    expect(result.stats).toMatchObject({ total_scans: 120, unique_scans: 30 });
    // viewer-n lands on QR (n % 2): 15 distinct viewers per code.
    expect(result.codes).toEqual({ [qrIds[0]!]: [60, 15], [qrIds[1]!]: [60, 15] });
  });

  it("writes batches holding the same new and returning viewers in different orders at once, without a conflict", async () => {
    const { db, project, qrIds } = await setup();
    const conflicts: unknown[] = [];
    const retry = { onRetry: (error: unknown) => conflicts.push(error) };
    const sourceOf = (viewer: number, round: number) => [qrIds[0]!, qrIds[1]!, null][(viewer + round) % 3]!;
    const rounds = 4;
    const viewersPerRound = 60;
    for (let round = 0; round < rounds; round += 1) {
      // Each round: 60 viewers, half of them new, half seen in the previous round and now through another source.
      const viewers = Array.from({ length: viewersPerRound }, (_, index) => index + round * (viewersPerRound / 2));
      const batch = viewers.map((viewer) => ({ projectId: project.id, qrCodeId: sourceOf(viewer, round), viewerFingerprint: `viewer-${viewer}` }));
      const interleaved = batch.map((_, index) => batch[(index * 7) % batch.length]!);
      const stored = await Promise.all([recordScans(db, batch, retry), recordScans(db, [...batch].reverse(), retry), recordScans(db, interleaved, retry)]);
      expect(stored.flat().every(Boolean)).toBe(true);
    }
    expect(conflicts).toEqual([]);

    const distinctViewers = viewersPerRound + (rounds - 1) * (viewersPerRound / 2);
    const result = await counters(db, project.id);
    expect(result.rows).toBe(rounds * viewersPerRound * 3);
    expect(result.stats).toMatchObject({ total_scans: rounds * viewersPerRound * 3, unique_scans: distinctViewers });
    const qrViewers = await db.selectFrom("qr_code_viewers").select(["qr_code_id", "viewer_fingerprint"]).where("qr_code_id", "in", qrIds).execute();
    for (const [index, qrId] of qrIds.entries()) {
      const scansOfCode = Array.from({ length: rounds }, (_, round) =>
        Array.from({ length: viewersPerRound }, (_, i) => i + round * (viewersPerRound / 2)).filter((viewer) => (viewer + round) % 3 === index),
      );
      const total = scansOfCode.flat().length * 3;
      const unique = new Set(scansOfCode.flat()).size;
      expect(result.codes[qrId]).toEqual([total, unique]);
      expect(qrViewers.filter((row) => row.qr_code_id === qrId)).toHaveLength(unique);
    }
    const sources = await db.selectFrom("source_stats").select(["source", "scans"]).where("project_id", "=", project.id).execute();
    expect(sources.reduce((sum, row) => sum + Number(row.scans), 0)).toBe(rounds * viewersPerRound * 3);
    // Every viewer's latest source is the one of the last round they were seen in.
    const lastRound = (viewer: number) => Math.min(rounds - 1, Math.floor(viewer / (viewersPerRound / 2)));
    const latest = await db.selectFrom("project_viewers").select(["viewer_fingerprint", "last_source"]).where("project_id", "=", project.id).execute();
    expect(latest).toHaveLength(distinctViewers);
    for (const row of latest) {
      const viewer = Number(row.viewer_fingerprint.slice("viewer-".length));
      const qrCodeId = sourceOf(viewer, lastRound(viewer));
      expect(row.last_source, row.viewer_fingerprint).toBe(qrCodeId ? `qr:${qrCodeId}` : "direct");
    }
  });

  it("batches queued scans and acknowledges each only once it is stored", async () => {
    const { db, project, qrIds } = await setup();
    const recorder = new ScanRecorder(db, 50);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        recorder.record({ projectId: i === 0 ? "unknown" : project.id, qrCodeId: qrIds[0]!, viewerFingerprint: `v${i % 40}` }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(199);
    expect(results[0]).toBe(false);
    await recorder.idle();
    const result = await counters(db, project.id);
    expect(result.rows).toBe(199);
    expect(result.stats).toMatchObject({ total_scans: 199, unique_scans: 40 });
  });

  it("stores every good scan of a batch when one scan in it cannot be written", async () => {
    const { db, project, qrIds } = await setup();
    const recorder = new ScanRecorder(db);
    const good = Array.from({ length: 50 }, (_, index) =>
      recorder.record({ projectId: project.id, qrCodeId: qrIds[index % 2] ?? null, viewerFingerprint: `viewer-${index}` }),
    );
    // NUL is refused by PostgreSQL (SQLite stores it): either way the 50 others in the same tick are kept.
    const poisoned = recorder.record({ projectId: project.id, qrCodeId: null, viewerFingerprint: "poison\u0000" }).then(
      () => "stored",
      () => "refused",
    );
    expect(await Promise.all(good)).toEqual(Array.from({ length: 50 }, () => true));
    await poisoned;
    const rows = await db.selectFrom("scans").select("viewer_fingerprint").where("project_id", "=", project.id).execute();
    const goodRows = rows.filter((row) => row.viewer_fingerprint?.startsWith("viewer-"));
    expect(goodRows).toHaveLength(50);
    const stats = await db.selectFrom("project_stats").select(["total_scans"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(stats.total_scans).toBe(rows.length);
  });
});
