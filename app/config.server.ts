import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_IPV6_LIMIT_PREFIX } from "~/modules/http/ip-address.server";
import { smtpTimeoutsOf } from "~/modules/mail/transport.server";
import { KNOWN_PUSH_SERVICES, parsePushServiceOrigins, type PushService } from "~/modules/founder-alerts/push-services";
import { generateVapidKeys, isVapidKeyPair, withFullLengthPrivateKey, type VapidKeys } from "~/modules/founder-alerts/vapid-keys.server";
import { DEFAULT_OPERATOR_SETTINGS, isIsoDate, type OperatorSettings } from "~/modules/operator/operator-settings";
import type { S3Settings } from "~/modules/storage/s3-store.server";
import { isValidTimeZone } from "~/modules/time/zoned-slots";

/** Who may create an account: anyone, whoever holds a founder's invitation link, or nobody new. */
export const SIGNUP_POLICIES = ["open", "invite", "closed"] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

const isoDate = (name: string, fallback: string) =>
  z.string().trim().default(fallback).refine(isIsoDate, { message: `${name} must be a date written YYYY-MM-DD, such as 2025-10-14` });
const publicText = (name: string, fallback: string) => z.string().trim().min(1, `${name} must not be empty`).default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("data"),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((value) => !value || /^(postgres|postgresql):\/\//.test(value) || value.startsWith("file:"), {
      message: "DATABASE_URL must be a postgres:// URL or a file: path",
    }),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  TRUST_PROXY: z.string().default("false"),
  IPV6_LIMIT_PREFIX: z.coerce
    .number("IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128")
    .int("IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128")
    .min(32, "IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128")
    .max(128, "IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128")
    .default(DEFAULT_IPV6_LIMIT_PREFIX),
  SMTP_URL: z
    .string()
    .optional()
    .superRefine((value, context) => {
      if (!value || !URL.canParse(value)) return;
      try {
        smtpTimeoutsOf(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  MAIL_FROM: z.string().default("PitchQR <no-reply@localhost>"),
  DIGEST_HOUR: z.coerce.number("DIGEST_HOUR must be an hour from 0 to 23").int().min(0).max(23, "DIGEST_HOUR must be an hour from 0 to 23").default(9),
  DIGEST_TIME_ZONE: z
    .string()
    .default("UTC")
    .refine(isValidTimeZone, { message: "DIGEST_TIME_ZONE must be an IANA time zone such as Europe/Berlin or America/New_York" }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false"], "WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false").default("false"),
  PUSH_SERVICE_ORIGINS: z
    .string()
    .default("")
    .superRefine((value, context) => {
      try {
        parsePushServiceOrigins(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: `PUSH_SERVICE_ORIGINS: ${(error as Error).message}` });
      }
    }),
  VAPID_PUBLIC_KEY: z.string().trim().optional(),
  VAPID_PRIVATE_KEY: z.string().trim().optional(),
  SIGNUP: z.enum(SIGNUP_POLICIES, "SIGNUP must be open, invite or closed").default("open"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SUPPORT_EMAIL: z.email("SUPPORT_EMAIL must be an e-mail address such as support@example.com").default(DEFAULT_OPERATOR_SETTINGS.supportEmail),
  SUPPORT_ADDRESS: publicText("SUPPORT_ADDRESS", DEFAULT_OPERATOR_SETTINGS.supportAddress),
  SUPPORT_HOURS: publicText("SUPPORT_HOURS", DEFAULT_OPERATOR_SETTINGS.supportHours),
  PRIVACY_EFFECTIVE_DATE: isoDate("PRIVACY_EFFECTIVE_DATE", DEFAULT_OPERATOR_SETTINGS.privacyEffectiveDate),
  TERMS_EFFECTIVE_DATE: isoDate("TERMS_EFFECTIVE_DATE", DEFAULT_OPERATOR_SETTINGS.termsEffectiveDate),
  STORAGE: z.enum(["disk", "s3"], "STORAGE must be disk or s3").default("disk"),
  STORAGE_DIR: z.string().trim().optional(),
  S3_BUCKET: z.string().trim().optional(),
  S3_REGION: z.string().trim().min(1, "S3_REGION must not be empty").default("us-east-1"),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: "S3_ENDPOINT must be an http:// or https:// URL" }).optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"], "S3_FORCE_PATH_STYLE must be true or false").optional(),
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
}).superRefine((vars, context) => {
  if (vars.STORAGE === "s3" && !vars.S3_BUCKET) {
    context.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "S3_BUCKET must name the bucket when STORAGE is s3" });
  }
  if (Boolean(vars.S3_ACCESS_KEY_ID) !== Boolean(vars.S3_SECRET_ACCESS_KEY)) {
    context.addIssue({ code: "custom", path: ["S3_ACCESS_KEY_ID"], message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together" });
  }
  if (!vars.VAPID_PUBLIC_KEY && !vars.VAPID_PRIVATE_KEY) return;
  if (!vars.VAPID_PUBLIC_KEY || !vars.VAPID_PRIVATE_KEY || !isVapidKeyPair({ publicKey: vars.VAPID_PUBLIC_KEY, privateKey: vars.VAPID_PRIVATE_KEY })) {
    context.addIssue({
      code: "custom",
      path: ["VAPID_PUBLIC_KEY"],
      message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together, as one P-256 key pair in base64url (npx web-push generate-vapid-keys)",
    });
  }
});

/** Where files are kept (decks and their pages): a folder, or a bucket every instance shares. */
export type StorageConfig = { kind: "disk"; dir: string } | { kind: "s3"; s3: S3Settings };

export type DatabaseTarget = { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };

export type AppConfig = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  publicUrl: string;
  publicOrigin: string;
  /** Whether PUBLIC_URL was set, or is the default made of PORT (which no proxy's public address is). */
  publicUrlSource: "environment" | "default";
  authSecret: string;
  /** Where the secret came from: AUTH_SECRET, or generated into DATA_DIR (one instance's own). */
  authSecretSource: "environment" | "generated";
  trustProxy: boolean | number | string;
  /** Per-address limits key an IPv6 client on its network of this prefix length (an IPv4 client on its address). */
  ipv6LimitPrefix: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where mail is kept as .eml files when there is no SMTP_URL: `DATA_DIR/mail`. */
  mailDir: string;
  /** The weekly digest goes out on Fridays at this hour in this time zone. */
  digest: { hour: number; timeZone: string };
  /** Whether webhooks may reach loopback, private and link-local addresses (and plain http): off unless the operator says so. */
  webhooks: { allowPrivateTargets: boolean };
  /**
   * Web Push (decision 56): the VAPID key pair (from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or generated once into
   * DATA_DIR like the auth secret), the contact the push services see, and the services subscriptions may use.
   */
  push: { vapid: VapidKeys; subject: string; services: PushService[] };
  logLevel: string;
  /** Who may create an account; enforced where every sign-up goes through (`signUp` in auth/gateway.server.ts). */
  signup: SignupPolicy;
  storage: StorageConfig;
  /** Public: shown on /support, /privacy, /terms and the home page (see `browserSettings`). */
  operator: OperatorSettings;
};

/** The allow-list of configuration the browser may see: the operator's public facts, field by field, nothing else. */
export function browserSettings(config: AppConfig): OperatorSettings {
  const { supportEmail, supportAddress, supportHours, privacyEffectiveDate, termsEffectiveDate } = config.operator;
  return { supportEmail, supportAddress, supportHours, privacyEffectiveDate, termsEffectiveDate };
}

/** Reads and validates the environment once at start-up; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Invalid configuration: ${details}`);
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });

  const database: DatabaseTarget =
    vars.DATABASE_URL && !vars.DATABASE_URL.startsWith("file:")
      ? { dialect: "postgres", url: vars.DATABASE_URL }
      : { dialect: "sqlite", file: vars.DATABASE_URL ? path.resolve(vars.DATABASE_URL.slice(5)) : path.join(dataDir, "app.sqlite") };

  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, "");
  return {
    env: vars.NODE_ENV,
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    database,
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    publicUrlSource: vars.PUBLIC_URL ? "environment" : "default",
    authSecret: vars.AUTH_SECRET ?? readOrCreateSecret(dataDir),
    authSecretSource: vars.AUTH_SECRET ? "environment" : "generated",
    trustProxy: parseTrustProxy(vars.TRUST_PROXY),
    ipv6LimitPrefix: vars.IPV6_LIMIT_PREFIX,
    smtpUrl: vars.SMTP_URL || undefined,
    mailFrom: vars.MAIL_FROM,
    mailDir: path.join(dataDir, "mail"),
    digest: { hour: vars.DIGEST_HOUR, timeZone: vars.DIGEST_TIME_ZONE },
    webhooks: { allowPrivateTargets: vars.WEBHOOK_ALLOW_PRIVATE_TARGETS === "true" },
    push: {
      vapid: withFullLengthPrivateKey(
        vars.VAPID_PUBLIC_KEY && vars.VAPID_PRIVATE_KEY ? { publicKey: vars.VAPID_PUBLIC_KEY, privateKey: vars.VAPID_PRIVATE_KEY } : readOrCreateVapidKeys(dataDir),
      ),
      subject: `mailto:${vars.SUPPORT_EMAIL}`,
      services: [...KNOWN_PUSH_SERVICES, ...parsePushServiceOrigins(vars.PUSH_SERVICE_ORIGINS)],
    },
    logLevel: vars.LOG_LEVEL,
    signup: vars.SIGNUP,
    storage:
      vars.STORAGE === "s3"
        ? {
            kind: "s3",
            s3: {
              bucket: vars.S3_BUCKET!,
              region: vars.S3_REGION,
              endpoint: vars.S3_ENDPOINT,
              forcePathStyle: vars.S3_FORCE_PATH_STYLE ? vars.S3_FORCE_PATH_STYLE === "true" : Boolean(vars.S3_ENDPOINT),
              credentials:
                vars.S3_ACCESS_KEY_ID && vars.S3_SECRET_ACCESS_KEY
                  ? { accessKeyId: vars.S3_ACCESS_KEY_ID, secretAccessKey: vars.S3_SECRET_ACCESS_KEY }
                  : undefined,
            },
          }
        : { kind: "disk", dir: vars.STORAGE_DIR ? path.resolve(vars.STORAGE_DIR) : path.join(dataDir, "files") },
    operator: {
      supportEmail: vars.SUPPORT_EMAIL,
      supportAddress: vars.SUPPORT_ADDRESS,
      supportHours: vars.SUPPORT_HOURS,
      privacyEffectiveDate: vars.PRIVACY_EFFECTIVE_DATE,
      termsEffectiveDate: vars.TERMS_EFFECTIVE_DATE,
    },
  };
}

/** The embedded default: a secret generated once and kept beside the data, so sessions survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // no secret yet
  }
  const secret = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Web Push's key pair when none is configured: generated once and kept beside the data, so subscriptions survive restarts. */
function readOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, "vapid-keys.json");
  try {
    const existing: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (isVapidKeyPair(existing)) return existing;
  } catch {
    // no keys yet
  }
  const keys = generateVapidKeys();
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** Express "trust proxy" values: false (default), true, a hop count, or a list of addresses/subnets. */
function parseTrustProxy(value: string): boolean | number | string {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === "" || trimmed === "false" || trimmed === "0") return false;
  if (trimmed === "true") return true;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return value.trim();
}
