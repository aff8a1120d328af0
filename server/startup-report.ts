import path from "node:path";
import type { AppConfig } from "~/config.server";
import { mailSetupWarning } from "~/modules/mail/mail-setup";
import { publicUrlWarning } from "~/modules/qr/public-url";
import type { AppServices } from "~/services.server";
import { pluralWord } from "~/modules/formats/counts";

/**
 * What `npm start` tells a person, one plain line each (decision 21): the database and what start-up did to
 * it, an empty PostgreSQL database beside a SQLite one with projects, the demo page when it was just seeded, where mail goes, and (decision 17) that QR codes would encode an
 * address phones cannot open, and that an https PUBLIC_URL has no TRUST_PROXY. Addresses never carry credentials.
 */
export function startupReport(config: AppConfig, startup: AppServices["startup"]): string[] {
  const migrated = startup.migrationsApplied.length;
  const database =
    config.database.dialect === "sqlite" ? `SQLite at ${shownPath(config.database.file)}` : `PostgreSQL at ${withoutCredentials(config.database.url)}`;
  const lines = [`Database: ${database}, ${migrated ? `${migrated} ${pluralWord(migrated, "migration")} applied` : "up to date"}`];
  if (startup.sqliteLeftBehind) {
    const { file, projects } = startup.sqliteLeftBehind;
    lines.push(
      `Warning: this PostgreSQL database is empty, but ${shownPath(file)} holds ${projects} ${pluralWord(projects, "project")}. ` +
        "To move that data here, stop the app and run: npm run db:migrate-to-postgres",
    );
  }
  if (startup.demoSeeded) lines.push(`Demo project seeded: ${config.publicUrl}/pitch/demo-project`);
  if (config.smtpUrl) lines.push(`Mail goes to ${withoutCredentials(config.smtpUrl)}`);
  // Mail kept on disk (or sent from localhost) reaches nobody; the line says where it is and how to send it.
  const mail = mailSetupWarning({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, mailFolder: shownPath(config.mailDir) });
  if (mail) lines.push(mail.message);
  const qrAddress = publicUrlWarning(config.publicUrl);
  if (qrAddress) lines.push(qrAddress.message);
  const proxy = proxyWarning(config);
  if (proxy) lines.push(proxy);
  const secret = sharedSecretWarning(config);
  if (secret) lines.push(secret);
  return lines;
}

/**
 * On PostgreSQL, several instances may share the database; a secret generated into one instance's data folder signs
 * sessions and links that every other instance refuses.
 */
export function sharedSecretWarning(config: Pick<AppConfig, "database" | "authSecretSource" | "dataDir">): string | null {
  if (config.database.dialect !== "postgres" || config.authSecretSource !== "generated") return null;
  return (
    `Warning: DATABASE_URL is PostgreSQL but AUTH_SECRET is not set: this instance signs sessions, cookies and e-mailed links with a secret ` +
    `generated into ${shownPath(path.join(config.dataDir, "auth-secret"))}, so on any other instance founders are signed out and those links fail. ` +
    "Set the same AUTH_SECRET (32+ characters) on every instance."
  );
}

/**
 * An https PUBLIC_URL means a TLS proxy in front of this plain-HTTP server. Unless TRUST_PROXY lets the app believe
 * that proxy's X-Forwarded-Proto and -For, every request looks like http from the proxy's address: form posts fail
 * the same-origin check (400) and every visitor shares the proxy's rate limits.
 */
export function proxyWarning(config: Pick<AppConfig, "publicUrl" | "trustProxy">): string | null {
  if (!config.publicUrl.startsWith("https:") || config.trustProxy !== false) return null;
  return (
    `Warning: PUBLIC_URL is https (${config.publicUrl}) but TRUST_PROXY is not set: behind a TLS proxy every form post will fail ` +
    "with 400 and all visitors will share one address's limits. Set TRUST_PROXY to your proxy (e.g. TRUST_PROXY=loopback or a hop count)."
  );
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
