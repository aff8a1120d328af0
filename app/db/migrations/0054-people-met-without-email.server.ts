import { sql, type Kysely, type Migration } from "kysely";
import { dialectOf } from "../dialect.server";

/**
 * People met in person without an e-mail (decision 92): a lead and a capture may have no e-mail, a
 * capture keeps the phone number it was given, and a lead keeps `met_key`, what tells the same person met again
 * without an address (their LinkedIn profile or their phone's digits), unique per project. Existing rows keep their
 * e-mail and get no key: the key is set from the next capture that names one.
 *
 * PostgreSQL drops the NOT NULL in place. SQLite cannot, so each table is rebuilt from its own CREATE statement
 * with only that NOT NULL removed (every other column, check, default, unique constraint and foreign key as it
 * was), its rows copied, and its indexes created again from their own statements; foreign keys are off meanwhile
 * so dropping the old table deletes nothing that references it.
 */
export const peopleMetWithoutEmail: Migration = {
  async up(db: Kysely<any>) {
    await setEmailRequired(db, false);
    await db.schema.alterTable("lead_captures").addColumn("phone", "text").execute();
    await db.schema.alterTable("leads").addColumn("met_key", "text").execute();
    await db.schema.createIndex("leads_project_met_key_unique").on("leads").columns(["project_id", "met_key"]).unique().execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("leads_project_met_key_unique").execute();
    await db.schema.alterTable("leads").dropColumn("met_key").execute();
    await db.schema.alterTable("lead_captures").dropColumn("phone").execute();
    await setEmailRequired(db, true);
  },
};

const TABLES = ["leads", "lead_captures"] as const;

async function setEmailRequired(db: Kysely<any>, required: boolean) {
  if (dialectOf(db) === "postgres") {
    for (const table of TABLES) {
      await sql`alter table ${sql.table(table)} alter column email ${sql.raw(required ? "set" : "drop")} not null`.execute(db);
    }
    return;
  }
  const before = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  const foreignKeysWereOn = Number(before.rows[0]?.foreign_keys ?? 0) === 1;
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      for (const table of TABLES) await rebuildSqliteEmailColumn(db, table, required);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`migration 0054: ${broken.rows.length} rows lost their foreign key`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    if (foreignKeysWereOn) await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function rebuildSqliteEmailColumn(db: Kysely<any>, table: string, required: boolean) {
  const created = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
  const statement = created.rows[0]?.sql;
  if (!statement) throw new Error(`migration 0054: no table ${table}`);
  const [from, to] = required ? [`"email" text,`, `"email" text not null,`] : [`"email" text not null,`, `"email" text,`];
  if (!statement.includes(from)) throw new Error(`migration 0054: ${table}.email is not declared as expected`);
  const rebuilt = `${table}_rebuilt`;
  const createRebuilt = statement.replace(from, to).replace(new RegExp(`^CREATE TABLE "${table}"`, "i"), `CREATE TABLE "${rebuilt}"`);
  if (createRebuilt === statement) throw new Error(`migration 0054: could not rename ${table}`);
  await sql.raw(createRebuilt).execute(db);
  await sql`insert into ${sql.table(rebuilt)} select * from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(rebuilt)} rename to ${sql.table(table)}`.execute(db);
  for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
}
