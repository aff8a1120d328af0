import crypto from "node:crypto";
import { HELD_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import { describe, expect, it } from "vitest";
import { UNSUBSCRIBE_REQUEST_LIMITS, VISITOR_FORM_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { PHONE_USER_AGENT, useDemoOnPostgres } from "../support/demo-on-postgres";
import { nextClientAddress } from "../support/clients";

/**
 * Over HTTP on the built app: limits count what costs (an invalid post does not spend a
 * venue's allowance), every per-address limit keys an IPv6 client on its /64, and a made-up viewer cookie buys
 * no browser allowance of its own.
 */
describe("limits a venue never hits and a script cannot dodge", () => {
  const demo = useDemoOnPostgres();
  /** A /64 of the documentation range no other test uses. */
  const freshIpv6Network = () => `2001:db8:${crypto.randomInt(0x10000).toString(16)}:${crypto.randomInt(0x10000).toString(16)}`;

  const unsubscribe = (address: string, index: number) =>
    fetch(`${demo.server.url}/api/functions/handle-unsubscribe`, {
      method: "POST",
      // A browser of its own each time: only the network's limit is at stake here.
      headers: { "content-type": "application/json", origin: demo.server.url, "x-forwarded-for": address, "user-agent": `${PHONE_USER_AGENT} ${index}` },
      body: JSON.stringify({ email: `walker${index}@example.com` }),
    }).then(async (response) => {
      await response.body?.cancel();
      return response.status;
    });

  const submitForm = (fields: Record<string, string>, options: { address: string; userAgent?: string; cookie?: string }) =>
    fetch(`${demo.server.url}/pitch/demo-project/submit`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: demo.server.url,
        "x-forwarded-for": options.address,
        "user-agent": options.userAgent ?? PHONE_USER_AGENT,
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    }).then(async (response) => {
      await response.body?.cancel();
      return response.status;
    });

  it("every address of one IPv6 /64 shares a per-address allowance, and the next /64 has its own", async () => {
    const network = freshIpv6Network();
    const statuses: number[] = [];
    for (let index = 0; index < UNSUBSCRIBE_REQUEST_LIMITS.perAddress.max; index += 1) {
      statuses.push(await unsubscribe(`${network}:${(index + 1).toString(16)}:${crypto.randomInt(0x10000).toString(16)}::1`, index));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await unsubscribe(`${network}:ffff:ffff:ffff:fffe`, 99)).toBe(429);
    expect(await unsubscribe(`${freshIpv6Network()}::1`, 100)).toBe(200);
  });

  it("an IPv4 client seen as IPv4-mapped IPv6 shares its IPv4 address's allowance", async () => {
    const address = nextClientAddress();
    for (let index = 0; index < UNSUBSCRIBE_REQUEST_LIMITS.perAddress.max; index += 1) {
      expect(await unsubscribe(index % 2 ? address : `::ffff:${address}`, index)).toBe(200);
    }
    expect(await unsubscribe(address, 99)).toBe(429);
    expect(await unsubscribe(`::ffff:${address}`, 100)).toBe(429);
  });

  it("1,000 invalid form posts from a venue's address leave every visitor behind it their forms", async () => {
    const venue = nextClientAddress();
    const invalid: number[] = [];
    for (let sent = 0; sent < VISITOR_FORM_LIMITS.perAddress.max; sent += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          // A script rotating its user agent, so no browser's own allowance stops it.
          submitForm({ intent: "subscribe", name: "Bot", email: "not-an-address", consent: "on" }, { address: venue, userAgent: `${PHONE_USER_AGENT} bot/${sent + index}` }),
        ),
      );
      invalid.push(...batch);
    }
    expect(new Set(invalid)).toEqual(new Set([400]));
    const visitors = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        submitForm({ intent: "subscribe", name: "Guest", email: `venue-guest${index}@example.com`, consent: "on" }, { address: venue, userAgent: `${PHONE_USER_AGENT} guest/${index}` }),
      ),
    );
    expect(visitors).toEqual(Array.from({ length: 10 }, () => 200));
  });

  it("a made-up viewer cookie is no cookie: the door issues a signed id, and forms from one phone pass only its burst, the rest held", async () => {
    const address = nextClientAddress();
    const forged = (index: number) => `pitchqr_viewer=${(0xbad000 + index).toString(16).padStart(32, "0")}`;
    const page = await fetch(`${demo.server.url}/pitch/demo-project`, {
      headers: { cookie: forged(0), "x-forwarded-for": address, "user-agent": PHONE_USER_AGENT, "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
    });
    await page.body?.cancel();
    const issued = page.headers.getSetCookie().find((cookie) => cookie.startsWith("pitchqr_viewer="));
    expect(issued).toMatch(/^pitchqr_viewer=[0-9a-f]{32}\.[A-Za-z0-9_-]{22};/);
    expect(issued).not.toContain(forged(0).split("=")[1]);

    const outcomes: string[] = [];
    for (let index = 1; index <= 30; index += 1) {
      const response = await fetch(`${demo.server.url}/pitch/demo-project/submit`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: demo.server.url, "x-forwarded-for": address, "user-agent": PHONE_USER_AGENT, cookie: forged(index) },
        body: new URLSearchParams({ intent: "subscribe", name: "Forger", email: `forged${index}@example.com`, consent: "on" }).toString(),
      });
      const body = (await response.json()) as { ok?: boolean; message?: string };
      outcomes.push(response.status !== 200 ? String(response.status) : body.message === HELD_MESSAGE ? "held" : "ok");
    }
    // Decision 50: past the burst a browser's forms are held for the founder's review, never refused.
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(VISITOR_FORM_LIMITS.burstPerBrowser.max);
    expect(new Set(outcomes.slice(VISITOR_FORM_LIMITS.burstPerBrowser.max))).toEqual(new Set(["held"]));
  });
});
