import fs from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { postgresAnswers, resolveTestPostgres } from "../support/test-postgres.js";

/** A loopback port nothing listens on (taken from the OS, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe("the tests' PostgreSQL", () => {
  it("starts a disposable embedded server when TEST_POSTGRES_URL does not answer, and deletes it when stopped", async () => {
    const closed = `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
    const postgres = await resolveTestPostgres(closed);
    try {
      expect(postgres.embedded).toBe(true);
      expect(postgres.url).not.toBe(closed);
      expect(await postgresAnswers(postgres.url)).toBe(true);
      expect(fs.existsSync(postgres.dataDir!)).toBe(true);
    } finally {
      await postgres.stop();
    }
    expect(fs.existsSync(postgres.dataDir!)).toBe(false);
    expect(await postgresAnswers(postgres.url)).toBe(false);
  });

  it("uses a server that answers as it is", async () => {
    const reachable = process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";
    const postgres = await resolveTestPostgres(reachable);
    expect(postgres).toMatchObject({ url: reachable, embedded: false });
  });
});
