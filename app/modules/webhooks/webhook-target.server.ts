import { lookup } from "node:dns/promises";
import net from "node:net";

/** Where webhooks may go: public internet addresses only, unless the operator allows internal ones. */
export type WebhookTargetPolicy = { allowPrivateTargets: boolean };

export class WebhookTargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookTargetRefused";
  }
}

/** Ranges that are not the public internet: loopback, private, link-local, shared, documentation, multicast, reserved. */
const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", including the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments, Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

/**
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged by its IPv4 address. It sits in its own list because a BlockList
 * also matches plain IPv4 addresses against a mapped range, which would refuse every IPv4 address.
 */
const IPV4_MAPPED = new net.BlockList();
IPV4_MAPPED.addSubnet("::ffff:0:0", 96, "ipv6");

/** The IPv4 address inside an IPv4-mapped or IPv4-compatible IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower.replace(/^::/, "0:"));
  if (dotted?.[1] && net.isIPv4(dotted[1])) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** True when an address is on the public internet (not loopback, private, link-local, unspecified, multicast, reserved). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !BLOCKED.check(address, "ipv4");
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return !BLOCKED.check(inner, "ipv4") && !BLOCKED.check(address, "ipv6");
    // A mapped form the parser above did not read: refuse rather than guess.
    if (IPV4_MAPPED.check(address, "ipv6")) return false;
    return !BLOCKED.check(address, "ipv6");
  }
  return false;
}

export const HTTPS_REQUIRED_MESSAGE = "Webhook URLs must start with https://";
export const INTERNAL_TARGET_MESSAGE = "This URL points inside a private network (loopback, private, link-local or reserved address); use a public https URL";
export const UNRESOLVABLE_MESSAGE = "This URL's host name does not resolve";

export type ResolvedTarget = { url: URL; hostname: string; address: string; family: 4 | 6 };

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Checks a webhook URL and picks the address to connect to. The host name is resolved here, every address it
 * resolves to must be public (one private answer is enough to refuse, so DNS cannot offer a mix), and the caller
 * connects to the address returned, never resolving again: a second lookup could answer differently (DNS rebinding).
 */
export async function resolveWebhookTarget(rawUrl: string, policy: WebhookTargetPolicy, resolve: Resolver = systemResolver): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new WebhookTargetRefused(HTTPS_REQUIRED_MESSAGE);
  }
  const plainHttpAllowed = policy.allowPrivateTargets && url.protocol === "http:";
  if (url.protocol !== "https:" && !plainHttpAllowed) throw new WebhookTargetRefused(HTTPS_REQUIRED_MESSAGE);
  if (url.username || url.password) throw new WebhookTargetRefused("Webhook URLs cannot carry a user name or password");
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let answers: { address: string; family: number }[];
  if (net.isIP(hostname)) answers = [{ address: hostname, family: net.isIP(hostname) }];
  else {
    try {
      answers = await resolve(hostname);
    } catch {
      throw new WebhookTargetRefused(UNRESOLVABLE_MESSAGE);
    }
  }
  if (answers.length === 0) throw new WebhookTargetRefused(UNRESOLVABLE_MESSAGE);
  if (!policy.allowPrivateTargets && answers.some((answer) => !isPublicAddress(answer.address))) throw new WebhookTargetRefused(INTERNAL_TARGET_MESSAGE);
  const chosen = answers[0]!;
  return { url, hostname, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
