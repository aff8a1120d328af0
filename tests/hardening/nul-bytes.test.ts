import { describe, expect, it } from "vitest";
import { PHONE_USER_AGENT, useDemoOnPostgres } from "../support/demo-on-postgres";
import { nextClientAddress } from "../support/clients";
import { countRows } from "../support/test-db";

/**
 * Defect 2: PostgreSQL refuses text holding a NUL character. A NUL in a form field answered 500,
 * and a NUL fingerprint in `track-scan` failed the whole batch it was written with, losing the good scans
 * sent in the same tick. Run on PostgreSQL, where the failure showed.
 */
describe("NUL characters, on PostgreSQL", () => {
  const demo = useDemoOnPostgres();

  const scanCount = () => countRows(demo.server.db.selectFrom("scans").where("project_id", "=", demo.projectId));
  const contactCount = () => countRows(demo.server.db.selectFrom("contacts").where("project_id", "=", demo.projectId));

  it("a poisoned scan among 50 good ones is refused alone; the 50 are stored", async () => {
    const before = await scanCount();
    const post = (viewerFingerprint: string) =>
      fetch(`${demo.server.url}/api/functions/track-scan`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: demo.server.url,
          "x-forwarded-for": nextClientAddress(),
          "user-agent": PHONE_USER_AGENT,
        },
        body: JSON.stringify({ projectId: demo.projectId, qrCodeId: null, viewerFingerprint }),
      });
    const responses = await Promise.all([
      ...Array.from({ length: 25 }, (_, index) => post(`good-${index}`)),
      post("poison\u0000"),
      ...Array.from({ length: 25 }, (_, index) => post(`good-${25 + index}`)),
    ]);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses[25]).toBe(400);
    expect(await responses[25]!.json()).toMatchObject({ error: "Please remove the invalid characters" });
    expect((await scanCount()) - before).toBe(50);
  });

  it.each([
    ["intro", { name: "Eve\u0000", email: "eve@example.com", note: "hello" }],
    ["subscribe", { name: "Eve", email: "eve@example.com", consent: "on", extra: "\u0000" }],
  ])("a NUL in a %s form field answers 400 with a clear message and stores nothing", async (intent, fields) => {
    const before = await contactCount();
    const response = await fetch(`${demo.server.url}/pitch/demo-project`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: demo.server.url, "x-forwarded-for": nextClientAddress() },
      body: new URLSearchParams({ intent, ...fields }).toString(),
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Please remove the invalid characters");
    const after = await contactCount();
    expect(after).toBe(before);
  });

  it("a NUL in a pitch address or its ?qr= answers like any unknown page, never 500", async () => {
    expect((await fetch(`${demo.server.url}/pitch/demo%00project`)).status).toBe(404);
    const response = await fetch(`${demo.server.url}/pitch/demo-project?qr=%00`, { headers: { "x-forwarded-for": nextClientAddress() } });
    expect(response.status).toBe(200);
  });

  // Found by the fuzzer (tests/hardening/fuzz.test.ts): the wall stream's project id reached PostgreSQL unchecked.
  it.each(["%00", "a%00b", "%22", "x".repeat(100)])("a live wall for the malformed project id %j answers 404, never 500", async (id) => {
    const response = await fetch(`${demo.server.url}/api/wall/${id}/stream`, { headers: { "x-forwarded-for": nextClientAddress() } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Project not found" });
  });
});
