import { lookup } from "node:dns/promises";
import net from "node:net";
import { embeddedIpv4 } from "~/modules/http/ip-address.server";

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
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215)
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
 * True when an address is on the public internet (not loopback, private, link-local, unspecified, multicast,
 * reserved). An IPv6 address that stands for an IPv4 host (IPv4-mapped, -compatible, -translated, or NAT64's
 * `64:ff9b::/96`) is judged by that IPv4 address, however it is written (`::127.0.0.1`, `::ffff:0:7f00:1`).
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !BLOCKED.check(address, "ipv4");
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return !BLOCKED.check(inner, "ipv4");
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
