import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AlertDeliverySettings } from "~/modules/founder-alerts/alert-delivery.server";
import { KNOWN_PUSH_SERVICES, parsePushServiceOrigin, type PushService } from "~/modules/founder-alerts/push-services";
import { generateVapidKeys } from "~/modules/founder-alerts/vapid-keys.server";

export type ReceivedPush = { path: string; headers: http.IncomingHttpHeaders; body: Buffer; receivedAt: number };

/**
 * A push service of the test's own on 127.0.0.1 (decision 56): it keeps every POST and answers what `answer`
 * says for its path (201 by default, as FCM and autopush do), or never answers ("hang": `hangingAt` counts those).
 */
export async function startTestPushService(answer: (push: ReceivedPush) => number | "hang" = () => 201) {
  const received: ReceivedPush[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const push = { path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks), receivedAt: performance.now() };
      received.push(push);
      const status = answer(push);
      if (status === "hang") {
        hanging.set(push.path, (hanging.get(push.path) ?? 0) + 1);
        response.on("close", () => hanging.set(push.path, hanging.get(push.path)! - 1));
      } else response.writeHead(status).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    service: parsePushServiceOrigin(origin),
    received,
    /** Pushes to `path` received and not answered, whose sender is still waiting. */
    hangingAt: (path: string) => hanging.get(path) ?? 0,
    /** Resolves with the first push to `path` once it arrived (or one already there); rejects after `timeoutMs`. */
    waitForPush(path: string, timeoutMs = 15_000): Promise<ReceivedPush> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const push = received.find((entry) => entry.path === path);
          if (!push) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(push);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no push to ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A device's subscription as a browser makes one: a P-256 key pair and a 16-byte auth secret of its own, and an
 * endpoint on `origin`. `decrypt` reads a push sent to it (aes128gcm, RFC 8291 and RFC 8188).
 */
export function browserSubscription(origin: string, device = "Test phone") {
  const ecdh = crypto.createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const authSecret = crypto.randomBytes(16);
  const path = `/push/${crypto.randomUUID()}`;
  return {
    path,
    input: { endpoint: `${origin}${path}`, p256dh: publicKey.toString("base64url"), auth: authSecret.toString("base64url"), device },
    decrypt(body: Buffer): string {
      // RFC 8188 header: salt (16), record size (4), key id length (1), key id = the sender's public key.
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const senderPublicKey = body.subarray(21, 21 + idLength);
      const ciphertext = body.subarray(21 + idLength);
      // RFC 8291 section 3.4: the input key material from the ECDH secret and the auth secret.
      const sharedSecret = ecdh.computeSecret(senderPublicKey);
      const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, senderPublicKey]);
      const ikm = Buffer.from(crypto.hkdfSync("sha256", sharedSecret, authSecret, keyInfo, 32));
      const cek = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
      const nonce = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
      const decipher = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then zero padding.
      const end = padded.lastIndexOf(2);
      if (end < 0 || padded.subarray(end + 1).some((byte) => byte !== 0)) throw new Error("no last-record delimiter");
      return padded.subarray(0, end).toString("utf8");
    },
  };
}

/** True when the push's `Authorization: vapid t=…, k=…` is a JWT for the endpoint's origin signed with `publicKey`. */
export function hasValidVapid(push: ReceivedPush, publicKey: string, origin: string): boolean {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(push.headers.authorization ?? ""));
  if (!match || match[2] !== publicKey) return false;
  const [header, claims, signature] = match[1]!.split(".");
  const raw = Buffer.from(publicKey, "base64url");
  const key = crypto.createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
  const signed = crypto.verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"));
  const { aud, exp } = JSON.parse(Buffer.from(claims!, "base64url").toString("utf8")) as { aud: string; exp: number };
  return signed && aud === origin && exp > Date.now() / 1000;
}

/** Delivery settings for tests: fresh VAPID keys, the known push services and `extra` (a test's own). */
export function testAlertSettings(extra: PushService[] = [], webhooks = { allowPrivateTargets: false }): AlertDeliverySettings {
  return {
    publicUrl: "https://pitch.example",
    push: { vapid: generateVapidKeys(), subject: "mailto:support@pitch.example", services: [...KNOWN_PUSH_SERVICES, ...extra] },
    webhooks,
  };
}
