import { describe, expect, it } from "vitest";
import { HELD_FORM_CEILINGS, TRACK_SCAN_LIMIT, UNSUBSCRIBE_REQUEST_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { PHONE_USER_AGENT, useDemoOnPostgres } from "../support/demo-on-postgres";
import { nextClientAddress } from "../support/clients";
import { countRows } from "../support/test-db";

/**
 * Handle-unsubscribe had no limit, track-scan had none (500 rotating fingerprints from one address were
 * 500 viewers), and a 429 (sign-in's included) never said when to come back. Over HTTP, on the built app.
 */
describe("limits over HTTP answer 429 with Retry-After", () => {
  const demo = useDemoOnPostgres();

  const postJson = (path: string, body: unknown, address: string, userAgent = PHONE_USER_AGENT) =>
    fetch(`${demo.server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: demo.server.url, "x-forwarded-for": address, "user-agent": userAgent },
      body: JSON.stringify(body),
    });

  it("handle-unsubscribe refuses one address walking a list, whatever browser it claims, with Retry-After", async () => {
    const address = nextClientAddress();
    const statuses: number[] = [];
    let refused: Response | null = null;
    for (let index = 0; index <= UNSUBSCRIBE_REQUEST_LIMITS.perAddress.max; index += 1) {
      const response = await postJson("/api/functions/handle-unsubscribe", { email: `walk${index}@example.com` }, address, `${PHONE_USER_AGENT} ${index}`);
      statuses.push(response.status);
      if (response.status === 429) refused = response;
      else await response.body?.cancel();
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(refused!.headers.get("retry-after")).toBe(String(UNSUBSCRIBE_REQUEST_LIMITS.perAddress.windowSeconds));
  });

  it("track-scan counts a venue's address up to its allowance, then answers 429 with Retry-After and counts nothing", async () => {
    const address = nextClientAddress();
    const scansOf = (fingerprint: string) =>
      countRows(demo.server.db.selectFrom("scans").where("project_id", "=", demo.projectId).where("viewer_fingerprint", "=", fingerprint));
    const statuses: number[] = [];
    // A hall behind one NAT: its whole allowance, 25 requests at a time, a few hundred phones loading the page.
    for (let sent = 0; sent < TRACK_SCAN_LIMIT.max; sent += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, async (_, index) => {
          const response = await postJson("/api/functions/track-scan", { projectId: demo.projectId, qrCodeId: null, viewerFingerprint: `phone-${(sent + index) % 400}` }, address);
          await response.body?.cancel();
          return response.status;
        }),
      );
      statuses.push(...batch);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await postJson("/api/functions/track-scan", { projectId: demo.projectId, qrCodeId: null, viewerFingerprint: "rotating-1" }, address);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(TRACK_SCAN_LIMIT.windowSeconds);
    // A neighbouring network is not affected; once its scan is stored, the refused one is known never to be.
    const other = await postJson("/api/functions/track-scan", { projectId: demo.projectId, qrCodeId: null, viewerFingerprint: "neighbour" }, nextClientAddress());
    expect(other.status).toBe(200);
    await expect.poll(() => scansOf("neighbour"), { timeout: 10_000 }).toBe(1);
    expect(await scansOf("rotating-1")).toBe(0);
  });

  it("a pitch page's form refused past the ceiling on one browser's held forms says when to try again", async () => {
    // Decision 50: the 4th form within 10 s and the rest are held for review (302, as any answered form), not
    // refused; past 100 held from one browser in an hour a form is refused.
    const address = nextClientAddress();
    let last: Response | null = null;
    let sent = 0;
    while (sent < 150) {
      last = await fetch(`${demo.server.url}/pitch/demo-project`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: demo.server.url, "x-forwarded-for": address, "user-agent": PHONE_USER_AGENT },
        body: new URLSearchParams({ intent: "subscribe", name: "Guest", email: `guest${sent}@example.com`, consent: "on" }).toString(),
        redirect: "manual",
      });
      sent += 1;
      if (last.status !== 302) break;
      await last.body?.cancel();
    }
    expect([sent, last!.status]).toEqual([3 + HELD_FORM_CEILINGS.perBrowser.max + 1, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a refused sign-in says when to try again", async () => {
    const address = nextClientAddress();
    let last: Response | null = null;
    for (let index = 0; index < 11; index += 1) {
      last = await fetch(`${demo.server.url}/auth?mode=signin`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: demo.server.url, "x-forwarded-for": address },
        body: new URLSearchParams({ intent: "signin", email: "nobody@example.com", password: "wrong-password" }).toString(),
        redirect: "manual",
      });
      if (index < 10) await last.body?.cancel();
    }
    expect(last!.status).toBe(429);
    const retryAfter = Number(last!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
