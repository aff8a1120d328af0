import { describe, expect, it } from "vitest";
import { publicUrlWarning } from "~/modules/qr/public-url";

const problemOf = (url: string) => publicUrlWarning(url)?.problem ?? null;

describe("publicUrlWarning", () => {
  it.each(["https://pitch.example.com", "https://pitch.example.com:8443/base", "https://203.0.113.7", "https://[2001:db8::1]", "https://172.32.0.1"])(
    "accepts the public https address %s",
    (url) => {
      expect(publicUrlWarning(url)).toBeNull();
    },
  );

  it.each(["http://localhost:3000", "https://localhost", "http://app.localhost:3000", "http://127.0.0.1:3000", "http://127.8.9.10", "http://[::1]:3000", "http://[::ffff:127.0.0.1]", "http://LOCALHOST."])(
    "flags the loopback address %s",
    (url) => {
      expect(problemOf(url)).toBe("loopback");
    },
  );

  it.each([
    "http://10.0.0.5:3000",
    "https://172.16.0.1",
    "https://172.31.255.255",
    "http://192.168.1.20:3000",
    "http://169.254.10.10",
    "http://0.0.0.0:3000",
    "https://[fd12:3456::1]",
    "https://[fc00::1]",
    "https://[fe80::1]",
  ])("flags the private address %s", (url) => {
    expect(problemOf(url)).toBe("private");
  });

  it.each(["http://myhost:3000", "https://myhost", "https://printer.local", "https://app.internal", "https://box.lan", "https://nas.home.arpa"])(
    "flags the local name %s",
    (url) => {
      expect(problemOf(url)).toBe("local-name");
    },
  );

  it("flags plain http on a public host", () => {
    expect(problemOf("http://pitch.example.com")).toBe("plain-http");
    expect(problemOf("http://203.0.113.7")).toBe("plain-http");
  });

  it("names the address and the fix in one message", () => {
    expect(publicUrlWarning("http://localhost:3000/")).toEqual({
      problem: "loopback",
      address: "http://localhost:3000",
      title: "QR codes will not open on phones",
      message:
        "QR codes point to http://localhost:3000, an address that only opens on this computer. Set PUBLIC_URL to the https address phones will reach (for example https://pitch.example.com), then restart PitchQR.",
    });
    expect(publicUrlWarning("http://pitch.example.com")?.message).toBe(
      "QR codes point to http://pitch.example.com, a plain http address that phones flag as not secure. Set PUBLIC_URL to the https address phones will reach (for example https://pitch.example.com), then restart PitchQR.",
    );
  });
});
