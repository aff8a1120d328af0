import type { AppConfig } from "~/config.server";
import type { Dialect } from "~/db/dialect.server";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { queueEmailConfirmationMail } from "~/modules/auth/email-confirmation.server";
import { queuePasswordResetMail } from "~/modules/auth/password-reset.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import { createLogger } from "~/modules/logging/logger.server";
import type { TestDatabase } from "./databases";

/** The part of the configuration better-auth and the auth gateway read. */
export const TEST_AUTH_CONFIG = {
  publicUrl: "http://pitch.test",
  publicOrigin: "http://pitch.test",
  authSecret: "integration-test-secret-that-is-long-enough-0123456789",
  signup: "open",
} as AppConfig;

/** better-auth over the test database, mailing reset and confirmation links through the outbox as the app does. */
export function createTestAuth(database: TestDatabase, dialect: Dialect, config: AppConfig = TEST_AUTH_CONFIG): Auth {
  return createAuth({
    config,
    db: database.db.withoutPlugins(),
    dialect,
    sendPasswordReset: (reset) => queuePasswordResetMail(database.db, config.publicUrl, reset),
    sendEmailConfirmation: (confirmation) => queueEmailConfirmationMail(database.db, config.publicUrl, confirmation),
    // The negative tests' expected "Invalid password" lines would only be noise in the test output.
    logger: createLogger("silent"),
  });
}

let ipCounter = 0;
/** A client address no other test uses, so better-auth's per-address limits never couple two tests. */
export const freshIp = () => `10.2.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** A request as the app's page would forward it to the gateway: the trusted client address, a browser, its cookies. */
export function browserRequest(ip: string, cookie?: string) {
  const headers = new Headers({ [CLIENT_IP_HEADER]: ip, "user-agent": "vitest" });
  if (cookie) headers.set("cookie", cookie);
  return new Request("http://pitch.test/auth", { method: "POST", headers });
}

/** `name=value; name2=value2` from Set-Cookie headers, as a browser would send them back. */
export function cookieHeader(setCookies: string[]) {
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}
