import net from "node:net";

/**
 * IP address arithmetic the app needs in two places: the network a client's limits are keyed on
 * (`networkKeyOf`), and the IPv4 address hidden in an IPv6 address, which the webhook check judges
 * (`embeddedIpv4`).
 */

/** The eight 16-bit groups of an IPv6 address (`::`, a dotted IPv4 tail and a `%zone` allowed), or null. */
export function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, "");
  if (!net.isIPv6(bare)) return null;
  let text = bare.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const [head = "", tail] = text.split("::");
  const headGroups = parse(head);
  if (tail === undefined) return headGroups;
  const tailGroups = parse(tail);
  return [...headGroups, ...new Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

/** An IPv6 address written canonically (RFC 5952: lower case, the longest run of two or more zero groups as `::`). */
function formatIpv6(groups: readonly number[]): string {
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - start > best.length) best = { start, length: end - start };
    start = end === start ? start + 1 : end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

const dottedQuad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** `::ffff:a.b.c.d`: how a dual-stack socket reports an IPv4 client. */
function isIpv4Mapped(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}

/**
 * The IPv4 address an IPv6 address stands for, in every form that reaches an IPv4 host: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated but still routed by some stacks), IPv4-translated
 * (`::ffff:0:a.b.c.d`, RFC 2765) and the well-known NAT64 prefix (`64:ff9b::a.b.c.d`, RFC 6052). Null for any
 * other address, and for `::` and `::1`, which are IPv6's own unspecified and loopback addresses.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  const compatible = zeroUpTo(6) && (g6 !== 0 || g7 > 1);
  const translated = zeroUpTo(4) && g4 === 0xffff && g5 === 0;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  return isIpv4Mapped(groups) || compatible || translated || nat64 ? dottedQuad(g6, g7) : null;
}

/** The default IPv6 prefix of a client's network: what a home, office or cloud host is given (RFC 6177). */
export const DEFAULT_IPV6_LIMIT_PREFIX = 64;

/**
 * The network a client address is limited as: an IPv4 address as it is (a venue's NAT is one
 * address), an IPv4-mapped IPv6 address as its IPv4 address, and any other IPv6 address as its `/prefix`
 * network, because one connection is given a whole /64 and can send from any address in it. Anything else
 * (an unknown address) is returned unchanged. Every per-address limit keys on this.
 */
export function networkKeyOf(address: string, ipv6Prefix = DEFAULT_IPV6_LIMIT_PREFIX): string {
  if (net.isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (isIpv4Mapped(groups)) return dottedQuad(groups[6]!, groups[7]!);
  const masked = groups.map((group, index) => {
    const bitsKept = Math.min(16, Math.max(0, ipv6Prefix - index * 16));
    return bitsKept === 0 ? 0 : group & ((0xffff << (16 - bitsKept)) & 0xffff);
  });
  return `${formatIpv6(masked)}/${ipv6Prefix}`;
}
