/**
 * Whether the address QR codes encode (config's publicUrl, from PUBLIC_URL) will open on a visitor's phone.
 * Pure, so it runs at start-up (one log line) and in the loaders that show the founder a warning.
 */

export type PublicUrlProblem =
  /** 127.0.0.0/8, ::1, localhost and *.localhost: only this machine. */
  | "loopback"
  /** 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10, 0.0.0.0: only this network, if at all. */
  | "private"
  /** `myhost` or `printer.local`: names only a local network (or this machine) resolves. */
  | "local-name"
  /** A public host over plain http: phones warn or refuse, and cookies are not Secure. */
  | "plain-http";

export type PublicUrlWarning = { problem: PublicUrlProblem; address: string; title: string; message: string };

const FIX = "Set PUBLIC_URL to the https address phones will reach (for example https://pitch.example.com), then restart PitchQR.";

const REASONS: Record<PublicUrlProblem, string> = {
  loopback: "an address that only opens on this computer",
  private: "a private network address that phones outside this network cannot reach",
  "local-name": "a local name that phones outside this network cannot look up",
  "plain-http": "a plain http address that phones flag as not secure",
};

/** Null when the address is a public https one; otherwise the problem and the message naming the address and the fix. */
export function publicUrlWarning(publicUrl: string): PublicUrlWarning | null {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return null;
  }
  const problem = classifyHost(url.hostname) ?? (url.protocol === "http:" ? "plain-http" : null);
  if (!problem) return null;
  const address = url.origin;
  return { problem, address, title: "QR codes will not open on phones", message: `QR codes point to ${address}, ${REASONS[problem]}. ${FIX}` };
}

function classifyHost(hostname: string): "loopback" | "private" | "local-name" | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return classifyIpv6(host.slice(1, -1));
  const ipv4 = parseIpv4(host);
  if (ipv4) return classifyIpv4(ipv4);
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (!host.includes(".") || host.endsWith(".local") || host.endsWith(".internal") || host.endsWith(".lan") || host.endsWith(".home.arpa")) return "local-name";
  return null;
}

function parseIpv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

function classifyIpv4([a, b]: number[]): "loopback" | "private" | null {
  if (a === 127) return "loopback";
  if (a === 0 || a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return "private";
  return null;
}

function classifyIpv6(address: string): "loopback" | "private" | null {
  if (address === "::1") return "loopback";
  if (address === "::") return "private";
  // IPv4-mapped (::ffff:127.0.0.1, which URL writes as ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    return classifyIpv4([high >> 8, high & 255, low >> 8, low & 255]);
  }
  const first = parseInt(address.split(":")[0] || "0", 16);
  if ((first & 0xfe00) === 0xfc00) return "private"; // fc00::/7
  if ((first & 0xffc0) === 0xfe80) return "private"; // fe80::/10
  return null;
}
