import { betterAuth } from "better-auth";
import type { Kysely } from "kysely";
import type { AppConfig } from "~/config.server";
import type { Dialect } from "~/db/dialect.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import type { Logger } from "~/modules/logging/logger.server";
import { PRODUCT_NAME } from "~/product";
import { EMAIL_CONFIRMATION_TTL_SECONDS, type EmailConfirmationRequest } from "./email-confirmation.server";
import { endPasswordResetLinks, PASSWORD_RESET_TTL_SECONDS, type PasswordResetRequest } from "./password-reset.server";

const timestamps = { createdAt: "created_at", updatedAt: "updated_at" } as const;

/**
 * better-auth over our own Kysely connection, mapped onto the snake_case tables of migration 0001.
 * It receives the plugin-free query builder: better-auth does its own value conversion per dialect.
 */
export function createAuth(options: {
  config: AppConfig;
  db: Kysely<any>;
  dialect: Dialect;
  /** Queues the reset link's mail (password-reset.server.ts); called by better-auth for an address with an account. */
  sendPasswordReset: (reset: PasswordResetRequest) => Promise<void>;
  /** Queues the address confirmation's mail (email-confirmation.server.ts): at sign-up, and on 'Send it again'. */
  sendEmailConfirmation: (confirmation: EmailConfirmationRequest) => Promise<void>;
  /** Where better-auth's own lines go ("Invalid password", …): the app's JSON log, not the console. */
  logger: Logger;
}) {
  const { config, db, dialect, sendPasswordReset, sendEmailConfirmation, logger } = options;
  return betterAuth({
    appName: PRODUCT_NAME,
    logger: { log: (level, message, ...args) => logger[level]({ args }, `auth: ${message}`) },
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.publicOrigin],
    telemetry: { enabled: false },
    database: { db, type: dialect },
    emailAndPassword: {
      enabled: true,
      autoSignIn: false,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // Better-auth's own reset flow; the token is single use, stored hashed (verification below).
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, token }) => sendPasswordReset({ email: user.email, name: user.name, token }),
      onPasswordReset: ({ user }) => endPasswordResetLinks(db, user.id),
    },
    // Decision 83: the address is confirmed by a signed link mailed at sign-up; signing in does not wait for it.
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: EMAIL_CONFIRMATION_TTL_SECONDS,
      sendVerificationEmail: ({ user, token }) => sendEmailConfirmation({ email: user.email, name: user.name, token }),
    },
    user: {
      modelName: "users",
      fields: { emailVerified: "email_verified", ...timestamps },
      // Decision 52: read with every session, so each founder screen knows its clock without a query of its own.
      // Written only by our own code (sign-up, My Projects), never from better-auth's input.
      additionalFields: {
        timeZone: { type: "string", required: false, input: false, fieldName: "time_zone" },
        // Decision 83: an account made before addresses were confirmed is mailed as if it had confirmed.
        emailConfirmationWaived: { type: "boolean", required: false, input: false, defaultValue: false, fieldName: "email_confirmation_waived" },
      },
    },
    session: {
      modelName: "sessions",
      fields: {
        userId: "user_id",
        expiresAt: "expires_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
        ...timestamps,
      },
    },
    account: {
      modelName: "accounts",
      fields: {
        userId: "user_id",
        accountId: "account_id",
        providerId: "provider_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        ...timestamps,
      },
    },
    verification: {
      modelName: "verifications",
      fields: { expiresAt: "expires_at", ...timestamps },
      // The table alone opens nothing: a reset token is kept as its hash.
      storeIdentifier: "hashed",
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rate_limits",
      fields: { lastRequest: "last_request" },
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 5 },
        // Per client address; per target address, requestPasswordReset counts too (gateway.server.ts).
        "/request-password-reset": { window: 10 * 60, max: 5 },
        "/reset-password": { window: 10 * 60, max: 10 },
        "/reset-password/*": { window: 10 * 60, max: 30 },
        "/send-verification-email": { window: 10 * 60, max: 5 },
        "/verify-email": { window: 10 * 60, max: 30 },
      },
    },
    advanced: {
      // The Express layer always overwrites this header with the address it trusts (see client-ip.server.ts).
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: config.ipv6LimitPrefix },
      useSecureCookies: config.publicUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      database: { generateId: () => crypto.randomUUID() },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
