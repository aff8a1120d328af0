// Decision 80: held forms stay reviewable. At most 1,000 wait in a project (beyond it a form that
// would be held is refused and tallied); the review list pages through all of them with the total the inbox says;
// "Discard all like this" takes the forms of one reason sent in one hour, no more; held forms and refusal tallies
// older than 30 days are deleted by a job that runs once an hour across instances. Both databases.
import pino from "pino";
import { expect, it } from "vitest";
import type { HoldReason } from "~/db/schema";
import { HELD_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import { HELD_PAGE_SIZE } from "~/modules/held/held-forms";
import { HeldFormExpiry } from "~/modules/held/held-expiry.server";
import { discardHeldLike, discardHeldSubmission, holdSubmission, listHeldSubmissions } from "~/modules/held/held-submissions.server";
import { readLeadFilters } from "~/modules/leads/lead-forms";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { countFormRefusals, recordFormRefusal } from "~/modules/rate-limit/form-refusals.server";
import { HELD_FORMS_PER_PROJECT } from "~/modules/rate-limit/rate-limit.server";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { PageDoor } from "~/modules/scans/page-door.server";
import { ScanRecorder } from "~/modules/scans/scans.server";
import { handleVisitorSubmission, type VisitorSubmission } from "~/modules/visitor-forms/pipeline/visitor-submission.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

const DAY = 24 * 3_600_000;
const HOUR = 3_600_000;

describeEachDialect("held forms stay reviewable", (getDb) => {
  const logger = pino({ level: "silent" });
  const services = () => {
    const { db } = getDb();
    return {
      database: getDb(),
      events: createLocalProjectEvents(),
      logger,
      mailLinks: testMailLinks,
      mail: { wake: () => undefined },
      pageDoor: new PageDoor({ secret: "held-limits-secret-0123456789abcdef", secureCookie: false }),
      scans: new ScanRecorder(db),
      webhooks: { wake: () => undefined },
      alerts: { wake: () => undefined },
    } as unknown as Parameters<typeof handleVisitorSubmission>[0];
  };
  /** Held forms kept as the visitor pipeline keeps them, `count` of them one second apart from `from`. */
  const keepHeld = async (projectId: string, count: number, from: Date, reason: HoldReason = "honeypot", step = 1_000) => {
    await getDb().db.transaction().execute(async (trx) => {
      for (let index = 0; index < count; index += 1) {
        await holdSubmission(trx, {
          projectId,
          intent: "subscribe",
          name: `Held ${index}`,
          email: `held${index}@example.com`,
          fields: { name: `Held ${index}`, email: `held${index}@example.com`, consent: "on" },
          reason,
          reasonText: "The hidden field only scripts see was filled in",
          source: "direct",
          userId: null,
          browserKey: `browser-${index}`,
          receivedAt: new Date(from.getTime() + index * step),
        });
      }
    });
  };
  let addresses = 0;
  /** A form whose hidden field is filled in, from a browser and network of its own: held, unless refused. */
  const scriptForm = (projectId: string): VisitorSubmission => {
    addresses += 1;
    return {
      intent: "subscribe",
      projectId,
      values: { name: "Script", email: `script${addresses}@example.com`, consent: "on" },
      clientIp: `198.51.100.${addresses}`,
      honeypot: "http://autofill.example",
      visitor: { userId: null },
      cookieHeader: null,
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
    };
  };

  it("keeps at most 1,000 held forms in a project: beyond them a form is refused, tallied and shown on the review page", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const ceiling = HELD_FORMS_PER_PROJECT.max;
    expect(ceiling).toBe(1_000);
    const now = new Date();
    await keepHeld(project.id, ceiling - 1, new Date(now.getTime() - HOUR), "honeypot", 1);

    expect(await handleVisitorSubmission(services(), scriptForm(project.id), now)).toEqual({ message: HELD_MESSAGE, held: true });
    for (let index = 0; index < 2; index += 1) {
      await expect(handleVisitorSubmission(services(), scriptForm(project.id), now)).rejects.toMatchObject({
        code: "rate_limited",
        message: HELD_FORMS_PER_PROJECT.message,
        retryAfterSeconds: HELD_FORMS_PER_PROJECT.retryAfterSeconds,
      });
    }
    expect(await countFormRefusals(db, project.id, new Date(0))).toBe(2);
    const list = await listHeldSubmissions(db, project.ownerId, project.id, {}, now);
    expect([list.total, list.refused]).toEqual([ceiling, 2]);

    // Another project is not affected; and a discarded form makes room again.
    const other = await createProject(db);
    expect(await handleVisitorSubmission(services(), scriptForm(other.id), now)).toMatchObject({ held: true });
    await discardHeldSubmission(db, project.ownerId, project.id, list.held[0]!.id);
    expect(await handleVisitorSubmission(services(), scriptForm(project.id), now)).toMatchObject({ held: true });
    expect((await listHeldSubmissions(db, project.ownerId, project.id, {}, now)).total).toBe(ceiling);
  });

  it("pages through every held form, newest first, each page saying the total the lead inbox says", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const count = 2 * HELD_PAGE_SIZE + 20;
    const from = new Date(Date.now() - DAY);
    await keepHeld(project.id, count, from);
    const inbox = await openLeadInbox(db, project.ownerId, project.id, readLeadFilters(new URLSearchParams()));
    expect(inbox.heldForReview).toBe(count);

    const pages = [];
    for (let page = 1; page <= 3; page += 1) pages.push(await listHeldSubmissions(db, project.ownerId, project.id, { page }));
    expect(pages.map((page) => [page.page, page.pageCount, page.total, page.held.length])).toEqual([
      [1, 3, count, HELD_PAGE_SIZE],
      [2, 3, count, HELD_PAGE_SIZE],
      [3, 3, count, 20],
    ]);
    const names = pages.flatMap((page) => page.held.map((item) => item.name));
    expect(names).toEqual(Array.from({ length: count }, (_, index) => `Held ${count - 1 - index}`));
    // A page past the last is the last; a page before the first (or not a number) is the first.
    expect((await listHeldSubmissions(db, project.ownerId, project.id, { page: 99 })).page).toBe(3);
    expect((await listHeldSubmissions(db, project.ownerId, project.id, { page: Number("x") })).page).toBe(1);
  });

  it("discards all like this: the same reason in the same hour of the same project, after the count it confirmed, and only for the owner", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const stranger = await createUser(db);
    const hour = new Date(Math.floor((Date.now() - 2 * DAY) / HOUR) * HOUR);
    const at = (ms: number) => new Date(hour.getTime() + ms);
    await keepHeld(project.id, 1, at(60_000), "speed");
    await keepHeld(project.id, 1, at(30 * 60_000), "speed");
    await keepHeld(project.id, 1, at(HOUR - 1), "speed");
    await keepHeld(project.id, 1, at(HOUR), "speed");
    await keepHeld(project.id, 1, at(-1), "speed");
    await keepHeld(project.id, 1, at(10 * 60_000), "burst");
    await keepHeld(other.id, 1, at(5 * 60_000), "speed");

    const list = await listHeldSubmissions(db, project.ownerId, project.id);
    const sameHour = list.held.filter((item) => item.group.reason === "speed" && item.group.hour === hour.toISOString());
    expect(sameHour.map((item) => item.group.count)).toEqual([3, 3, 3]);
    const confirming = await listHeldSubmissions(db, project.ownerId, project.id, { like: sameHour[1]!.id });
    expect(confirming.confirm).toEqual({ heldId: sameHour[1]!.id, group: { reason: "speed", hour: hour.toISOString(), count: 3 } });
    expect((await listHeldSubmissions(db, project.ownerId, project.id, { like: "not-an-id" })).confirm).toBeNull();

    await expect(discardHeldLike(db, stranger, project.id, { reason: "speed", hour: hour.toISOString() })).rejects.toMatchObject({ code: "not_found" });
    expect(await discardHeldLike(db, project.ownerId, project.id, { reason: "speed", hour: hour.toISOString() })).toBe(3);
    const left = await listHeldSubmissions(db, project.ownerId, project.id);
    expect(left.held.map((item) => [item.group.reason, item.receivedAt]).sort()).toEqual(
      [
        ["burst", at(10 * 60_000).toISOString()],
        ["speed", at(-1).toISOString()],
        ["speed", at(HOUR).toISOString()],
      ].sort(),
    );
    expect((await listHeldSubmissions(db, other.ownerId, other.id)).total).toBe(1);
    await expect(discardHeldLike(db, project.ownerId, project.id, { reason: "speed", hour: hour.toISOString() })).rejects.toMatchObject({ code: "not_found" });
  });

  it("deletes held forms and refusal tallies older than 30 days, once an hour across instances", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const now = new Date();
    await keepHeld(project.id, 1, new Date(now.getTime() - 31 * DAY));
    await keepHeld(project.id, 1, new Date(now.getTime() - 29 * DAY));
    await recordFormRefusal(db, project.id, "project", new Date(now.getTime() - 31 * DAY));
    await recordFormRefusal(db, project.id, "project", new Date(now.getTime() - DAY));

    const clock = () => now;
    const [first, second] = [new HeldFormExpiry(db, logger, { clock }), new HeldFormExpiry(db, logger, { clock })];
    const runs = await Promise.all([first.runOnce(), second.runOnce()]);
    expect(runs.filter((run) => run === null)).toHaveLength(1);
    expect(runs.find((run) => run !== null)).toEqual({ heldForms: 1, refusals: 1 });
    const list = await listHeldSubmissions(db, project.ownerId, project.id, {}, now);
    expect(list.held.map((item) => item.receivedAt)).toEqual([new Date(now.getTime() - 29 * DAY).toISOString()]);
    expect([list.total, list.refused, await countFormRefusals(db, project.id, new Date(0))]).toEqual([1, 1, 1]);

    // The same hour again does nothing; the next hour runs, and two days on the other form goes too.
    expect(await first.runOnce()).toBeNull();
    expect(await new HeldFormExpiry(db, logger, { clock: () => new Date(now.getTime() + HOUR) }).runOnce()).toEqual({ heldForms: 0, refusals: 0 });
    expect(await new HeldFormExpiry(db, logger, { clock: () => new Date(now.getTime() + 2 * DAY) }).runOnce()).toEqual({ heldForms: 1, refusals: 0 });
    expect((await listHeldSubmissions(db, project.ownerId, project.id)).total).toBe(0);
  });
});
