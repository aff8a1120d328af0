import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AppServer } from "../support/app-server";
import { countRows, type TestDb } from "../support/test-db";
import { withAppServer } from "../support/with-app-server";

/**
 * Over HTTP against the built app on both databases: a phone's kept form sent many times at once
 * (a flaky network, several tabs) under one Idempotency-Key, from one address. On PostgreSQL some copies answered
 * 429: each took the per-browser and per-e-mail allowances before its key was checked. Now the key is claimed first
 * in the write's transaction, so every copy answers the first result; other requests under the key answer 422.
 */

const SLUG = "demo-project";
const COPIES = 16;
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

type CountIntros = (email: string) => Promise<number>;

function post(server: AppServer, fields: Record<string, string>, key: string, address: string): Promise<Response> {
  return fetch(`${server.url}/pitch/${SLUG}/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "idempotency-key": key, "x-forwarded-for": address, "user-agent": PHONE },
    body: new URLSearchParams(fields).toString(),
  });
}

function replaySuite(getServer: () => AppServer, countIntros: () => CountIntros) {
  it(`answers ${COPIES} copies of one post sent at once from one address with the first result, never 429, and writes once`, async () => {
    const server = getServer();
    const email = `copies-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const key = `copies-${crypto.randomUUID()}`;
    const intro = { intent: "intro", name: "Cam Copies", email, note: "One post, many copies" };
    const answers = await Promise.all(Array.from({ length: COPIES }, () => post(server, intro, key, "10.240.0.1")));
    const bodies = await Promise.all(answers.map((answer) => answer.text()));

    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ ok: true, message: "Intro request sent!" });
    expect(await countIntros()(email)).toBe(1);
  });

  it("writes one of several different posts sent at once under one key; the others answer 422 with none of its data", async () => {
    const server = getServer();
    const key = `race-${crypto.randomUUID()}`;
    const tag = crypto.randomBytes(4).toString("hex");
    const posts = Array.from({ length: 6 }, (_, index) => ({ intent: "intro", name: `Racer ${index}`, email: `racer-${tag}-${index}@example.com`, note: `Note ${tag} ${index}` }));
    const answers = await Promise.all(posts.map((fields, index) => post(server, fields, key, `10.241.0.${index + 1}`)));
    const bodies = await Promise.all(answers.map((answer) => answer.text()));

    const winners = answers.flatMap((answer, index) => (answer.status === 200 ? [index] : []));
    expect(winners).toHaveLength(1);
    const winner = posts[winners[0]!]!;
    answers.forEach((answer, index) => {
      if (answer.status === 200) return;
      expect(answer.status).toBe(422);
      expect(bodies[index]).not.toContain(winner.note);
      expect(bodies[index]).not.toContain(winner.name);
    });
    // One at a time, in the order the posts were made.
    const written: number[] = [];
    for (const fields of posts) written.push(await countIntros()(fields.email));
    expect(written).toEqual(posts.map((fields) => (fields === winner ? 1 : 0)));
  });
}

/** The intros stored for the contact with `email`. */
const introsOf = (db: TestDb) => (email: string) =>
  countRows(db.selectFrom("intros").innerJoin("contacts", "contacts.id", "intros.contact_id").where("contacts.email", "=", email));

describe("concurrent replays of an Idempotency-Key, over HTTP", () => {
  describe("on SQLite", () => {
    const server = withAppServer();
    replaySuite(
      () => server,
      () => introsOf(server.db),
    );
  });

  describe("on PostgreSQL", () => {
    const server = withAppServer({ postgres: "pitchqr_replays" });
    replaySuite(
      () => server,
      () => introsOf(server.db),
    );
  });
});
