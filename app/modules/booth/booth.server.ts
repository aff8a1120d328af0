import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { founderTimeZone, zonedDayStart } from "~/modules/time/founder-zone";
import { renderQrSvg, trackedPitchUrl, untrackedPitchUrl } from "~/modules/qr/qr-codes.server";
import { defaultBoothCode, PLAIN_PITCH_CODE, PLAIN_PITCH_LABEL } from "./booth-codes";
import { readBoothLinkCode } from "./booth-links.server";
import { codeName } from "~/modules/analytics/source-names";
import { shortName, type TickerItem } from "./booth-ticker";
import { VISITOR_FORM_LIMITS } from "~/modules/rate-limit/rate-limit.server";

/** Who is looking at a booth: the project's owner, or a staff device holding a working booth link. */
/** Who looks at a booth screen: a signed-in team member whose role allows the booth (decision 61), or a booth link. */
export type BoothViewer = { kind: "member"; userId: string } | { kind: "link"; linkId: string };

/** The one answer to anyone who may not see a booth: it says nothing of whether the project exists. */
export const BOOTH_NOT_FOUND = "Page not found";

export type BoothScreen = {
  project: { id: string; title: string };
  /**
   * The project's tracked QR codes, oldest first (the default is the first), then the plain pitch address (its scans
   * count as direct, not as an event), so a booth shows a code even before the founder made a tracked one.
   */
  codes: { id: string; label: string; eventTag: string | null; url: string; svg: string }[];
  /**
   * The code the screen shows: a booth link's own (re-pointable, followed live), or for the owner's
   * screen the project's default booth code, which the owner's last choice on that device overrides.
   */
  shownCode: string;
  /** A booth link's screen shows the link's code and offers no other. */
  followsLink: boolean;
  /** The owner's time zone: the booth's "today" starts at midnight there, on every device (decision 53). */
  timeZone: string;
};

/**
 * What the booth screen shows besides its live parts, for a viewer `resolveBoothViewer` let in: the title and
 * every tracked code, drawn as on the QR codes page.
 */
export async function loadBoothScreen(db: Kysely<Database>, viewer: BoothViewer, projectId: string, publicUrl: string): Promise<BoothScreen> {
  if (!isRecordId(projectId)) throw new DomainError("not_found", BOOTH_NOT_FOUND);
  if (viewer.kind === "member") await requireProjectRole(db, viewer.userId, projectId, "booth");
  const project = await db
    .selectFrom("projects")
    .innerJoin("users", "users.id", "projects.owner_id")
    .select(["projects.id", "projects.title", "projects.slug", "users.time_zone"])
    .where("projects.id", "=", projectId)
    .executeTakeFirst();
  if (!project) throw new DomainError("not_found", BOOTH_NOT_FOUND);
  const codes = await projectCodes(db, project.id);
  const choices = [
    ...codes.map((code) => ({ id: code.id, label: code.label, eventTag: code.event_tag, url: trackedPitchUrl(publicUrl, project.slug, code.id) })),
    { id: PLAIN_PITCH_CODE, label: PLAIN_PITCH_LABEL, eventTag: null, url: untrackedPitchUrl(publicUrl, project.slug) },
  ];
  const svgs = await Promise.all(choices.map((choice) => renderQrSvg(choice.url)));
  return {
    project: { id: project.id, title: project.title },
    codes: choices.map((choice, index) => ({ ...choice, svg: svgs[index]! })),
    shownCode: await boothCodeFor(db, project.id, viewer, codes),
    followsLink: viewer.kind === "link",
    timeZone: founderTimeZone(project.time_zone),
  };
}

function projectCodes(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom("qr_codes")
    .select(["id", "label", "event_tag", "archived_at"])
    .where("project_id", "=", projectId)
    .orderBy("created_at", "asc")
    .orderBy("id")
    .execute()
    .then((rows) => rows.map(({ archived_at, ...code }) => ({ ...code, archived: archived_at !== null })));
}

/**
 * The code a booth screen shows: a link's own choice while that code exists, else the project's default booth code
 * (`defaultBoothCode`); the owner's screen starts from the default.
 */
export async function boothCodeFor(db: Kysely<Database>, projectId: string, viewer: BoothViewer, codes?: { id: string; label: string; archived: boolean }[]): Promise<string> {
  const known = codes ?? (await projectCodes(db, projectId));
  const chosen = viewer.kind === "link" ? await readBoothLinkCode(db, viewer.linkId) : null;
  if (chosen === PLAIN_PITCH_CODE || known.some((code) => code.id === chosen)) return chosen!;
  return defaultBoothCode(known);
}

/** Where the booth's "today" began: midnight on the project owner's clock (decision 53), whatever the device's zone. */
export async function boothDayStart(db: Kysely<Database>, projectId: string, now: Date): Promise<Date> {
  const owner = await db
    .selectFrom("projects")
    .innerJoin("users", "users.id", "projects.owner_id")
    .select("users.time_zone")
    .where("projects.id", "=", projectId)
    .executeTakeFirst();
  return new Date(zonedDayStart(now.getTime(), founderTimeZone(owner?.time_zone)));
}

/**
 * How many intros, signals and scan groups one read of the ticker gives at most, each: far more than happen in one
 * read's window (the few seconds since the previous read), so people's actions are never cut for scans (decision 43).
 */
export const TICKER_READ_LIMIT = 200;

/**
 * How long after it is written a form reaches the booth ticker: its browser's burst window, after which it can no
 * longer be taken back for a burst (decision 95), so a public screen never shows a form that is later held.
 */
export const TICKER_SETTLE_MS = VISITOR_FORM_LIMITS.burstPerBrowser.windowSeconds * 1000;

/** When the next form written on the project reaches the ticker (epoch ms), or null when none is on its way. */
export async function nextTickerSettle(db: Kysely<Database>, projectId: string, now = new Date()): Promise<number | null> {
  const since = new Date(now.getTime() - TICKER_SETTLE_MS).toISOString();
  const [intro, signal] = await Promise.all(
    (["intros", "signals"] as const).map((table) =>
      db.selectFrom(table).select((eb) => eb.fn.min("recorded_at").as("first")).where("project_id", "=", projectId).where("recorded_at", ">", since).executeTakeFirst(),
    ),
  );
  const firsts = [intro?.first, signal?.first].filter((value): value is string => typeof value === "string").map((value) => Date.parse(value));
  return firsts.length ? Math.min(...firsts) + TICKER_SETTLE_MS : null;
}

/**
 * What was written on the project at or after `from`, as ticker items (a form as of when it settled,
 * TICKER_SETTLE_MS after it was written), oldest first: every intro and signal (up to
 * TICKER_READ_LIMIT of each, the newest), and the scans summarised, one item per scan batch and code (a batch stamps
 * its rows with one instant), `count` its scans so far. Three reads on the `(project_id, time)` indexes; items carry
 * ids (a scan group's is its code and instant), so a reader that reads an overlapping window again can drop what it
 * already showed, or send only a group's new scans (`TickerTracker`).
 */
export async function readTickerSince(db: Kysely<Database>, projectId: string, from: string, now = new Date()): Promise<TickerItem[]> {
  // A form is on the ticker from when it settled, so the forms written then are those written one settle earlier.
  const formsFrom = new Date(Date.parse(from) - TICKER_SETTLE_MS).toISOString();
  const settledBy = new Date(now.getTime() - TICKER_SETTLE_MS).toISOString();
  const settled = (recordedAt: string) => new Date(Date.parse(recordedAt) + TICKER_SETTLE_MS).toISOString();
  const [scanGroups, intros, signals] = await Promise.all([
    db
      .selectFrom("scans")
      .leftJoin("qr_codes", "qr_codes.id", "scans.qr_code_id")
      .select((eb) => ["scans.qr_code_id", "scans.scanned_at", "qr_codes.label", "qr_codes.event_tag", eb.fn.countAll<number>().as("count")])
      .where("scans.project_id", "=", projectId)
      .where("scans.scanned_at", ">=", from)
      .groupBy(["scans.qr_code_id", "scans.scanned_at", "qr_codes.label", "qr_codes.event_tag"])
      .orderBy("scans.scanned_at", "desc")
      .limit(TICKER_READ_LIMIT)
      .execute(),
    db
      .selectFrom("intros")
      .select(["intros.id", "intros.created_at", "intros.recorded_at"])
      .where("intros.project_id", "=", projectId)
      .where("intros.recorded_at", ">=", formsFrom)
      .where("intros.recorded_at", "<=", settledBy)
      .orderBy("intros.recorded_at", "desc")
      .orderBy("intros.id", "desc")
      .limit(TICKER_READ_LIMIT)
      .execute(),
    db
      .selectFrom("signals")
      .innerJoin("contacts", "contacts.id", "signals.contact_id")
      .select(["signals.id", "signals.created_at", "signals.recorded_at", "signals.range_label", "signals.is_public", "contacts.name"])
      .where("signals.project_id", "=", projectId)
      .where("signals.recorded_at", ">=", formsFrom)
      .where("signals.recorded_at", "<=", settledBy)
      .orderBy("signals.recorded_at", "desc")
      .orderBy("signals.id", "desc")
      .limit(TICKER_READ_LIMIT)
      .execute(),
  ]);
  const written: { item: TickerItem; actedAt: string }[] = [
    ...scanGroups.map((group) => ({
      item: {
        id: `scans-${group.qr_code_id ?? "direct"}-${group.scanned_at}`,
        kind: "scan" as const,
        at: group.scanned_at,
        count: Number(group.count),
        eventLabel: group.label === null ? null : codeName(group.label, group.event_tag),
      },
      actedAt: group.scanned_at,
    })),
    ...intros.map((intro) => ({ item: { id: `intro-${intro.id}`, kind: "intro" as const, at: settled(intro.recorded_at ?? intro.created_at) }, actedAt: intro.created_at })),
    ...signals.map((signal) => ({
      item: {
        id: `signal-${signal.id}`,
        kind: "signal" as const,
        at: settled(signal.recorded_at ?? signal.created_at),
        shown: signal.is_public ? { name: shortName(signal.name), tier: signal.range_label } : null,
      },
      actedAt: signal.created_at,
    })),
  ];
  // As written (a held form accepted now shows now), then as the visitors acted.
  return written
    .sort((a, b) => a.item.at.localeCompare(b.item.at) || a.actedAt.localeCompare(b.actedAt) || a.item.id.localeCompare(b.item.id))
    .map(({ item }) => item);
}
