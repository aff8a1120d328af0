import { ScanRecorder } from "~/modules/scans/scans.server";
import { describe, expect, it } from "vitest";
import { createLogger } from "~/modules/logging/logger.server";
import { handleVisitorSubmission, type VisitorSubmission } from "~/modules/visitor-forms/pipeline/visitor-submission.server";
import { parseSubmissionKey } from "~/modules/contacts/submission-keys.server";
import { SUBSCRIBED_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { PageDoor } from "~/modules/scans/page-door.server";
import { WebhookWorker } from "~/modules/webhooks/webhook-delivery.server";
import { AlertWorker } from "~/modules/founder-alerts/alert-delivery.server";
import { testAlertSettings } from "../support/push-service";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

let clientCounter = 0;

function servicesOf(database: TestDatabase) {
  return { database, events: createLocalProjectEvents(), logger: createLogger("silent"), mailLinks: testMailLinks, mail: { wake: () => undefined }, pageDoor: new PageDoor({ secret: "idempotency-secret-0123456789abcdef", secureCookie: false }), scans: new ScanRecorder(database.db), webhooks: new WebhookWorker(database.db, { allowPrivateTargets: false }, createLogger("silent"), testMailLinks), alerts: new AlertWorker(database.db, testAlertSettings(), createLogger("silent")) } as unknown as Parameters<
    typeof handleVisitorSubmission
  >[0];
}

function submission(projectId: string, intent: VisitorSubmission["intent"], values: Record<string, unknown>, idempotencyKey: string | null): VisitorSubmission {
  clientCounter += 1;
  return { intent, projectId, values, clientIp: `10.77.0.${clientCounter}`, honeypot: "", visitor: { userId: null }, idempotencyKey };
}

const key = (label: string) => `${label}-${crypto.randomUUID()}`;

describeEachDialect("idempotent visitor submissions", (getDb) => {
  it("writes an intro once for one key, and answers the repeat of the same request with the first result (its blurb)", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const intro = { name: "Ada Keyed", email: "ada.keyed@example.com", note: "First note", roleTags: ["Angel"] };
    const once = key("intro");

    const first = await handleVisitorSubmission(services, submission(project.id, "intro", intro, once));
    // The same fields (an offline phone sending its kept copy again; spacing as the schema trims it) under the same key.
    const repeat = await handleVisitorSubmission(services, submission(project.id, "intro", { ...intro, name: " Ada Keyed " }, once));
    expect(repeat).toEqual({ message: first.message, blurb: first.blurb });
    expect(first.blurb).toContain("First note");

    const intros = await db.selectFrom("intros").select(["note"]).where("project_id", "=", project.id).execute();
    expect(intros).toEqual([{ note: "First note" }]);
    const mails = await db.selectFrom("mail_outbox").select("id").where("subject", "like", "%Ada Keyed%").execute();
    expect(mails).toHaveLength(1);
    const stats = await db.selectFrom("project_stats").select("intros").where("project_id", "=", project.id).executeTakeFirst();
    expect(stats?.intros).toBe(1);

    // Without a key, or with another key, the same form is a new submission.
    await handleVisitorSubmission(services, submission(project.id, "intro", intro, key("intro")));
    await handleVisitorSubmission(services, submission(project.id, "intro", intro, null));
    expect(await db.selectFrom("intros").select("id").where("project_id", "=", project.id).execute()).toHaveLength(3);
    expect(await db.selectFrom("contacts").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
  });

  it("answers the same key with a different request 422, with a clear message, revealing and storing nothing", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const once = key("reused");
    const first = { name: "First Visitor", email: "first.visitor@example.com", note: "My private note", roleTags: ["Angel"] };
    await handleVisitorSubmission(services, submission(project.id, "intro", first, once));

    const others: Array<[VisitorSubmission["intent"], Record<string, unknown>]> = [
      ["intro", { ...first, note: "Another note" }],
      ["intro", { name: "Second Visitor", email: "second.visitor@example.com", note: "Hello" }],
      ["intro", { ...first, roleTags: ["Press"] }],
      ["subscribe", { consent: "on", name: "First Visitor", email: "first.visitor@example.com" }],
    ];
    for (const [intent, values] of others) {
      const refused = handleVisitorSubmission(services, submission(project.id, intent, values, once));
      await expect(refused).rejects.toMatchObject({ code: "unprocessable", status: 422, message: expect.stringMatching(/Idempotency-Key .*different/) });
    }

    expect(await db.selectFrom("intros").select("note").where("project_id", "=", project.id).execute()).toEqual([{ note: "My private note" }]);
    expect(await db.selectFrom("contacts").select("email").where("project_id", "=", project.id).execute()).toEqual([{ email: "first.visitor@example.com" }]);
    expect(await db.selectFrom("mail_outbox").select("id").where("subject", "like", "%Visitor%").execute()).toHaveLength(1);
    expect((await db.selectFrom("visitor_submissions").select("intent").where("project_id", "=", project.id).execute()).map((row) => row.intent)).toEqual(["intro"]);
  });

  it("answers every concurrent replay of one request from one browser with the first answer: no 429, one write", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const intro = { name: "Resending Phone", email: "resending.phone@example.com", note: "Sent from the queue" };
    const once = key("replay");
    // More copies than the per-browser (10) and per-e-mail (5) allowances: each copy is the same post.
    const copies = Array.from({ length: 14 }, () => handleVisitorSubmission(services, { ...submission(project.id, "intro", intro, once), clientIp: "10.78.0.1" }));
    const answers = await Promise.allSettled(copies);

    const refused = answers.flatMap((answer) => (answer.status === "rejected" ? [String((answer.reason as Error).message)] : []));
    expect(refused).toEqual([]);
    const blurbs = new Set(answers.map((answer) => (answer.status === "fulfilled" ? answer.value.blurb : null)));
    expect(blurbs.size).toBe(1);
    expect([...blurbs][0]).toContain("Sent from the queue");
    expect(await db.selectFrom("intros").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("mail_outbox").select("id").where("subject", "like", "%Resending Phone%").execute()).toHaveLength(1);
    // The replays took nothing from the browser's allowance: it can still send a new form.
    const next = await handleVisitorSubmission(services, { ...submission(project.id, "subscribe", { consent: "on", name: "Resending Phone", email: "resending.phone@example.com" }, null), clientIp: "10.78.0.1" });
    expect(next.message).toBe(SUBSCRIBED_MESSAGE);
  });

  it("writes one of several different requests sent at once under one key; every other answers 422, never the winner's data", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const once = key("race");
    const notes = Array.from({ length: 6 }, (_, index) => `Note number ${index}`);
    const answers = await Promise.allSettled(
      notes.map((note, index) => handleVisitorSubmission(services, submission(project.id, "intro", { name: `Racer ${index}`, email: `racer${index}@example.com`, note }, once))),
    );

    const written = await db.selectFrom("intros").select("note").where("project_id", "=", project.id).execute();
    expect(written).toHaveLength(1);
    answers.forEach((answer, index) => {
      if (notes[index] === written[0]!.note) {
        expect(answer.status).toBe("fulfilled");
        if (answer.status === "fulfilled") expect(answer.value.blurb).toContain(notes[index]);
      } else {
        expect(answer.status).toBe("rejected");
        if (answer.status === "rejected") expect(answer.reason).toMatchObject({ code: "unprocessable" });
      }
    });
  });

  it("answers a key recorded before requests had fingerprints with its message only, never the stored blurb", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const old = key("legacy");
    await db
      .insertInto("visitor_submissions")
      .values({ project_id: project.id, idempotency_key: old, intent: "intro", outcome: { message: "Intro request sent!", blurb: "Someone else's name and note" }, request_fingerprint: null })
      .execute();

    const answer = await handleVisitorSubmission(services, submission(project.id, "intro", { name: "Later", email: "later@example.com", note: "Mine" }, old));
    expect(answer).toEqual({ message: "Intro request sent!" });
    expect(await db.selectFrom("intros").select("id").where("project_id", "=", project.id).execute()).toHaveLength(0);
  });

  it("writes a signal once when the same key arrives twice at the same time", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const values = { tierId: project.tiers[0]!.id, name: "Concurrent Backer", email: "backer@example.com", showName: "on" };
    const once = key("signal");

    const answers = await Promise.all([1, 2, 3].map(() => handleVisitorSubmission(services, submission(project.id, "signal", values, once))));
    for (const answer of answers) expect(answer.message).toBe("Signal of interest recorded!");

    expect(await db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("recognition_entries").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("contacts").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
  });

  it("keeps keys per project, and does not record a refused submission (a corrected one may use the key)", async () => {
    const database = getDb();
    const { db } = database;
    const [one, two] = [await createProject(db), await createProject(db)];
    const services = servicesOf(database);
    const shared = key("shared");
    const follow = { consent: "on", name: "Grace", email: "grace.keyed@example.com" };

    await handleVisitorSubmission(services, submission(one.id, "subscribe", follow, shared));
    await handleVisitorSubmission(services, submission(two.id, "subscribe", follow, shared));
    for (const project of [one, two]) {
      expect(await db.selectFrom("contacts").select("subscribed").where("project_id", "=", project.id).execute()).toEqual([{ subscribed: true }]);
    }

    const retried = key("retried");
    await expect(handleVisitorSubmission(services, submission(one.id, "intro", { name: "No Note", email: "n@example.com" }, retried))).rejects.toMatchObject({
      code: "invalid_input",
    });
    const fixed = await handleVisitorSubmission(services, submission(one.id, "intro", { name: "No Note", email: "n@example.com", note: "Now with a note" }, retried));
    expect(fixed.blurb).toContain("Now with a note");
  });
});

describe("idempotency keys", () => {
  it("accepts 16 to 64 letters, digits, '-' and '_', treats none as none, and refuses anything else", () => {
    expect(parseSubmissionKey(null)).toBeNull();
    expect(parseSubmissionKey("")).toBeNull();
    expect(parseSubmissionKey("0123456789abcdef")).toBe("0123456789abcdef");
    for (const bad of ["short", "x".repeat(65), "has space 0123456789", "ünïcode-0123456789"]) {
      expect(() => parseSubmissionKey(bad), bad).toThrow(/idempotency key/);
    }
  });
});

describeEachDialect("forms kept on a phone while offline (decision 53)", (getDb) => {
  it("date what was kept by when the person filled it in, never later than it arrived nor more than 7 days before", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const receivedAt = new Date("2026-11-26T18:00:00.000Z");
    const cases = [
      { label: "two hours offline", actedAt: "2026-11-26T16:00:00.000Z", stored: "2026-11-26T16:00:00.000Z" },
      { label: "a phone clock ahead", actedAt: "2026-11-26T18:30:00.000Z", stored: "2026-11-26T18:00:00.000Z" },
      { label: "a queue left a month", actedAt: "2026-10-26T18:00:00.000Z", stored: "2026-11-19T18:00:00.000Z" },
    ];
    for (const { label, actedAt } of cases) {
      const intro = { name: `Kept ${label}`, email: `kept.${cases.findIndex((c) => c.label === label)}@example.com`, note: label, roleTags: [] };
      await handleVisitorSubmission(services, { ...submission(project.id, "intro", intro, key("kept")), actedAt }, receivedAt);
    }
    const intros = await db.selectFrom("intros").select(["note", "created_at"]).where("project_id", "=", project.id).execute();
    const contacts = await db.selectFrom("contacts").select(["note", "created_at"]).where("project_id", "=", project.id).execute();
    for (const { label, stored } of cases) {
      expect(new Date(intros.find((row) => row.note === label)!.created_at).toISOString(), label).toBe(stored);
      expect(new Date(contacts.find((row) => row.note === label)!.created_at).toISOString(), label).toBe(stored);
    }

    // Anything but an ISO time is no time: the form is dated when it arrived.
    const before = Date.now();
    await handleVisitorSubmission(services, { ...submission(project.id, "intro", { name: "Kept garbled", email: "kept.garbled@example.com", note: "garbled", roleTags: [] }, key("kept")), actedAt: "yesterday" });
    const garbled = await db.selectFrom("intros").select("created_at").where("note", "=", "garbled").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(new Date(garbled.created_at).getTime()).toBeGreaterThanOrEqual(before);
  });
});
