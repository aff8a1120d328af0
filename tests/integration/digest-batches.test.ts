// The weekly digest for a large audience is queued in batches, each its own transaction: every subscriber gets it
// once, and a run stopped between batches (a shutdown, a crash) is continued by the next pass without repeats.
// Each test uses its own Friday, so the tests share one database without depending on each other.
import pino from "pino";
import { expect, it } from "vitest";
import type { AppDatabase } from "~/db/client.server";
import { validate } from "~/modules/forms/validation";
import { postProjectUpdate } from "~/modules/updates/project-updates.server";
import { projectUpdateSchema } from "~/modules/updates/project-update-form";
import { DigestScheduler, queueDigestBatch } from "~/modules/updates/weekly-digest.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

const logger = pino({ level: "silent" });
const BATCH = 300;

/** Subscribers written straight into the table (a subscription through the form would also queue a welcome each). */
async function subscribers(database: AppDatabase, projectId: string, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    project_id: projectId,
    name: `Fan ${i}`,
    email: `fan-${crypto.randomUUID().slice(0, 8)}-${i}@example.com`,
    intent: "Subscriber" as const,
    subscribed: true,
    role_tags: [],
    linkedin_url: null,
    note: null,
    user_id: null,
  }));
  for (let start = 0; start < rows.length; start += 200) await database.db.insertInto("contacts").values(rows.slice(start, start + 200)).execute();
  return rows.map((row) => row.email);
}

async function projectWithNews(database: AppDatabase, title: string, fans: number, postedAt: string) {
  const ownerId = await createUser(database.db);
  const project = await createProject(database.db, { ownerId, title });
  const emails = await subscribers(database, project.id, fans);
  const input = validate(projectUpdateSchema, { body: `${title} shipped something` });
  if (!input.ok) throw new Error(input.formError);
  await postProjectUpdate(database.db, ownerId, project.id, input.data, new Date(postedAt));
  return emails;
}

/** Digest recipients among `emails`, with how many digests each got. */
async function digestCounts(database: AppDatabase, emails: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let start = 0; start < emails.length; start += 500) {
    const rows = await database.db
      .selectFrom("mail_outbox")
      .select("recipient")
      .where("kind", "=", "digest")
      .where("recipient", "in", emails.slice(start, start + 500))
      .execute();
    for (const row of rows) counts.set(row.recipient, (counts.get(row.recipient) ?? 0) + 1);
  }
  return counts;
}

function schedulerAt(database: AppDatabase, now: Date) {
  return new DigestScheduler(database.db, testMailLinks, { hour: 9, timeZone: "UTC" }, logger, { clock: () => now, batchSize: BATCH });
}

describeEachDialect("the weekly digest in batches", (getDb) => {
  it("queues one digest to each of 2,000 subscribers of two projects, in batches", async () => {
    const database = getDb();
    const big = await projectWithNews(database, "Batch Harbor", 1_500, "2033-03-01T10:00:00.000Z");
    const small = await projectWithNews(database, "Batch Cove", 500, "2033-03-02T10:00:00.000Z");
    const now = new Date("2033-03-04T09:00:10.000Z");

    const run = await schedulerAt(database, now).runOnce();
    expect(run).toEqual({ slot: "2033-03-04", projects: 2, messages: 2_000, finished: true });
    const counts = await digestCounts(database, [...big, ...small]);
    expect(counts.size).toBe(2_000);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const recorded = await database.db.selectFrom("digest_runs").selectAll().where("slot", "=", "2033-03-04").executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ projects: 2, messages: 2_000 });
    expect(recorded.finished_at).not.toBeNull();
    expect(await schedulerAt(database, now).runOnce()).toBeNull();
  });

  it("stops between batches when the app shuts down and is continued by the next pass, nobody twice, nobody skipped", async () => {
    const database = getDb();
    const fans = await projectWithNews(database, "Batch Reef", 2_000, "2033-03-08T10:00:00.000Z");
    const now = new Date("2033-03-11T09:00:10.000Z");

    // Shutdown arrives as the run starts: it is claimed, and stops before its first batch.
    const stopped = schedulerAt(database, now);
    const pass = stopped.runOnce();
    await stopped.stop();
    expect(await pass).toEqual({ slot: "2033-03-11", projects: 1, messages: 0, finished: false });

    // One batch committed (by this instance before it died, or by another instance).
    expect(await queueDigestBatch(database.db, testMailLinks, "2033-03-11", "UTC", BATCH, now)).toBe(BATCH);
    const afterOne = await digestCounts(database, fans);
    expect(afterOne.size).toBe(BATCH);
    const midway = await database.db.selectFrom("digest_runs").select(["finished_at", "messages", "cursor_email"]).where("slot", "=", "2033-03-11").executeTakeFirstOrThrow();
    expect(midway).toMatchObject({ finished_at: null, messages: BATCH });

    // The restarted app continues after the last committed batch.
    const run = await schedulerAt(database, now).runOnce();
    expect(run).toEqual({ slot: "2033-03-11", projects: 1, messages: 2_000 - BATCH, finished: true });
    const counts = await digestCounts(database, fans);
    expect(counts.size).toBe(2_000);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(await schedulerAt(database, now).runOnce()).toBeNull();
  });
});
