import { describe, expect, it } from "vitest";
import { embeddedIpv4, ipv6Groups, networkKeyOf } from "~/modules/http/ip-address.server";

describe("networkKeyOf: the network every per-address limit keys on", () => {
  it("keys IPv4 by the full address and IPv4-mapped IPv6 by the same IPv4 address", () => {
    expect(networkKeyOf("203.0.113.9")).toBe("203.0.113.9");
    expect(networkKeyOf("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(networkKeyOf("::FFFF:cb00:7109")).toBe("203.0.113.9");
    expect(networkKeyOf("203.0.113.10")).not.toBe(networkKeyOf("203.0.113.9"));
  });

  it("keys every address of one IPv6 /64 alike, and the next /64 apart", () => {
    const home = ["2001:db8:1:2::1", "2001:db8:1:2:a1b2:c3d4:e5f6:789", "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::1%eth0"];
    expect(new Set(home.map((address) => networkKeyOf(address)))).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(networkKeyOf("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });

  it("takes another prefix length, also one that cuts a group", () => {
    expect(networkKeyOf("2001:db8:1:2ff::1", 56)).toBe("2001:db8:1:200::/56");
    expect(networkKeyOf("2001:db8:abcd:12::1", 48)).toBe("2001:db8:abcd::/48");
    expect(networkKeyOf("2001:db8::1", 128)).toBe("2001:db8::1/128");
  });

  it("leaves what is not an address as it is", () => {
    expect(networkKeyOf("unknown")).toBe("unknown");
  });
});

describe("IPv6 parsing", () => {
  it("reads the compressed, full and dotted forms", () => {
    expect(ipv6Groups("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups("::127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0, 0x7f00, 1]);
    expect(ipv6Groups("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups("127.0.0.1")).toBeNull();
    expect(ipv6Groups("1:::2")).toBeNull();
  });

  it("finds the IPv4 address of every form that reaches an IPv4 host, and no other", () => {
    expect(embeddedIpv4("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::127.0.0.1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::ffff:0:127.0.0.1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::ffff:0:7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("64:ff9b::10.0.0.1")).toBe("10.0.0.1");
    expect(embeddedIpv4("64:ff9b::808:808")).toBe("8.8.8.8");
    expect(embeddedIpv4("::1")).toBeNull();
    expect(embeddedIpv4("::")).toBeNull();
    expect(embeddedIpv4("2001:db8::7f00:1")).toBeNull();
    expect(embeddedIpv4("64:ff9b:1::7f00:1")).toBeNull();
  });
});
