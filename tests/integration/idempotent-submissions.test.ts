import { describe, expect, it } from "vitest";
import { createLogger } from "~/modules/logging/logger.server";
import { handleVisitorSubmission, type VisitorSubmission } from "~/modules/visitor-forms/visitor-submission.server";
import { parseSubmissionKey } from "~/modules/contacts/submission-keys.server";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { PageDoor } from "~/modules/scans/page-door.server";
import { WebhookWorker } from "~/modules/webhooks/webhook-delivery.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

let clientCounter = 0;

function servicesOf(database: TestDatabase) {
  return { database, events: createLocalProjectEvents(), logger: createLogger("silent"), mailLinks: testMailLinks, mail: { wake: () => undefined }, pageDoor: new PageDoor({ secret: "idempotency-secret-0123456789abcdef", secureCookie: false }), webhooks: new WebhookWorker(database.db, { allowPrivateTargets: false }, createLogger("silent")) } as unknown as Parameters<
    typeof handleVisitorSubmission
  >[0];
}

function submission(projectId: string, intent: VisitorSubmission["intent"], values: Record<string, unknown>, idempotencyKey: string | null): VisitorSubmission {
  clientCounter += 1;
  return { intent, projectId, values, clientIp: `10.77.0.${clientCounter}`, honeypot: "", visitor: { userId: null }, idempotencyKey };
}

const key = (label: string) => `${label}-${crypto.randomUUID()}`;

describeEachDialect("idempotent visitor submissions", (getDb) => {
  it("writes an intro once for one key, and answers the repeat with the first result (its blurb)", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const intro = { name: "Ada Keyed", email: "ada.keyed@example.com", note: "First note", roleTags: ["Angel"] };
    const once = key("intro");

    const first = await handleVisitorSubmission(services, submission(project.id, "intro", intro, once));
    // A different body under the same key (a client bug, or a replay attack) still writes nothing.
    const repeat = await handleVisitorSubmission(services, submission(project.id, "intro", { ...intro, note: "Second note" }, once));
    expect(repeat).toEqual({ message: first.message, blurb: first.blurb, wallChanged: false });
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

  it("writes a signal once when the same key arrives twice at the same time", async () => {
    const database = getDb();
    const { db } = database;
    const project = await createProject(db);
    const services = servicesOf(database);
    const values = { tierId: project.tiers[0]!.id, name: "Concurrent Backer", email: "backer@example.com", showName: "on" };
    const once = key("signal");

    const answers = await Promise.all([1, 2, 3].map(() => handleVisitorSubmission(services, submission(project.id, "signal", values, once))));
    for (const answer of answers) expect(answer.message).toBe("Signal of interest recorded!");
    expect(answers.filter((answer) => answer.wallChanged)).toHaveLength(1);

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
