import { describe, expect, it } from "vitest";
import { proxyWarning, sharedSecretWarning } from "../../server/startup-report";

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

describe("the start-up line about PostgreSQL without AUTH_SECRET", () => {
  const postgres = { dialect: "postgres", url: "postgres://db/pitchqr" } as const;

  it("names the setting and the consequence when the secret was generated on PostgreSQL", () => {
    const line = sharedSecretWarning({ database: postgres, authSecretSource: "generated", dataDir: "/srv/pitchqr/data" });
    expect(line).toMatch(/^Warning: DATABASE_URL is PostgreSQL but AUTH_SECRET is not set/);
    expect(line).toContain("/srv/pitchqr/data/auth-secret");
    expect(line).toContain("founders are signed out");
    expect(line).toContain("Set the same AUTH_SECRET");
  });

  it("says nothing with AUTH_SECRET set, or on SQLite (one instance)", () => {
    expect(sharedSecretWarning({ database: postgres, authSecretSource: "environment", dataDir: "/srv/data" })).toBeNull();
    expect(sharedSecretWarning({ database: { dialect: "sqlite", file: "/srv/data/app.sqlite" }, authSecretSource: "generated", dataDir: "/srv/data" })).toBeNull();
  });
});
