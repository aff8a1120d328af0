import { ScanRecorder } from "~/modules/scans/scans.server";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, expect, it } from "vitest";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createFileTransport } from "~/modules/mail/transport.server";
import { handleVisitorSubmission, type VisitorSubmission } from "~/modules/visitor-forms/pipeline/visitor-submission.server";
import { countFormRefusals } from "~/modules/rate-limit/form-refusals.server";
import { VISITOR_FORM_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { HELD_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { PageDoor, VIEWER_COOKIE } from "~/modules/scans/page-door.server";
import { WebhookWorker } from "~/modules/webhooks/webhook-delivery.server";
import { AlertWorker } from "~/modules/founder-alerts/alert-delivery.server";
import { testAlertSettings } from "../support/push-service";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-limits-mail-"));
afterAll(() => fs.rmSync(mailDir, { recursive: true, force: true }));

describeEachDialect("public form limits: a venue never hits them, a script's forms are held for review (decision 50)", (getDb) => {
  const logger = pino({ level: "silent" });
  const services = () => {
    const { db } = getDb();
    return {
      database: getDb(),
      events: createLocalProjectEvents(),
      logger,
      mailLinks: testMailLinks,
      mail: new MailWorker(db, createFileTransport(mailDir, "PitchQR <no-reply@localhost>"), logger),
      pageDoor: new PageDoor({ secret: "limits-secret-0123456789abcdef0123", secureCookie: false }),
      scans: new ScanRecorder(db),
      webhooks: new WebhookWorker(db, { allowPrivateTargets: false }, logger, testMailLinks),
      alerts: new AlertWorker(db, testAlertSettings(), logger),
    };
  };
  let browsers = 0;
  /** A browser the page door gave its signed viewer cookie. */
  const browser = () => services().pageDoor.viewerCookie((++browsers).toString(16).padStart(32, "0")).split(";")[0]!;
  const subscribe = (projectId: string, cookie: string, email: string, clientIp = "203.0.113.50"): VisitorSubmission => ({
    intent: "subscribe",
    projectId,
    values: { name: "Visitor", email, consent: "on" },
    clientIp,
    honeypot: "",
    visitor: { userId: null },
    cookieHeader: cookie,
    userAgent: PHONE,
  });

  /** What a submission came to: "ok" (written), "held" (kept for review) or the error's code. */
  const outcomeOf = (sending: Promise<{ held?: boolean }>) =>
    sending.then(
      (outcome) => (outcome.held ? "held" : "ok"),
      (error: { code?: string }) => String(error.code),
    );

  it("lets 40 identical phones behind one address each send their forms, none held", async () => {
    const project = await createProject(getDb().db);
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, index) => outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, browser(), `guest${index}@example.com`)))),
    );
    expect(sent).toEqual(Array.from({ length: 40 }, () => "ok"));
    expect(await countFormRefusals(getDb().db, project.id, new Date(0))).toBe(0);
    expect((await loadProjectAnalytics(getDb().db, project.ownerId, project.id)).heldForReview).toBe(0);
  });

  it("holds one browser's burst from its fourth form within seconds to its last, takes back the first three, refuses none, and leaves other browsers alone", async () => {
    const project = await createProject(getDb().db);
    const cookie = browser();
    const start = Date.now();
    const outcomes: string[] = [];
    // 30 forms in 4.5 s, then one more a minute later: the browser stays held.
    for (let index = 0; index < 30; index += 1) {
      outcomes.push(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, cookie, `spam${index}@example.com`), new Date(start + index * 150))));
    }
    outcomes.push(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, cookie, "spam-later@example.com"), new Date(start + 60_000))));
    const burst = VISITOR_FORM_LIMITS.burstPerBrowser.max;
    expect(outcomes).toEqual([...Array.from({ length: burst }, () => "ok"), ...Array.from({ length: 31 - burst }, () => "held")]);
    expect(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, browser(), "neighbour@example.com"), new Date(start + 1_000)))).toBe("ok");

    expect(await countFormRefusals(getDb().db, project.id, new Date(0))).toBe(0);
    // The first three were answered as accepted, and moved to held once the fourth showed the burst (decision 95).
    const analytics = await loadProjectAnalytics(getDb().db, project.ownerId, project.id);
    expect(analytics.heldForReview).toBe(31);
    expect(analytics.totalSubscribers).toBe(1);
  });

  it("gives a copied viewer cookie used from another address its own allowance", async () => {
    const project = await createProject(getDb().db);
    const cookie = browser();
    const at = new Date();
    for (let index = 0; index < VISITOR_FORM_LIMITS.burstPerBrowser.max; index += 1) {
      expect(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, cookie, `own${index}@example.com`), at))).toBe("ok");
    }
    expect(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, cookie, "own-extra@example.com"), at))).toBe("held");
    // Four forms in one instant: "within 0.1 seconds", never "within 0 seconds".
    const held = await getDb().db.selectFrom("held_submissions").select("reason_text").where("project_id", "=", project.id).where("email", "=", "own-extra@example.com").executeTakeFirstOrThrow();
    expect(held.reason_text).toBe("4 forms from one browser within 0.1 seconds");
    expect(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, cookie, "copied@example.com", "198.51.100.9"), at))).toBe("ok");
  });

  it("lets a venue's visitors through after 1,000 invalid posts from their address: only what passes validation spends the network's allowance", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const venue = "203.0.113.77";
    const invalid = (cookie: string): VisitorSubmission => ({ ...subscribe(project.id, cookie, "not-an-address", venue) });
    const refusals: string[] = [];
    for (let index = 0; index < VISITOR_FORM_LIMITS.perAddress.max; index += 1) {
      // A script rotating browsers, so no browser's own allowance stops it.
      await handleVisitorSubmission(services(), invalid(browser())).then(
        () => refusals.push("accepted"),
        (error: { code?: string }) => error.code !== "invalid_input" && refusals.push(String(error.code)),
      );
    }
    expect(refusals).toEqual([]);
    const visitors = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) => handleVisitorSubmission(services(), subscribe(project.id, browser(), `venue${index}@example.com`, venue))),
    );
    expect(visitors.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    expect(await countFormRefusals(db, project.id, new Date(0))).toBe(0);
  });

  it("spends no allowance on a browser's invalid posts: a visitor who fixes a typo is still accepted (decision 41)", async () => {
    const project = await createProject(getDb().db);
    const cookie = browser();
    for (let index = 0; index < VISITOR_FORM_LIMITS.perBrowser.max * 2; index += 1) {
      await expect(handleVisitorSubmission(services(), subscribe(project.id, cookie, "typo@"))).rejects.toMatchObject({ code: "invalid_input" });
    }
    await expect(handleVisitorSubmission(services(), subscribe(project.id, cookie, "fixed@example.com"))).resolves.toBeDefined();
  });

  it("treats forged viewer cookies as no cookie: 30 forms with 30 made-up ids from one phone are one browser, held past its burst", async () => {
    const project = await createProject(getDb().db);
    const at = new Date();
    const outcomes: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      const forged = `${VIEWER_COOKIE}=${(0xf000 + index).toString(16).padStart(32, "0")}`;
      outcomes.push(await outcomeOf(handleVisitorSubmission(services(), subscribe(project.id, forged, `forged${index}@example.com`), at)));
    }
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(VISITOR_FORM_LIMITS.burstPerBrowser.max);
    expect(new Set(outcomes.slice(VISITOR_FORM_LIMITS.burstPerBrowser.max))).toEqual(new Set(["held"]));
  });

  it("holds a sixth form for one e-mail address within the hour, from any browser, and writes nothing else for it", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const intro = (cookie: string): VisitorSubmission => ({
      ...subscribe(project.id, cookie, "victim@example.com"),
      intent: "intro",
      values: { name: "Someone", email: "Victim@Example.com", note: "Please call me" },
    });
    for (let index = 0; index < VISITOR_FORM_LIMITS.perEmail.max; index += 1) await handleVisitorSubmission(services(), intro(browser()));
    await expect(handleVisitorSubmission(services(), intro(browser()))).resolves.toEqual({ message: HELD_MESSAGE, held: true });
    const intros = await db.selectFrom("intros").select("id").where("project_id", "=", project.id).execute();
    expect(intros).toHaveLength(5);
    const held = await db.selectFrom("held_submissions").select(["reason", "reason_text", "email"]).where("project_id", "=", project.id).execute();
    expect(held).toEqual([{ reason: "email", reason_text: expect.stringMatching(/^6 forms for this e-mail address within \d/), email: "victim@example.com" }]);
  });
});
