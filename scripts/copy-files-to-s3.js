// `npm run storage:copy-to-s3`: copies the uploaded files from the data folder into an S3 bucket. The work is done by
// the app's own code (server/copy-files-to-s3.ts, bundled into the server build, as server.js uses it).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfStale } from "./build-if-stale.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!buildIfStale()) process.exit(1);
const { copyFilesToS3Command } = await import(path.join(root, "build/server/index.js"));
process.exitCode = await copyFilesToS3Command(process.argv.slice(2));
