import fs from "node:fs";
import path from "node:path";
import { copySqliteToPostgres } from "./copy-to-postgres";
import { isDomainError } from "~/modules/errors.server";
import { shownPath, withoutCredentials } from "./startup-report";
import { plural, pluralWord } from "~/modules/formats/counts";

const USAGE = `Copies a SQLite deployment of PitchQR into an empty PostgreSQL database, in one transaction.

  npm run db:migrate-to-postgres [-- --from data/app.sqlite --to postgres://user@host:5432/db]

--from  the SQLite file (default: DATA_DIR/app.sqlite, DATA_DIR defaults to data)
--to    the PostgreSQL database (default: DATABASE_URL); it must be empty
Stop the app first: what it writes during the copy is not copied.`;

type Arguments = { from?: string; to?: string; help: boolean };

function parseArguments(args: readonly string[]): Arguments {
  const parsed: Arguments = { help: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") parsed.help = true;
    else if (arg === "--from" || arg === "--to") {
      const value = args[i + 1];
      if (!value || value.startsWith("--")) throw new Error(`${arg} needs a value`);
      parsed[arg === "--from" ? "from" : "to"] = value;
      i += 1;
    } else if (arg.startsWith("--from=")) parsed.from = arg.slice("--from=".length);
    else if (arg.startsWith("--to=")) parsed.to = arg.slice("--to=".length);
    else throw new Error(`Unknown argument ${arg}`);
  }
  return parsed;
}

/** `npm run db:migrate-to-postgres` (scripts/migrate-to-postgres.js): prints one line per table; returns the exit code. */
export async function migrateToPostgresCommand(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: Arguments;
  try {
    options = parseArguments(args);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const sqliteFile = path.resolve(options.from ?? path.join(env.DATA_DIR || "data", "app.sqlite"));
  const postgresUrl = options.to ?? env.DATABASE_URL;
  if (!postgresUrl || !/^postgres(ql)?:\/\//.test(postgresUrl)) {
    console.error(`Say which PostgreSQL database to copy into: DATABASE_URL=postgres://… or --to postgres://…\n\n${USAGE}`);
    return 2;
  }

  if (!fs.existsSync(sqliteFile)) {
    console.error(`There is no SQLite database at ${shownPath(sqliteFile)}: set DATA_DIR to the app's data folder, or give the file with --from.`);
    return 2;
  }

  const target = `PostgreSQL at ${withoutCredentials(postgresUrl)}`;
  console.log(`Copying SQLite at ${shownPath(sqliteFile)} into ${target} (both schemas brought up to date first)`);
  const started = Date.now();
  try {
    const report = await copySqliteToPostgres({
      sqliteFile,
      postgresUrl,
      onTableCopied: ({ table, rows, index, tables, milliseconds }) =>
        console.log(
          `  [${String(index + 1).padStart(2)}/${tables}] ${table}: ${plural(rows, "row")}` +
            (milliseconds >= 100 ? ` (${(milliseconds / 1000).toFixed(1)} s)` : ""),
        ),
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Copied ${report.rows.toLocaleString("en-US")} rows in ${report.tables.length} tables in ${seconds} s; ` +
        `row counts match and the analytics of ${report.projectsVerified} ${pluralWord(report.projectsVerified, "project")} read the same on both.`,
    );
    console.log(`Start the app with DATABASE_URL set to this database. The SQLite file keeps its data.`);
    return 0;
  } catch (error) {
    if (isDomainError(error)) console.error(error.message);
    else {
      // A driver or network error (it has a code) is said in its own words; anything else is a fault worth its stack.
      const detail = error instanceof Error && "code" in error ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`The copy failed and was rolled back; ${target} is as it was.\n${detail}`);
    }
    return 1;
  }
}
