// The Recognition Wall's numbering (decision "wall-sequence"): per project, in commit order, so a reader that
// follows `seq > cursor` (the live stream) meets every entry exactly once, however the writers interleave.
import { sql } from "kysely";
import { expect, it } from "vitest";
import { numberExistingWallEntries } from "~/db/migrations/0014-wall-sequence.server";
import { validate } from "~/modules/forms/validation";
import { signalSchema } from "~/modules/signals/signal-form";
import { addWallEntry, latestWallSeq, readWallAfter, type PublicWallEntry } from "~/modules/recognition/wall.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

const anonymous = { userId: null };

function publicSignal(tierId: string, name: string) {
  const result = validate(signalSchema, { tierId, name, email: `${name.toLowerCase().replace(/\W/g, "")}@example.com`, showName: "on" });
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

describeEachDialect("wall numbers", (getDb, dialect) => {
  it("numbers concurrent signals 1…n per project, and a reader following the cursor meets each once, in order", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const writers = 12;
    const perWriter = 4;
    const seen: PublicWallEntry[] = [];
    let writing = true;
    const follow = async () => {
      let cursor = 0;
      const readOnce = async () => {
        for (const entry of await readWallAfter(db, project.id, cursor)) {
          seen.push(entry);
          cursor = entry.seq;
        }
      };
      while (writing) await readOnce();
      await readOnce();
    };
    const following = follow();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let n = 0; n < perWriter; n += 1) {
          await recordSignal(db, testMailLinks, project.id, publicSignal(project.tiers[0]!.id, `W${writer} N${n}`), anonymous);
          if (n === 0) await recordSignal(db, testMailLinks, other.id, publicSignal(other.tiers[0]!.id, `Other ${writer}`), anonymous);
        }
      }),
    );
    writing = false;
    await following;

    const total = writers * perWriter;
    expect(seen.map((entry) => entry.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(new Set(seen.map((entry) => entry.displayName)).size).toBe(total);
    expect(await latestWallSeq(db, project.id)).toBe(total);
    expect((await readWallAfter(db, other.id, 0)).map((entry) => entry.seq)).toEqual(Array.from({ length: writers }, (_, i) => i + 1));
  });

  it.runIf(dialect === "postgres")("makes a later writer wait for the earlier one's commit, so no number becomes visible before a lower one", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstNumbered!: () => void;
    const firstHasNumber = new Promise<void>((resolve) => (firstNumbered = resolve));
    const first = db.transaction().execute(async (trx) => {
      const entry = await addWallEntry(trx, { projectId: project.id, type: "Pilot", displayName: "First", roleTags: [], message: null, createdAt: new Date().toISOString() });
      firstNumbered();
      await firstMayCommit;
      return entry;
    });
    await firstHasNumber;
    const second = recordSignal(db, testMailLinks, project.id, publicSignal(project.tiers[0]!.id, "Second"), anonymous);

    // The second writer is blocked on the project's row while the first has not committed.
    await expect
      .poll(async () => {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
        return rows[0]!.waiting;
      })
      .toBe(1);
    expect(await readWallAfter(db, project.id, 0)).toEqual([]);

    commitFirst();
    expect((await first).seq).toBe(1);
    expect((await second).wallSeq).toBe(2);
    expect((await readWallAfter(db, project.id, 0)).map((entry) => [entry.displayName, entry.seq])).toEqual([
      ["First", 1],
      ["Second", 2],
    ]);
  });

  it("numbers the entries of a database made before the numbering in id order, per project, and continues from there", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const add = (projectId: string, displayName: string) =>
      addWallEntry(db, { projectId, type: "Supporter", displayName, roleTags: [], message: null, createdAt: new Date().toISOString() });
    for (const [projectId, name] of [
      [project.id, "A1"],
      [other.id, "B1"],
      [project.id, "A2"],
      [project.id, "A3"],
      [other.id, "B2"],
    ] as const) {
      await add(projectId, name);
    }
    // As before the migration: no numbers (distinct placeholders, for the unique index), counters at 0.
    await sql`update recognition_entries set wall_seq = -id where project_id in (${project.id}, ${other.id})`.execute(db);
    await sql`update projects set wall_seq = 0 where id in (${project.id}, ${other.id})`.execute(db);

    await numberExistingWallEntries(db.withoutPlugins());

    const numbered = async (projectId: string) => (await readWallAfter(db, projectId, 0)).map((entry) => [entry.displayName, entry.seq]);
    expect(await numbered(project.id)).toEqual([
      ["A1", 1],
      ["A2", 2],
      ["A3", 3],
    ]);
    expect(await numbered(other.id)).toEqual([
      ["B1", 1],
      ["B2", 2],
    ]);
    expect((await add(project.id, "A4")).seq).toBe(4);
  });
});
