import path from "node:path";
import type { AppConfig } from "~/config.server";
import { publicUrlWarning } from "~/modules/qr/public-url";
import type { AppServices } from "~/services.server";

/**
 * What `npm start` tells a person, one plain line each (decision 21): the database and what start-up did to
 * it, an empty PostgreSQL database beside a SQLite one with projects, the demo page when it was just seeded, where mail goes, and (decision 17) that QR codes would encode an
 * address phones cannot open. Addresses never carry credentials.
 */
export function startupReport(config: AppConfig, startup: AppServices["startup"]): string[] {
  const migrated = startup.migrationsApplied.length;
  const database =
    config.database.dialect === "sqlite" ? `SQLite at ${shownPath(config.database.file)}` : `PostgreSQL at ${withoutCredentials(config.database.url)}`;
  const lines = [`Database: ${database}, ${migrated ? `${migrated} migration${migrated === 1 ? "" : "s"} applied` : "up to date"}`];
  if (startup.sqliteLeftBehind) {
    const { file, projects } = startup.sqliteLeftBehind;
    lines.push(
      `Warning: this PostgreSQL database is empty, but ${shownPath(file)} holds ${projects} project${projects === 1 ? "" : "s"}. ` +
        "To move that data here, stop the app and run: npm run db:migrate-to-postgres",
    );
  }
  if (startup.demoSeeded) lines.push(`Demo project seeded: ${config.publicUrl}/pitch/demo-project`);
  lines.push(
    config.smtpUrl
      ? `Mail goes to ${withoutCredentials(config.smtpUrl)}`
      : `Mail is kept as .eml files in ${shownPath(path.join(config.dataDir, "mail"))}${path.sep}`,
  );
  const qrAddress = publicUrlWarning(config.publicUrl);
  if (qrAddress) lines.push(qrAddress.message);
  return lines;
}

/** A path under the current folder as typed there (`data/mail`), any other one in full. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return "(an address that does not parse)";
  }
}
