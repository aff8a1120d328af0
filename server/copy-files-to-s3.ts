import path from "node:path";
import { loadConfig } from "~/config.server";
import { plural } from "~/modules/formats/counts";
import { copyStoredFiles } from "~/modules/storage/copy-files.server";
import { createDiskStore } from "~/modules/storage/disk-store.server";
import { createS3Store } from "~/modules/storage/s3-store.server";
import { shownPath } from "./startup-report";

const USAGE = `Copies the uploaded files (decks) from the data folder into the S3 bucket the app is configured for.

  S3_BUCKET=… [S3_ENDPOINT=… S3_REGION=… S3_ACCESS_KEY_ID=… S3_SECRET_ACCESS_KEY=…] npm run storage:copy-to-s3 [-- --from data/files]

--from  the folder (default: STORAGE_DIR, or DATA_DIR/files; DATA_DIR defaults to data)
Files already in the bucket are skipped, so it can run while the app still serves from the folder and again just
before the app restarts with STORAGE=s3.`;

/** `npm run storage:copy-to-s3` (scripts/copy-files-to-s3.js): returns the exit code. */
export async function copyFilesToS3Command(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  let fromArg: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg.startsWith("--from=")) fromArg = arg.slice("--from=".length);
    else if (arg === "--from" && args[i + 1] && !args[i + 1]!.startsWith("--")) fromArg = args[(i += 1)];
    else {
      console.error(`${arg === "--from" ? "--from needs a folder" : `Unknown argument ${arg}`}\n\n${USAGE}`);
      return 2;
    }
  }
  let target;
  let folder: string;
  try {
    const config = loadConfig({ ...env, STORAGE: "s3" });
    if (config.storage.kind !== "s3") throw new Error("S3 storage is not configured");
    target = config.storage.s3;
    folder = path.resolve(fromArg ?? env.STORAGE_DIR ?? path.join(config.dataDir, "files"));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const bucket = createS3Store(target);
  try {
    await bucket.check();
    console.log(`Copying the files in ${shownPath(folder)} into the bucket ${target.bucket}${target.endpoint ? ` at ${target.endpoint}` : ""}`);
    const report = await copyStoredFiles(createDiskStore(folder), bucket, "decks/");
    console.log(
      `Copied ${plural(report.copied, "file")} (${(report.bytes / 1024 / 1024).toFixed(1)} MB); ${plural(report.alreadyThere, "file")} already there. ` +
        "Start the app with STORAGE=s3 and the same S3 settings.",
    );
    return 0;
  } catch (error) {
    console.error(`The copy stopped: ${(error as Error).message}. Run it again to go on where it stopped.`);
    return 1;
  }
}
