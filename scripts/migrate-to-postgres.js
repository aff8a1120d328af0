// `npm run db:migrate-to-postgres`: copies a SQLite deployment into an empty PostgreSQL database. The work is
// done by the app's own code (server/migrate-to-postgres.ts, bundled into the server build, as server.js uses it).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfStale } from "./build-if-stale.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!buildIfStale()) process.exit(1);
const { migrateToPostgresCommand } = await import(path.join(root, "build/server/index.js"));
process.exitCode = await migrateToPostgresCommand(process.argv.slice(2));
