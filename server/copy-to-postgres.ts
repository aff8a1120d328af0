import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { sql, type Kysely, type Transaction } from "kysely";
import { loadProjectAnalytics, type ProjectAnalytics } from "~/modules/analytics/analytics.server";
import { DomainError } from "~/modules/errors.server";
import { openDatabase } from "~/db/client.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { Database } from "~/db/schema";

/** Kysely's own bookkeeping: each database gets it from running the app's migrations, never from a copy. */
const MIGRATION_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);
/** PostgreSQL allows 65,535 parameters per statement; a batch stays well under it and under 1,000 rows. */
const MAX_PARAMETERS = 60_000;
const MAX_BATCH_ROWS = 1_000;

type TargetColumn = { name: string; type: string; sequence: boolean };
type TargetTable = { name: string; columns: Map<string, TargetColumn>; hasIdentity: boolean };

export type TableCopied = { table: string; rows: number; index: number; tables: number; milliseconds: number };

export type CopyReport = {
  tables: { table: string; rows: number }[];
  rows: number;
  /** Projects whose analytics read the same on both databases after the copy. */
  projectsVerified: number;
  migrationsApplied: { source: string[]; target: string[] };
};

/**
 * Copies a SQLite deployment into an empty PostgreSQL database (decision: SQLite to PostgreSQL in one
 * transaction). Both schemas are first brought up to date by the app's own migrations; then every table
 * except the migration bookkeeping is copied in foreign-key order read from PostgreSQL's catalog, values
 * converted to the target column's type, identity sequences moved past the copied ids, and row counts and
 * every project's analytics compared on both sides before the commit. Anything wrong rolls it all back.
 */
export async function copySqliteToPostgres(options: {
  sqliteFile: string;
  postgresUrl: string;
  onTableCopied?: (progress: TableCopied) => void;
  now?: Date;
}): Promise<CopyReport> {
  const { sqliteFile, postgresUrl, onTableCopied = () => {}, now = new Date() } = options;
  if (!fs.existsSync(sqliteFile)) throw new DomainError("not_found", `There is no SQLite database at ${sqliteFile}.`);
  const source = openDatabase({ dialect: "sqlite", file: sqliteFile });
  const target = openDatabase({ dialect: "postgres", url: postgresUrl }, { use: "unbounded" });
  try {
    const sourceMigrations = await migrateToLatest(source.db.withoutPlugins());
    const targetMigrations = await migrateToLatest(target.db.withoutPlugins());
    const tables = await targetTablesInForeignKeyOrder(target.db);
    const sourceColumns = await sourceTableColumns(source.db, tables);

    // The SQLite read transaction is one snapshot (WAL), so counts and aggregates agree with the rows read.
    const copied = await source.db.transaction().execute((sourceTrx) =>
      target.db.transaction().execute(async (targetTrx) => {
        await refuseNonEmptyTarget(targetTrx, tables);
        const copied: { table: string; rows: number }[] = [];
        for (const [index, table] of tables.entries()) {
          const started = performance.now();
          const rows = await copyTable(sourceTrx, targetTrx, table, sourceColumns.get(table.name)!);
          copied.push({ table: table.name, rows });
          onTableCopied({ table: table.name, rows, index, tables: tables.length, milliseconds: performance.now() - started });
        }
        await moveSequencesPastCopiedIds(targetTrx, tables);
        await verifyRowCounts(sourceTrx, targetTrx, copied);
        const projectsVerified = await verifyAnalytics(sourceTrx, targetTrx, now);
        return { copied, projectsVerified };
      }),
    );
    return {
      tables: copied.copied,
      rows: copied.copied.reduce((sum, table) => sum + table.rows, 0),
      projectsVerified: copied.projectsVerified,
      migrationsApplied: { source: sourceMigrations, target: targetMigrations },
    };
  } finally {
    await Promise.allSettled([source.close(), target.close()]);
  }
}

/** The app's tables on PostgreSQL, each after every table it references, so plain inserts satisfy every foreign key. */
async function targetTablesInForeignKeyOrder(db: Kysely<Database>): Promise<TargetTable[]> {
  const { rows: tableRows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p')`.execute(db);
  const { rows: columnRows } = await sql<{ table_name: string; column_name: string; data_type: string; sequence: boolean }>`
    select table_name, column_name, data_type,
      (is_identity = 'YES' or coalesce(column_default, '') like 'nextval(%') as sequence
    from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const { rows: references } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint k
    join pg_class child on child.oid = k.conrelid
    join pg_class parent on parent.oid = k.confrelid
    join pg_namespace n on n.oid = child.relnamespace
    where k.contype = 'f' and n.nspname = current_schema()`.execute(db);

  const tables = new Map<string, TargetTable>();
  for (const { name } of tableRows) {
    if (!MIGRATION_TABLES.has(name)) tables.set(name, { name, columns: new Map(), hasIdentity: false });
  }
  for (const column of columnRows) {
    const table = tables.get(column.table_name);
    if (!table) continue;
    table.columns.set(column.column_name, { name: column.column_name, type: column.data_type, sequence: column.sequence });
    if (column.sequence) table.hasIdentity = true;
  }

  const parents = new Map([...tables.keys()].map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references) {
    if (child !== parent && tables.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: TargetTable[] = [];
  const remaining = new Set([...tables.keys()].sort());
  while (remaining.size) {
    const ready = [...remaining].filter((name) => [...parents.get(name)!].every((parent) => !remaining.has(parent)));
    if (!ready.length) throw new Error(`The foreign keys of these tables form a cycle: ${[...remaining].join(", ")}`);
    for (const name of ready) {
      remaining.delete(name);
      ordered.push(tables.get(name)!);
    }
  }
  return ordered;
}

/** The SQLite columns of each table, checked against PostgreSQL: after both ran the same migrations they agree. */
async function sourceTableColumns(db: Kysely<Database>, tables: TargetTable[]): Promise<Map<string, string[]>> {
  const { rows: sourceTables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  const sourceNames = sourceTables.map((row) => row.name).filter((name) => !MIGRATION_TABLES.has(name));
  const targetNames = new Set(tables.map((table) => table.name));
  const missing = sourceNames.filter((name) => !targetNames.has(name));
  if (missing.length) throw new Error(`The SQLite database has tables the PostgreSQL schema lacks: ${missing.join(", ")}`);

  const columns = new Map<string, string[]>();
  for (const table of tables) {
    if (!sourceNames.includes(table.name)) throw new Error(`The SQLite database lacks the table ${table.name}`);
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table.name})`.execute(db);
    const names = rows.map((row) => row.name);
    const unknown = names.filter((name) => !table.columns.has(name));
    if (unknown.length) throw new Error(`PostgreSQL's ${table.name} lacks the SQLite columns ${unknown.join(", ")}`);
    columns.set(table.name, names);
  }
  return columns;
}

async function refuseNonEmptyTarget(trx: Transaction<Database>, tables: TargetTable[]): Promise<void> {
  const holding: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}`.execute(trx);
    const count = Number(rows[0]?.n ?? 0);
    if (count) holding.push(`${table.name}: ${count}`);
  }
  if (holding.length) {
    throw new DomainError(
      "conflict",
      `The PostgreSQL database is not empty (${holding.join(", ")} rows), so nothing was copied and nothing changed. ` +
        "Copy into a new, empty database (createdb), or empty this one first.",
    );
  }
}

/** Reads the table in batches and inserts each batch as one multi-row statement. */
async function copyTable(source: Transaction<Database>, target: Transaction<Database>, table: TargetTable, columns: string[]): Promise<number> {
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const types = columns.map((name) => table.columns.get(name)!.type);
  const overriding = table.hasIdentity ? sql` overriding system value` : sql``;
  const columnList = sql.join(columns.map((name) => sql.ref(name)));
  const targetRaw = target.withoutPlugins();
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (!batch.length) return;
    const values = sql.join(batch.map((row) => sql`(${sql.join(row)})`));
    await sql`insert into ${sql.table(table.name)} (${columnList})${overriding} values ${values}`.execute(targetRaw);
    copied += batch.length;
    batch = [];
  };
  const rows = (source.withoutPlugins() as unknown as Kysely<Record<string, Record<string, unknown>>>).selectFrom(table.name).select(columns).stream(batchRows);
  for await (const row of rows) {
    batch.push(columns.map((name, index) => toPostgresValue(row[name], types[index]!, table.name, name)));
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  return copied;
}

/** A SQLite value as the PostgreSQL column stores it (decision 2: 0/1 booleans, JSON text, ISO text timestamps). */
function toPostgresValue(value: unknown, type: string, table: string, column: string): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "boolean":
      if (typeof value === "number" || typeof value === "bigint") return value !== 0 && value !== 0n;
      if (value === "true" || value === "false") return value === "true";
      break;
    case "json":
    case "jsonb":
      // Handed over as text, PostgreSQL parses it into the column's type; a number or a string is its JSON text.
      return typeof value === "string" ? value : JSON.stringify(value);
    case "timestamp with time zone":
    case "timestamp without time zone":
    case "date":
      // Timestamps are ISO text; a number is milliseconds since 1970.
      if (typeof value === "number") return new Date(value).toISOString();
      if (typeof value === "string") return value;
      break;
    default:
      return value;
  }
  throw new Error(`${table}.${column} holds ${JSON.stringify(value)}, which is not a ${type}`);
}

/** Ids were copied with their values, so each identity or serial column's next value is max(id) + 1. */
async function moveSequencesPastCopiedIds(trx: Transaction<Database>, tables: TargetTable[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns.values()) {
      if (!column.sequence) continue;
      await sql`select setval(pg_get_serial_sequence(${`"${table.name}"`}, ${column.name}),
        coalesce((select max(${sql.ref(column.name)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(trx);
    }
  }
}

async function verifyRowCounts(source: Transaction<Database>, target: Transaction<Database>, copied: { table: string; rows: number }[]): Promise<void> {
  for (const { table } of copied) {
    const count = async (trx: Transaction<Database>) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(trx)).rows[0]?.n ?? 0);
    const [inSource, inTarget] = [await count(source), await count(target)];
    if (inSource !== inTarget) throw new Error(`${table}: ${inSource} rows in SQLite but ${inTarget} in PostgreSQL after the copy`);
  }
}

/** Every project's analytics, as its founder sees them, must read the same on both databases. Returns how many were compared. */
async function verifyAnalytics(source: Transaction<Database>, target: Transaction<Database>, now: Date): Promise<number> {
  const projects = await source.selectFrom("projects").select(["id", "owner_id", "slug"]).orderBy("id").execute();
  for (const project of projects) {
    const [before, after] = [
      comparable(await loadProjectAnalytics(source, project.owner_id, project.id, now)),
      comparable(await loadProjectAnalytics(target, project.owner_id, project.id, now)),
    ];
    if (!isDeepStrictEqual(before, after)) {
      throw new Error(`The analytics of project ${project.slug} differ after the copy:\nSQLite: ${JSON.stringify(before)}\nPostgreSQL: ${JSON.stringify(after)}`);
    }
  }
  return projects.length;
}

/** Lists whose order only breaks ties (codes with equal counts and creation times) are sorted by id. */
function comparable(analytics: ProjectAnalytics): ProjectAnalytics {
  const byKey = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const series = (list: ProjectAnalytics["scansOverTime"]["hourly"]) => [...list].sort(byKey((item) => item.qrCodeId));
  return {
    ...analytics,
    qrCodes: [...analytics.qrCodes].sort(byKey((code) => code.id)),
    funnel: [...analytics.funnel].sort(byKey((row) => row.source)),
    scansOverTime: { hourly: series(analytics.scansOverTime.hourly), daily: series(analytics.scansOverTime.daily) },
  };
}
