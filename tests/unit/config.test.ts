import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import webPush from "web-push";
import { browserSettings, loadConfig } from "~/config.server";
import { formatEffectiveDate } from "~/modules/operator/operator-settings";
import { isAllowedPushEndpoint } from "~/modules/founder-alerts/push-services";
import { generateVapidKeys, isVapidKeyPair } from "~/modules/founder-alerts/vapid-keys.server";

const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-config-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("loadConfig", () => {
  it("defaults to the embedded database under DATA_DIR on port 3000", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ dialect: "sqlite", file: path.join(dataDir, "app.sqlite") });
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.trustProxy).toBe(false);
    expect(config.ipv6LimitPrefix).toBe(64);
  });

  it("keys IPv6 limits on the network prefix the operator sets", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), IPV6_LIMIT_PREFIX: "56" }).ipv6LimitPrefix).toBe(56);
  });

  it("uses PostgreSQL when DATABASE_URL is a postgres URL", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: "postgres://u@db:5432/app" });
    expect(config.database).toEqual({ dialect: "postgres", url: "postgres://u@db:5432/app" });
  });

  it("writes the VAPID private key in full 32 bytes, generated, configured or kept by an earlier version, so web-push signs with it", () => {
    // A private scalar that starts with a zero byte: Node's ECDH writes it in 31 bytes (about one key in 240).
    let ecdh: crypto.ECDH;
    do {
      ecdh = crypto.createECDH("prime256v1");
      ecdh.generateKeys();
    } while (ecdh.getPrivateKey().length === 32);
    const short = { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: ecdh.getPrivateKey().toString("base64url") };
    const device = { endpoint: "https://fcm.googleapis.com/fcm/send/abc", keys: { p256dh: crypto.createECDH("prime256v1").generateKeys().toString("base64url"), auth: crypto.randomBytes(16).toString("base64url") } };
    const signs = (keys: { publicKey: string; privateKey: string }) => () => webPush.generateRequestDetails(device, "A lead", { vapidDetails: { subject: "mailto:support@pitch.example", ...keys } });
    expect(signs(short)).toThrow("32 bytes");

    const configured = loadConfig({ DATA_DIR: tempDir(), VAPID_PUBLIC_KEY: short.publicKey, VAPID_PRIVATE_KEY: short.privateKey }).push.vapid;
    const keptDir = tempDir();
    fs.writeFileSync(path.join(keptDir, "vapid-keys.json"), JSON.stringify(short));
    const kept = loadConfig({ DATA_DIR: keptDir }).push.vapid;
    for (const keys of [configured, kept]) {
      // The same key, written in full: devices already subscribed with its public key keep working.
      expect(keys.publicKey).toBe(short.publicKey);
      expect(Buffer.from(keys.privateKey, "base64url")).toHaveLength(32);
      expect(isVapidKeyPair(keys)).toBe(true);
      expect(signs(keys)).not.toThrow();
    }
    // Generated keys: with one in 240 short, 2,000 would all but surely include one.
    const lengths = new Set(Array.from({ length: 2_000 }, () => Buffer.from(generateVapidKeys().privateKey, "base64url").length));
    expect([...lengths]).toEqual([32]);
  });

  it("generates the VAPID key pair once into the data directory unless configured; pushes may go to the browsers' push services and the operator's", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).push;
    expect(isVapidKeyPair(first.vapid)).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir }).push.vapid).toEqual(first.vapid);
    const configured = generateVapidKeys();
    const config = loadConfig({ DATA_DIR: dataDir, VAPID_PUBLIC_KEY: configured.publicKey, VAPID_PRIVATE_KEY: configured.privateKey, PUSH_SERVICE_ORIGINS: "http://127.0.0.1:9000, https://*.push.example" });
    expect(config.push.vapid).toEqual(configured);
    expect(config.push.subject).toBe(`mailto:${config.operator.supportEmail}`);
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://wns2-par02p.notify.windows.com/w/?token=abc",
      "https://web.push.apple.com/QabcDEF",
      "http://127.0.0.1:9000/push/1",
      "https://eu.push.example/1",
    ]) {
      expect(isAllowedPushEndpoint(endpoint, config.push.services), endpoint).toBe(true);
    }
    for (const endpoint of ["http://127.0.0.1:9001/push/1", "https://push.example/1", "https://notify.windows.com.evil.example/w", "https://evil.example/fcm.googleapis.com", "javascript:alert(1)"]) {
      expect(isAllowedPushEndpoint(endpoint, config.push.services), endpoint).toBe(false);
    }
    expect(isAllowedPushEndpoint("http://127.0.0.1:9000/push/1", loadConfig({ DATA_DIR: dataDir }).push.services)).toBe(false);
  });

  it("generates the auth secret once and keeps it in the data directory", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).authSecret).toBe(first);
  });

  it.each([
    [{ PORT: "not-a-port" }, "PORT"],
    [{ PUBLIC_URL: "ftp://example.com" }, "PUBLIC_URL"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET"],
    [{ DIGEST_HOUR: "24" }, "DIGEST_HOUR must be an hour from 0 to 23"],
    [{ DIGEST_TIME_ZONE: "Mars/Olympus" }, "DIGEST_TIME_ZONE must be an IANA time zone"],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: "yes" }, "WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false"],
    [{ SUPPORT_EMAIL: "help-at-example.com" }, "SUPPORT_EMAIL must be an e-mail address"],
    [{ SUPPORT_EMAIL: "" }, "SUPPORT_EMAIL must be an e-mail address"],
    [{ SUPPORT_ADDRESS: "   " }, "SUPPORT_ADDRESS must not be empty"],
    [{ SUPPORT_HOURS: "" }, "SUPPORT_HOURS must not be empty"],
    [{ PRIVACY_EFFECTIVE_DATE: "14/10/2025" }, "PRIVACY_EFFECTIVE_DATE must be a date written YYYY-MM-DD"],
    [{ PRIVACY_EFFECTIVE_DATE: "2025-02-30" }, "PRIVACY_EFFECTIVE_DATE must be a date written YYYY-MM-DD"],
    [{ TERMS_EFFECTIVE_DATE: "October 14, 2025" }, "TERMS_EFFECTIVE_DATE must be a date written YYYY-MM-DD"],
    [{ TERMS_EFFECTIVE_DATE: "2025-13-01" }, "TERMS_EFFECTIVE_DATE must be a date written YYYY-MM-DD"],
    [{ IPV6_LIMIT_PREFIX: "sixty-four" }, "IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128"],
    [{ IPV6_LIMIT_PREFIX: "16" }, "IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128"],
    [{ IPV6_LIMIT_PREFIX: "129" }, "IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128"],
    [{ IPV6_LIMIT_PREFIX: "64.5" }, "IPV6_LIMIT_PREFIX must be a prefix length from 32 to 128"],
    [{ SMTP_URL: "smtp://mail.example.com:587?socketTimeout=30s" }, "SMTP_URL's socketTimeout must be a whole number of milliseconds"],
    [{ PUSH_SERVICE_ORIGINS: "http://push.example.com" }, "PUSH_SERVICE_ORIGINS: http://push.example.com must use https \\(plain http only on localhost\\)"],
    [{ PUSH_SERVICE_ORIGINS: "https://push.example.com/wpush" }, "PUSH_SERVICE_ORIGINS: https://push.example.com/wpush must be an origin only"],
    [{ PUSH_SERVICE_ORIGINS: "push.example.com" }, "PUSH_SERVICE_ORIGINS: push.example.com is not an origin"],
    [{ VAPID_PUBLIC_KEY: generateVapidKeys().publicKey }, "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together"],
    [{ VAPID_PUBLIC_KEY: generateVapidKeys().publicKey, VAPID_PRIVATE_KEY: generateVapidKeys().privateKey }, "as one P-256 key pair"],
  ])("stops with a clear message on %j", (env, name) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(new RegExp(`Invalid configuration: .*${name}`));
  });

  it("shows today's support contact, hours and legal dates unless the operator sets their own", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).operator).toEqual({
      supportEmail: "support@pitchqr.app",
      supportAddress: "San Francisco, California",
      supportHours: "Monday–Friday, 9AM–6PM PST",
      privacyEffectiveDate: "2025-10-14",
      termsEffectiveDate: "2025-10-14",
    });
    const config = loadConfig({
      DATA_DIR: tempDir(),
      SUPPORT_EMAIL: "help@operator.example",
      SUPPORT_ADDRESS: " 1 Harbour Street, Leith ",
      SUPPORT_HOURS: "Weekdays 10–16 CET",
      PRIVACY_EFFECTIVE_DATE: "2026-03-01",
      TERMS_EFFECTIVE_DATE: "2024-02-29",
      AUTH_SECRET: "s".repeat(40),
    });
    expect(config.operator).toEqual({
      supportEmail: "help@operator.example",
      supportAddress: "1 Harbour Street, Leith",
      supportHours: "Weekdays 10–16 CET",
      privacyEffectiveDate: "2026-03-01",
      termsEffectiveDate: "2024-02-29",
    });
    // Only these reach the browser: nothing else of the configuration.
    expect(browserSettings(config)).toEqual(config.operator);
    expect(JSON.stringify(browserSettings(config))).not.toContain(config.authSecret);
    expect(formatEffectiveDate("2025-10-14")).toBe("October 14, 2025");
  });

  it("sends the weekly digest on Fridays at 9:00 UTC unless told otherwise", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).digest).toEqual({ hour: 9, timeZone: "UTC" });
    expect(loadConfig({ DATA_DIR: tempDir(), DIGEST_HOUR: "17", DIGEST_TIME_ZONE: "America/Los_Angeles" }).digest).toEqual({
      hour: 17,
      timeZone: "America/Los_Angeles",
    });
  });

  it("keeps webhooks off internal addresses unless the operator allows them", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).webhooks).toEqual({ allowPrivateTargets: false });
    expect(loadConfig({ DATA_DIR: tempDir(), WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }).webhooks).toEqual({ allowPrivateTargets: true });
  });

  it("lets anyone sign up unless the operator says SIGNUP=invite or closed, and stops on any other value", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).signup).toBe("open");
    expect(loadConfig({ DATA_DIR: tempDir(), SIGNUP: "invite" }).signup).toBe("invite");
    expect(loadConfig({ DATA_DIR: tempDir(), SIGNUP: "closed" }).signup).toBe("closed");
    expect(() => loadConfig({ DATA_DIR: tempDir(), SIGNUP: "invite-only" })).toThrow("SIGNUP: SIGNUP must be open, invite or closed");
    expect(() => loadConfig({ DATA_DIR: tempDir(), SIGNUP: "" })).toThrow("SIGNUP must be open, invite or closed");
  });

  it("reads TRUST_PROXY as Express understands it", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: "loopback" }).trustProxy).toBe("loopback");
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: "true" }).trustProxy).toBe(true);
  });
});

describe("loadConfig: where files are kept", () => {
  it("keeps files in DATA_DIR/files unless told otherwise", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).storage).toEqual({ kind: "disk", dir: path.join(dataDir, "files") });
    const elsewhere = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir, STORAGE_DIR: elsewhere }).storage).toEqual({ kind: "disk", dir: elsewhere });
  });

  it("uses an S3-compatible bucket, path-style when an endpoint is named", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      STORAGE: "s3",
      S3_BUCKET: "decks",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(config.storage).toEqual({
      kind: "s3",
      s3: {
        bucket: "decks",
        region: "us-east-1",
        endpoint: "http://127.0.0.1:9000",
        forcePathStyle: true,
        credentials: { accessKeyId: "key", secretAccessKey: "secret" },
      },
    });
    const aws = loadConfig({ DATA_DIR: tempDir(), STORAGE: "s3", S3_BUCKET: "decks", S3_REGION: "eu-central-1" }).storage;
    expect(aws).toEqual({ kind: "s3", s3: { bucket: "decks", region: "eu-central-1", endpoint: undefined, forcePathStyle: false, credentials: undefined } });
  });

  it("refuses an S3 store it could not use, saying what is missing", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE: "s3" })).toThrow("S3_BUCKET must name the bucket when STORAGE is s3");
    expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toThrow(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE: "ftp" })).toThrow("STORAGE must be disk or s3");
    expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE: "s3", S3_BUCKET: "b", S3_ENDPOINT: "minio:9000" })).toThrow(
      "S3_ENDPOINT must be an http:// or https:// URL",
    );
  });
});
