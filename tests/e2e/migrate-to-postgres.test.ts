// Moving a SQLite deployment to PostgreSQL with `npm run db:migrate-to-postgres`, as an operator would: a founder's
// data made through the app on SQLite (and 10,000 scans through the app's own scan recording), an instance started
// on the still empty PostgreSQL database warning about it, the command run as a child process, then the founder
// signing in on an instance on PostgreSQL and finding the same project with the same analytics.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import type { Database } from "~/db/schema";
import { loadProjectAnalytics, type ProjectAnalytics } from "~/modules/analytics/analytics.server";
import { recordScans, type ScanInput } from "~/modules/scans/scans.server";
import { recordPitchSave } from "~/modules/saved/saves.server";
import { startAppServer, type AppServer } from "../support/app-server";
import { visitorAction } from "../support/leads-e2e";
import { insertProject } from "../support/pitch-e2e";
import { createPostgresDatabase } from "../support/postgres";
import { countRows, openTestDb, userIdByEmail } from "../support/test-db";
import { signUpAndSignIn, uniqueEmail } from "../support/sign-up";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANS = 10_000;
const PASSWORD = "secret123";

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(options: Parameters<typeof startAppServer>[0]): Promise<AppServer> {
  const app = await startAppServer(options);
  cleanups.push(() => app.stop());
  return app;
}

function runCommand(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "db:migrate-to-postgres"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function tableCounts(database: AppDatabase, tables: (keyof Database)[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = await countRows(database.db.selectFrom(table));
  }
  return counts;
}

/** Every row of the tables a founder's data lives in, as domain code reads them (booleans, lists, ISO timestamps). */
async function rowsAsRead(database: AppDatabase): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of ["users", "accounts", "projects", "qr_codes", "signal_tiers", "contacts", "signals", "leads", "recognition_entries"] as const) {
    rows[table] = await database.db.selectFrom(table).selectAll().orderBy("id").execute();
  }
  return rows;
}

/** What each project's founder sees on the analytics page, computed at one fixed moment. */
async function analyticsOfEveryProject(database: AppDatabase, now: Date): Promise<Record<string, ProjectAnalytics>> {
  const projects = await database.db.selectFrom("projects").select(["id", "owner_id"]).orderBy("id").execute();
  const all: Record<string, ProjectAnalytics> = {};
  for (const project of projects) {
    const analytics = await loadProjectAnalytics(database.db, project.owner_id, project.id, now);
    all[project.id] = { ...analytics, qrCodes: [...analytics.qrCodes].sort((a, b) => a.id.localeCompare(b.id)) };
  }
  return all;
}

async function signIn(app: AppServer, email: string): Promise<string> {
  const response = await fetch(`${app.url}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email, password: PASSWORD }),
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .filter((cookie) => cookie.includes("session_token"))
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("npm run db:migrate-to-postgres", () => {
  it("moves a SQLite deployment with 10,000 scans into an empty PostgreSQL database, once", { timeout: 300_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-move-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const target = await createPostgresDatabase("pitchqr_move");
    cleanups.push(() => target.drop());

    // On SQLite: the demo project (seeded), a founder's project with two QR codes, an intro, a subscription and a signal.
    const email = uniqueEmail("move");
    const onSqlite = await started({ dataDir });
    const oldCookie = await signUpAndSignIn(onSqlite.url, email, PASSWORD);
    const owner = openTestDb({ dataDir });
    const ownerId = await userIdByEmail(owner, email).finally(() => owner.destroy());
    const project = await insertProject(dataDir, {
      ownerId,
      title: "Harbor Move",
      oneLiner: "Solar cold rooms for clinics",
      tiers: [
        { label: "Angel", min: 5000, max: 25000 },
        { label: "Lead", min: 250000, max: null },
      ],
      qrCodes: [
        { label: "Booth 4", eventTag: "Web Summit" },
        { label: "Stage", eventTag: "Demo Day" },
      ],
    });
    const [boothId, stageId] = project.qrCodeIds as [string, string];
    await visitorAction(onSqlite, project.slug, boothId, { intent: "intro", name: "Ada Marsh", email: "ada@example.com", note: "Happy to introduce you", roleTags: "Angel" });
    await visitorAction(onSqlite, project.slug, stageId, { intent: "subscribe", name: "Grace Lin", email: "grace@example.com", consent: "on" });
    await visitorAction(onSqlite, project.slug, null, { intent: "signal", tierId: project.tierIds[0]!, name: "Omar Haddad", email: "omar@example.com", message: "Loved the pilot", showName: "on" });
    await onSqlite.stop();

    // 10,000 scans through the app's scan recording (counters, viewers, hourly buckets), as the door batches them.
    const sqliteFile = path.join(dataDir, "app.sqlite");
    const sqlite = openDatabase({ dialect: "sqlite", file: sqliteFile });
    const sources = [boothId, stageId, null];
    const scans: ScanInput[] = Array.from({ length: SCANS }, (_, i) => ({
      projectId: project.id,
      qrCodeId: sources[i % 3]!,
      viewerFingerprint: `viewer-${i % 2_500}`,
    }));
    for (let start = 0; start < scans.length; start += 500) await recordScans(sqlite.db, scans.slice(start, start + 500));
    // Two visitors saved the pitch to their phone's list: the new table travels too.
    for (const viewerFingerprint of ["viewer-1", "viewer-2"]) await recordPitchSave(sqlite.db, { identity: { viewerFingerprint, addressHash: null }, clientAddress: "192.0.2.10" }, { projectId: project.id, qrCodeId: boothId });
    const now = new Date();
    const expectedAnalytics = await analyticsOfEveryProject(sqlite, now);
    const TABLES: (keyof Database)[] = ["users", "accounts", "sessions", "projects", "qr_codes", "scans", "contacts", "signals", "leads", "recognition_entries", "project_stats", "source_stats", "scan_hours", "pitch_saves"];
    const expectedCounts = await tableCounts(sqlite, TABLES);
    const expectedRows = await rowsAsRead(sqlite);
    await sqlite.close();
    expect(expectedAnalytics[project.id]!.totalScans).toBe(SCANS);
    expect(expectedAnalytics[project.id]!.uniqueScans).toBe(2_500);
    expect(expectedAnalytics[project.id]!.actions).toBe(3);
    expect(expectedCounts.scans).toBe(SCANS);
    expect(expectedCounts.pitch_saves).toBe(2);
    expect(expectedAnalytics[project.id]!.totalSaves).toBe(2);
    expect(Object.keys(expectedAnalytics)).toHaveLength(2);

    // Started on the empty PostgreSQL database, the app says where the data is and how to move it (and seeds no demo).
    const unmoved = await started({ dataDir, env: { DATABASE_URL: target.url } });
    await unmoved.stop();
    expect(unmoved.logs).toContain(
      `Warning: this PostgreSQL database is empty, but ${sqliteFile} holds 2 projects. To move that data here, stop the app and run: npm run db:migrate-to-postgres`,
    );

    // The command, as an operator runs it: DATA_DIR and DATABASE_URL from the environment.
    const startedAt = Date.now();
    const moved = await runCommand({ DATA_DIR: dataDir, DATABASE_URL: target.url });
    const seconds = (Date.now() - startedAt) / 1000;
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    const lines = moved.stdout.trim().split("\n");
    const scansLine = lines.find((line) => line.includes("] scans: "));
    expect(scansLine).toMatch(/\] scans: 10,000 rows( \([\d.]+ s\))?$/);
    expect(lines).toContainEqual(expect.stringMatching(/\] users: 2 rows$/));
    expect(lines.at(-2)).toMatch(/^Copied [\d,]+ rows in \d+ tables in [\d.]+ s; row counts match and the analytics of 2 projects read the same on both\.$/);
    console.log(`${moved.stdout}(${seconds.toFixed(1)} s with npm and the process start)`);

    const postgres = openDatabase({ dialect: "postgres", url: target.url });
    cleanups.push(() => postgres.close());
    expect(await tableCounts(postgres, TABLES)).toEqual(expectedCounts);
    expect(await analyticsOfEveryProject(postgres, now)).toEqual(expectedAnalytics);
    expect(await rowsAsRead(postgres)).toEqual(expectedRows);
    expect(expectedRows.contacts).toContainEqual(expect.objectContaining({ email: "ada@example.com", role_tags: ["Angel"], subscribed: false }));
    expect(expectedRows.contacts).toContainEqual(expect.objectContaining({ email: "grace@example.com", subscribed: true }));

    // A second run refuses and changes nothing.
    const again = await runCommand({ DATA_DIR: dataDir, DATABASE_URL: target.url });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^The PostgreSQL database is not empty \(.*scans: 10000.*\), so nothing was copied and nothing changed\./);
    expect(await tableCounts(postgres, TABLES)).toEqual(expectedCounts);

    // New rows take ids after the copied ones.
    expect(await recordScans(postgres.db, [{ projectId: project.id, qrCodeId: boothId, viewerFingerprint: "after-the-move" }])).toEqual([true]);
    expect((await tableCounts(postgres, ["scans"])).scans).toBe(SCANS + 1);

    // On PostgreSQL the founder's session still holds, they sign in with their password, and their project is there.
    const onPostgres = await started({ dataDir, env: { DATABASE_URL: target.url } });
    expect(onPostgres.logs.join("\n")).not.toContain("Warning: this PostgreSQL database is empty");
    for (const cookie of [oldCookie, await signIn(onPostgres, email)]) {
      const page = await fetch(`${onPostgres.url}/my-projects`, { headers: { cookie }, redirect: "manual" });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Harbor Move");
    }
  });
});
