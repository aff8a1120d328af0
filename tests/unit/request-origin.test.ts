import { describe, expect, it } from "vitest";
import { createRequestOrigin, type OriginRequest } from "~/modules/http/request-origin.server";

const loopback = (address: string) => address === "127.0.0.1";

function originsWith(configuredPublicOrigin: string | undefined) {
  const warnings: string[] = [];
  const origin = createRequestOrigin({ configuredPublicOrigin, trusts: loopback, warn: (message) => void warnings.push(message) });
  return { warnings, origin: (headers: OriginRequest["headers"], remoteAddress = "127.0.0.1") => origin({ encrypted: false, remoteAddress, headers }) };
}

describe("the origin a request was addressed to", () => {
  it("is the connection's scheme and Host for a request straight from a client", () => {
    const { origin, warnings } = originsWith("https://pitch.example");
    expect(origin({ host: "127.0.0.1:3000" })).toBe("http://127.0.0.1:3000");
    expect(origin({ host: "10.0.0.5:3000", "x-forwarded-proto": "https" }, "10.0.0.9")).toBe("http://10.0.0.5:3000");
    expect(warnings).toEqual([]);
  });

  it("is PUBLIC_URL for a request through the trusted proxy, whatever headers it dropped, with one warning naming the header", () => {
    const { origin, warnings } = originsWith("https://pitch.example");
    for (let i = 0; i < 3; i += 1) expect(origin({ host: "127.0.0.1:3000", "x-forwarded-for": "203.0.113.7" })).toBe("https://pitch.example");
    expect(origin({ host: "pitch.example:8443", "x-forwarded-proto": "https", "x-forwarded-host": "pitch.example" })).toBe("https://pitch.example");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("sends no X-Forwarded-Proto");
  });

  it("says nothing when the proxy's headers already give PUBLIC_URL", () => {
    const { origin, warnings } = originsWith("https://pitch.example");
    expect(origin({ host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-host": "pitch.example" })).toBe("https://pitch.example");
    expect(warnings).toEqual([]);
  });

  it("is the forwarded scheme and host without PUBLIC_URL, warning once per header missing", () => {
    const { origin, warnings } = originsWith(undefined);
    expect(origin({ host: "127.0.0.1:3000", "x-forwarded-proto": "https, http", "x-forwarded-host": "pitch.example:8443" })).toBe("https://pitch.example:8443");
    expect(origin({ host: "127.0.0.1:3000", "x-forwarded-for": "203.0.113.7" })).toBe("http://127.0.0.1:3000");
    expect(origin({ host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-host": "pitch.example" })).toBe("https://pitch.example");
    expect(origin({ host: "127.0.0.1:3000", "x-forwarded-for": "203.0.113.8" })).toBe("http://127.0.0.1:3000");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("sends no X-Forwarded-Proto");
    expect(warnings[1]).toContain("the port in X-Forwarded-Host (Host has it: 127.0.0.1:3000)");
  });
});
