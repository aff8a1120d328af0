import { describe, expect, it } from "vitest";
import { proxyWarning } from "../../server/startup-report";

describe("the start-up line about an https PUBLIC_URL without TRUST_PROXY", () => {
  it("names both settings when PUBLIC_URL is https and no proxy is trusted", () => {
    const line = proxyWarning({ publicUrl: "https://pitch.example", trustProxy: false });
    expect(line).toMatch(/^Warning: PUBLIC_URL is https \(https:\/\/pitch\.example\) but TRUST_PROXY is not set/);
    expect(line).toContain("Set TRUST_PROXY");
  });

  it("says nothing once a proxy is trusted, or for a plain http address", () => {
    expect(proxyWarning({ publicUrl: "https://pitch.example", trustProxy: "loopback" })).toBeNull();
    expect(proxyWarning({ publicUrl: "https://pitch.example", trustProxy: 1 })).toBeNull();
    expect(proxyWarning({ publicUrl: "https://pitch.example", trustProxy: true })).toBeNull();
    expect(proxyWarning({ publicUrl: "http://localhost:3000", trustProxy: false })).toBeNull();
  });
});
