import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import type { Dialect } from "~/db/dialect.server";
import { migrateToLatest, migrateUpTo } from "~/db/migrate.server";
import { createPostgresDatabase } from "./postgres";

export const DIALECTS: readonly Dialect[] = ["sqlite", "postgres"];

export type TestDatabase = AppDatabase & { url: string; destroy(): Promise<void> };

/**
 * A fresh, migrated database of the given kind: a new SQLite file, or a new PostgreSQL database. With `upTo`,
 * migrated only up to that migration, as an older release left it.
 */
export async function createTestDatabase(dialect: Dialect, options: { upTo?: string } = {}): Promise<TestDatabase> {
  const migrate = (db: Parameters<typeof migrateToLatest>[0]) => (options.upTo ? migrateUpTo(db, options.upTo) : migrateToLatest(db));
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-test-"));
    const file = path.join(dir, "test.sqlite");
    const database = openDatabase({ dialect: "sqlite", file });
    await migrate(database.db.withoutPlugins());
    return {
      ...database,
      url: `file:${file}`,
      async destroy() {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const created = await createPostgresDatabase();
  const database = openDatabase({ dialect: "postgres", url: created.url });
  await migrate(database.db.withoutPlugins());
  return {
    ...database,
    url: created.url,
    async destroy() {
      await database.close();
      await created.drop();
    },
  };
}

/**
 * Runs one suite on every database (as Kysely's own tests do). Each dialect gets its own fresh database
 * for the whole describe block; tests inside create their own rows and never rely on each other's.
 */
export function describeEachDialect(name: string, suite: (get: () => TestDatabase, dialect: Dialect) => void) {
  describe.each(DIALECTS)(`${name} [%s]`, (dialect) => {
    let database: TestDatabase | undefined;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database?.destroy();
    });
    suite(() => {
      if (!database) throw new Error("test database not ready");
      return database;
    }, dialect);
  });
}
