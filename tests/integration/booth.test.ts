// Booth mode (decision 35): booth links (owner-only creation and revocation, expiry, the token
// stored hashed), today's counters by analytics' definitions, and the ticker's reads.
import { expect, it, onTestFinished } from "vitest";
import { countProjectActivitySince, loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { hashSingleUseToken } from "~/modules/tokens/single-use-token.server";
import { checkBoothToken, createBoothLink, isBoothLinkActive, listActiveBoothLinks, repointBoothLink, revokeBoothLink } from "~/modules/booth/booth-links.server";
import { loadBoothScreen, readTickerSince, TICKER_SETTLE_MS } from "~/modules/booth/booth.server";
import { PLAIN_PITCH_CODE, UNKNOWN_BOOTH_CODE_MESSAGE } from "~/modules/booth/booth-codes";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { openBoothStream } from "~/modules/booth/booth-stream.server";
import { LiveStreams } from "~/modules/realtime/live-streams.server";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { isDomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { type ProjectEvent } from "~/modules/realtime/project-events.server";
import { recordScans, ScanRecorder } from "~/modules/scans/scans.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { createLogger } from "~/modules/logging/logger.server";
import { tickerLine, type TickerItem } from "~/modules/booth/booth-ticker";
import { describeEachDialect } from "../support/databases";
import { projectEventsFor } from "../support/realtime";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const DAY = 24 * 3_600_000;
const visitor = { userId: null };
const notFound = (error: unknown) => isDomainError(error) && error.code === "not_found";

function revokeDeps(db: Parameters<typeof revokeBoothLink>[0]["db"]) {
  const published: ProjectEvent[] = [];
  return { deps: { db, events: { publish: async (event: ProjectEvent) => void published.push(event) }, logger: createLogger("silent") }, published };
}

describeEachDialect("booth screen", (getDb) => {
  it("shows the tracked codes oldest first, then the plain pitch address, so a project without tracked codes still has one", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const owner = { kind: "member" as const, userId: project.ownerId };
    const publicUrl = "https://pitch.example.com";

    const before = await loadBoothScreen(db, owner, project.id, publicUrl);
    expect(before.codes.map((code) => [code.id, code.url])).toEqual([[PLAIN_PITCH_CODE, `${publicUrl}/pitch/${project.slug}`]]);
    expect(before.codes[0]!.svg).toContain("<svg");

    const expo = await createQrCode(db, project.ownerId, project.id, { label: "Expo booth", eventTag: "Expo" });
    const flyer = await createQrCode(db, project.ownerId, project.id, { label: "Flyer", eventTag: null });
    // Made in the same second: the order the screen uses is their creation time, so make it distinct.
    await db.updateTable("qr_codes").set({ created_at: "2026-05-04T09:00:00.000Z" }).where("id", "=", expo.id).execute();
    const after = await loadBoothScreen(db, owner, project.id, publicUrl);
    expect(after.codes.map((code) => code.url)).toEqual([
      `${publicUrl}/pitch/${project.slug}?qr=${expo.id}`,
      `${publicUrl}/pitch/${project.slug}?qr=${flyer.id}`,
      `${publicUrl}/pitch/${project.slug}`,
    ]);
    const stranger = { kind: "member" as const, userId: await createUser(db) };
    await expect(loadBoothScreen(db, stranger, project.id, publicUrl)).rejects.toSatisfy(notFound);
  });
});

describeEachDialect("the code a booth shows", (getDb) => {
  const publicUrl = "https://pitch.example.com";

  it("defaults to the newest code labelled like 'Booth', else the newest; a link shows its own code, re-pointable, never another project's", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const owner = { kind: "member" as const, userId: project.ownerId };
    const code = async (label: string, at: string) => {
      const made = await createQrCode(db, project.ownerId, project.id, { label, eventTag: "Demo Day" });
      await db.updateTable("qr_codes").set({ created_at: at }).where("id", "=", made.id).execute();
      return made;
    };
    expect((await loadBoothScreen(db, owner, project.id, publicUrl)).shownCode).toBe(PLAIN_PITCH_CODE);
    const hallA = await code("Hall A", "2026-05-01T09:00:00.000Z");
    expect((await loadBoothScreen(db, owner, project.id, publicUrl)).shownCode).toBe(hallA.id);
    const booth = await code("Our booth", "2026-05-02T09:00:00.000Z");
    const stage = await code("Stage", "2026-05-03T09:00:00.000Z");
    expect(await loadBoothScreen(db, owner, project.id, publicUrl)).toMatchObject({ shownCode: booth.id, followsLink: false });

    // A link made for the stage shows the stage, and follows a re-point; the owner's screen keeps its default.
    const link = await createBoothLink(db, project.ownerId, project.id, { days: 1, code: stage.id });
    const staff = { kind: "link" as const, linkId: link.id };
    expect(await loadBoothScreen(db, staff, project.id, publicUrl)).toMatchObject({ shownCode: stage.id, followsLink: true });
    const { deps, published } = revokeDeps(db);
    await repointBoothLink(deps, project.ownerId, project.id, { linkId: link.id, code: hallA.id });
    expect((await loadBoothScreen(db, staff, project.id, publicUrl)).shownCode).toBe(hallA.id);
    expect(published).toEqual([{ projectId: project.id, kind: "booth" }]);
    expect((await listActiveBoothLinks(db, project.ownerId, project.id))[0]!.codeId).toBe(hallA.id);
    await repointBoothLink(deps, project.ownerId, project.id, { linkId: link.id, code: PLAIN_PITCH_CODE });
    expect((await loadBoothScreen(db, staff, project.id, publicUrl)).shownCode).toBe(PLAIN_PITCH_CODE);

    // Another project's code, a stranger, an ended link: refused, nothing changed.
    const other = await createProject(db);
    const foreign = await createQrCode(db, other.ownerId, other.id, { label: "Booth", eventTag: null });
    const invalid = (error: unknown) => isDomainError(error) && error.code === "invalid_input" && error.message === UNKNOWN_BOOTH_CODE_MESSAGE;
    await expect(createBoothLink(db, project.ownerId, project.id, { days: 1, code: foreign.id })).rejects.toSatisfy(invalid);
    await expect(repointBoothLink(deps, project.ownerId, project.id, { linkId: link.id, code: foreign.id })).rejects.toSatisfy(invalid);
    await expect(repointBoothLink(deps, other.ownerId, project.id, { linkId: link.id, code: null })).rejects.toSatisfy(notFound);
    expect((await loadBoothScreen(db, staff, project.id, publicUrl)).shownCode).toBe(PLAIN_PITCH_CODE);
    await revokeBoothLink(deps, project.ownerId, project.id, link.id);
    await expect(repointBoothLink(deps, project.ownerId, project.id, { linkId: link.id, code: stage.id })).rejects.toSatisfy(notFound);
    expect(await db.selectFrom("booth_links").select("code_id").where("project_id", "=", project.id).execute()).toEqual([{ code_id: PLAIN_PITCH_CODE }]);

    // A link whose code was deleted shows the default again.
    const second = await createBoothLink(db, project.ownerId, project.id, { days: 1, code: stage.id });
    await db.deleteFrom("qr_codes").where("id", "=", stage.id).execute();
    expect((await loadBoothScreen(db, { kind: "link", linkId: second.id }, project.id, publicUrl)).shownCode).toBe(booth.id);
  });
});

describeEachDialect("booth links", (getDb) => {
  it("lets only the owner create one; it is long, random, stored hashed, and works for 3 days by default", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const stranger = await createUser(db);
    const now = new Date("2026-05-04T09:00:00.000Z");

    await expect(createBoothLink(db, stranger, project.id, { days: 3, code: null }, now)).rejects.toSatisfy(notFound);
    const link = await createBoothLink(db, project.ownerId, project.id, { days: 3, code: null }, now);

    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toBe(new Date(now.getTime() + 3 * DAY).toISOString());
    const stored = await db.selectFrom("booth_links").selectAll().where("id", "=", link.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashSingleUseToken(link.token));
    expect(JSON.stringify(stored)).not.toContain(link.token);
    expect(await checkBoothToken(db, project.id, link.token, now)).toEqual({ kind: "valid", linkId: link.id, expiresAt: link.expiresAt });
    expect(await listActiveBoothLinks(db, project.ownerId, project.id, now)).toEqual([{ id: link.id, createdAt: now.toISOString(), expiresAt: link.expiresAt, codeId: null }]);
    await expect(listActiveBoothLinks(db, stranger, project.id, now)).rejects.toSatisfy(notFound);
  });

  it("opens only its own project's booth, and nothing once expired", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db, { ownerId: project.ownerId });
    const now = new Date("2026-05-04T09:00:00.000Z");
    const link = await createBoothLink(db, project.ownerId, project.id, { days: 1, code: null }, now);

    expect((await checkBoothToken(db, other.id, link.token, now)).kind).toBe("unknown");
    expect((await checkBoothToken(db, project.id, "x".repeat(43), now)).kind).toBe("unknown");
    expect((await checkBoothToken(db, project.id, "not a token", now)).kind).toBe("unknown");
    const justBefore = new Date(now.getTime() + DAY - 1);
    expect((await checkBoothToken(db, project.id, link.token, justBefore)).kind).toBe("valid");
    const expiry = new Date(now.getTime() + DAY);
    expect((await checkBoothToken(db, project.id, link.token, expiry)).kind).toBe("ended");
    expect(await isBoothLinkActive(db, link.id, expiry)).toBe(false);
    expect(await listActiveBoothLinks(db, project.ownerId, project.id, expiry)).toEqual([]);
  });

  it("is revoked by the owner only, at once, and tells open booth screens", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const stranger = await createUser(db);
    const link = await createBoothLink(db, project.ownerId, project.id, { days: 7, code: null });
    const { deps, published } = revokeDeps(db);

    await expect(revokeBoothLink(deps, stranger, project.id, link.id)).rejects.toSatisfy(notFound);
    expect((await checkBoothToken(db, project.id, link.token)).kind).toBe("valid");
    expect(published).toEqual([]);

    await revokeBoothLink(deps, project.ownerId, project.id, link.id);
    expect((await checkBoothToken(db, project.id, link.token)).kind).toBe("ended");
    expect(await isBoothLinkActive(db, link.id)).toBe(false);
    expect(published).toEqual([{ projectId: project.id, kind: "booth" }]);
    await expect(revokeBoothLink(deps, project.ownerId, project.id, link.id)).rejects.toSatisfy(notFound);
    await expect(revokeBoothLink(deps, project.ownerId, project.id, "../x")).rejects.toSatisfy(notFound);
  });
});

describeEachDialect("booth counters and ticker", (getDb) => {
  it("count today's scans, people who acted, intros and signals as analytics counts them", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const code = `bth${project.id.slice(0, 8)}`;
    await db.insertInto("qr_codes").values({ id: code, project_id: project.id, label: "Booth", event_tag: "Demo Day" }).execute();
    const since = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);

    await recordScans(db, [
      { projectId: project.id, qrCodeId: code, viewerFingerprint: "v1" },
      { projectId: project.id, qrCodeId: code, viewerFingerprint: "v2" },
      { projectId: project.id, qrCodeId: null, viewerFingerprint: "v1" },
    ]);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Karenina", email: "ana@example.com", note: "hi" }), visitor);
    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Ana Karenina", email: "ana@example.com" }), visitor);
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Bo", email: "bo@example.com" }), visitor);

    const today = await countProjectActivitySince(db, project.id, since);
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(today).toEqual({ since: since.toISOString(), scans: 3, peopleWhoActed: 2, intros: 1, signals: 1 });
    // Everything happened today, so today's figures are the analytics page's totals.
    expect(today).toMatchObject({
      scans: analytics.totalScans,
      peopleWhoActed: analytics.peopleWhoActed,
      intros: analytics.totalIntros,
      signals: analytics.totalSignals,
    });
    // Tomorrow nothing has happened yet.
    expect(await countProjectActivitySince(db, project.id, new Date(since.getTime() + DAY))).toMatchObject({ scans: 0, peopleWhoActed: 0, intros: 0, signals: 0 });
  });

  it("hears of a committed scan batch once per project, not once per scan, and not of an unknown project", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const reports: string[][] = [];
    const recorder = new ScanRecorder(db, undefined, { onScansStored: (projectIds) => reports.push([...projectIds].sort()) });
    await Promise.all([
      ...Array.from({ length: 5 }, (_, index) => recorder.record({ projectId: project.id, qrCodeId: null, viewerFingerprint: `v${index}` })),
      recorder.record({ projectId: other.id, qrCodeId: null, viewerFingerprint: "v1" }),
      recorder.record({ projectId: crypto.randomUUID(), qrCodeId: null, viewerFingerprint: "v1" }),
    ]);
    await recorder.idle();
    expect(reports).toEqual([[project.id, other.id].sort()]);
  });

  it("reads what happened since an instant, oldest first, naming only a signal whose visitor chose to show their name on the wall", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    // Each happening in its own minute: two in one millisecond would be ordered by their ids, not as they happened.
    const start = Date.now() - 10 * 60_000;
    const minute = (n: number) => new Date(start + n * 60_000);
    const from = minute(0).toISOString();
    await recordScans(db, [{ projectId: project.id, qrCodeId: null, viewerFingerprint: "v1" }], undefined, minute(1));
    await recordScans(db, [{ projectId: other.id, qrCodeId: null, viewerFingerprint: "v1" }], undefined, minute(1));
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Karenina", email: "ana@example.com", note: "hi" }), { ...visitor, sent: { at: minute(2) } });
    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[1]!.id, name: "Cy Twombly", email: "cy@example.com", showName: "on" }), { ...visitor, sent: { at: minute(3) } });
    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Kenji Watanabe", email: "kenji@example.com" }), { ...visitor, sent: { at: minute(4) } });

    // Not yet: a form reaches the ticker once its browser's burst window has passed.
    expect((await readTickerSince(db, project.id, from)).map((item) => item.kind)).toEqual(["scan"]);
    const items = await readTickerSince(db, project.id, from, new Date(Date.now() + TICKER_SETTLE_MS + 1_000));
    expect(items.map((item) => item.kind)).toEqual(["scan", "intro", "signal", "signal"]);
    // Only what the wall may show leaves the server: an intro asks for no 'Show my name', so it is "Someone"; a
    // signal names its visitor (short) and tier only when they chose 'Show my name'.
    expect(items.map(tickerLine)).toEqual(["Someone just scanned", "Someone requested an intro", "New signal from Cy T.: Lead", "New signal"]);
    const sent = JSON.stringify(items);
    for (const secret of ["@example.com", "Ana", "Kenji", "Watanabe", "Angel"]) expect(sent).not.toContain(secret);
    expect(await readTickerSince(db, project.id, new Date(Date.now() + 60_000).toISOString())).toEqual([]);
  });

  it("shows a form accepted from review, or sent from a phone that kept it offline, when it is written, not when the visitor acted", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const from = new Date(Date.now() - 1_000).toISOString();
    const anHourAgo = new Date(Date.now() - 60 * 60_000);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Held Hannah", email: "hannah@example.com", note: "hi" }), { ...visitor, sent: { at: anHourAgo } });
    const items = await readTickerSince(db, project.id, from, new Date(Date.now() + TICKER_SETTLE_MS + 1_000));
    expect(items.map(tickerLine)).toEqual(["Someone requested an intro"]);
    const intro = await db.selectFrom("intros").select(["created_at", "recorded_at"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(Date.parse(String(intro.created_at))).toBe(anHourAgo.getTime());
    expect(Date.parse(String(intro.recorded_at))).toBeGreaterThanOrEqual(Date.parse(from));
  });
});

/**
 * Reads a stream's text until `until` matches what arrived, or 20 s pass (then the assertion after it says what was
 * missing). A read that is still waiting when the time runs out is kept for the next call, never dropped: a dropped
 * read would take the next chunk with it (which lost the first counters whenever a read took longer than a tick).
 */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, seen: StreamSeen, until: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (!until.test(seen.text) && Date.now() < deadline) {
    seen.pending ??= reader.read();
    const chunk = await Promise.race([seen.pending, new Promise<null>((resolve) => setTimeout(() => resolve(null), 250))]);
    if (chunk === null) continue;
    seen.pending = undefined;
    if (chunk.done) break;
    seen.text += seen.decoder.decode(chunk.value, { stream: true });
  }
  return seen.text;
}

type StreamSeen = { text: string; decoder: TextDecoder; pending?: Promise<ReadableStreamReadResult<Uint8Array>> };
const streamSeen = (): StreamSeen => ({ text: "", decoder: new TextDecoder() });

describeEachDialect("booth stream", (getDb, dialect) => {
  it("sends counters and new ticker items on each activity event, resumes after its cursor, and ends when its link is revoked", async () => {
    const { db, url } = getDb();
    const project = await createProject(db);
    const logger = createLogger("silent");
    const events = await projectEventsFor({ url }, dialect, logger);
    const deps = { db, events, streams: new LiveStreams(), logger };
    const recorder = new ScanRecorder(db, undefined, { onScansStored: (ids) => ids.forEach((projectId) => void events.publish({ projectId, kind: "activity" })) });
    const link = await createBoothLink(db, project.ownerId, project.id, { days: 3, code: null });
    const today = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const controller = new AbortController();
    const response = await openBoothStream(deps, { kind: "link", linkId: link.id }, project.id, today, null, controller.signal, "203.0.113.7");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const seen = streamSeen();
    await readUntil(reader, seen, /event: counters/);
    expect(seen.text).toContain('"scans":0');

    await recorder.record({ projectId: project.id, qrCodeId: null, viewerFingerprint: "v1" });
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Karenina", email: "ana@example.com", note: "hi" }), visitor);
    await events.publish({ projectId: project.id, kind: "activity" });
    const text = await readUntil(reader, seen, /"kind":"intro"[\s\S]*"intros":1/);
    expect(text).toMatch(/"kind":"scan"/);
    expect(text).not.toContain("ana@example.com");
    expect(text.match(/"kind":"scan"/g)).toHaveLength(1);
    const cursor = [...text.matchAll(/^id: (.+)$/gm)].at(-1)![1]!;

    // A reconnect with its cursor gets nothing it already had.
    const resumed = await openBoothStream(deps, { kind: "link", linkId: link.id }, project.id, today, cursor, new AbortController().signal, "203.0.113.7");
    const resumedText = await readUntil(resumed.body!.getReader(), streamSeen(), /event: counters/);
    expect(resumedText).not.toContain("event: ticker");

    await revokeBoothLink({ db, events, logger }, project.ownerId, project.id, link.id);
    expect(await readUntil(reader, seen, /event: ended/)).toContain("event: ended");
    expect((await (seen.pending ?? reader.read())).done).toBe(true);
    await expect(openBoothStream(deps, { kind: "link", linkId: link.id }, project.id, today, null, new AbortController().signal)).rejects.toSatisfy(notFound);
    deps.streams.closeAll();
  });
});

describeEachDialect("booth ticker under a scan burst", (getDb, dialect) => {
  it("shows every intro made during a burst of 300 scans, and the scans summarised, each counted once", async () => {
    const { db, url } = getDb();
    const project = await createProject(db);
    const logger = createLogger("silent");
    const events = await projectEventsFor({ url }, dialect, logger);
    const deps = { db, events, streams: new LiveStreams(), logger };
    onTestFinished(() => deps.streams.closeAll());
    const recorder = new ScanRecorder(db, undefined, { onScansStored: (ids) => ids.forEach((projectId) => void events.publish({ projectId, kind: "activity" })) });
    const today = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const response = await openBoothStream(deps, { kind: "member", userId: project.ownerId }, project.id, today, null, new AbortController().signal);
    const reader = response.body!.getReader();
    const seen = streamSeen();
    await readUntil(reader, seen, /event: counters/);

    const names = ["Ana Karenina", "Bo Diddley", "Cy Twombly", "Di Fletcher", "Ed Ruscha"];
    const scans: Promise<unknown>[] = [];
    // Each intro its own millisecond, on the clock the burst's scans carry: two in one millisecond would be ordered by
    // their ids, not as they were made.
    let introAt = 0;
    for (let index = 0; index < 300; index += 1) {
      scans.push(recorder.record({ projectId: project.id, qrCodeId: null, viewerFingerprint: `burst-${index}` }));
      if (index % 60 === 30) {
        // An intro in the middle of the burst, with scans queued before and after it.
        introAt = Math.max(Date.now(), introAt + 1);
        const introVisitor = { ...visitor, sent: { at: new Date(introAt) } };
        await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: names[(index - 30) / 60]!, email: `i${index}@example.com`, note: "hi" }), introVisitor);
        // Settled at once: written one settle earlier, as if its browser's burst window had passed (the stream test
        // above waits for one to settle).
        await db
          .updateTable("intros")
          .set({ recorded_at: new Date(Date.now() - TICKER_SETTLE_MS - 1).toISOString() })
          .where("project_id", "=", project.id)
          .where("recorded_at", ">", new Date(Date.now() - TICKER_SETTLE_MS).toISOString())
          .execute();
        await events.publish({ projectId: project.id, kind: "activity" });
      }
    }
    await Promise.all(scans);
    await recorder.idle();
    await events.publish({ projectId: project.id, kind: "activity" });
    const text = await readUntil(reader, seen, /"scans":300,"peopleWhoActed":5,"intros":5/);
    expect(text).toMatch(/"scans":300,"peopleWhoActed":5,"intros":5/);

    const items = [...text.matchAll(/^event: ticker\ndata: (.+)$/gm)].flatMap((match) => JSON.parse(match[1]!) as TickerItem[]);
    expect(items.filter((item) => item.kind === "intro").map(tickerLine)).toEqual(Array.from({ length: 5 }, () => "Someone requested an intro"));
    // Scans are summarised, never counted twice: the ticker's scan counts add up to the 300 scans.
    expect(items.reduce((sum, item) => sum + (item.kind === "scan" ? item.count : 0), 0)).toBe(300);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(items.filter((item) => item.kind === "scan").length).toBeLessThan(300);
  });
});

