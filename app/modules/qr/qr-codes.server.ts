import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { readCodeCountsHere, type CodeCounts } from "./code-counts.server";
import QRCode from "qrcode";
import { isUniqueViolation } from "~/db/normalize.server";
import type { Database, QrCode } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { findProjectAccess, onTeamOf, requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { listTeamProjects } from "~/modules/projects/founder-projects.server";
import {
  DUPLICATE_LABEL,
  EVENT_END_BEFORE_CREATION,
  REPOINT_DRAFT,
  REPOINT_NOT_YOURS,
  REPOINT_SAME,
  sameLabel,
  type QrCodeEventEndInput,
  type QrCodeFormInput,
  type RepointQrCodeInput,
} from "./qr-form";
import { isRecordId } from "~/modules/http/id-shape";
import { homeProjectOf, moveCode } from "./qr-code-moves.server";
import { renderQrPng } from "./qr-png.server";
import { founderTimeZone } from "~/modules/time/founder-zone";
import { zonedCalendarDay } from "~/modules/time/zoned-slots";

const CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A short, unambiguous code (no 0/o, 1/l), so the printed symbol stays small and scans from afar. */
export function newQrCodeId(length = 8): string {
  const bytes = crypto.randomBytes(length);
  return Array.from(bytes, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join("");
}

/** What every printed code encodes. */
export function trackedPitchUrl(publicUrl: string, slug: string, qrCodeId: string): string {
  return `${publicUrl}/pitch/${encodeURIComponent(slug)}?qr=${encodeURIComponent(qrCodeId)}`;
}

export function untrackedPitchUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/pitch/${encodeURIComponent(slug)}`;
}

const labelTaken = () => new DomainError("conflict", DUPLICATE_LABEL, { label: DUPLICATE_LABEL });

/**
 * Labels are unique per project, trimmed and case-insensitively (decision "qr-labels-and-workspace"): the check
 * folds case in JavaScript (Unicode, the same on both databases); the `(project_id, lower(label))` index catches
 * two founders' tabs racing, and its violation becomes the same message.
 */
export async function createQrCode(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  input: Omit<QrCodeFormInput, "eventEndsOn"> & { eventEndsOn?: string | null },
  now = new Date(),
): Promise<QrCode> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  const label = input.label.trim();
  const createdAt = now.toISOString();
  const eventEndsOn = input.eventEndsOn ?? null;
  if (eventEndsOn !== null && eventEndsOn < createdAt.slice(0, 10)) throw endBeforeCreation();
  const existing = await db.selectFrom("qr_codes").select("label").where("project_id", "=", projectId).execute();
  if (existing.some((code) => sameLabel(code.label, label))) throw labelTaken();
  const row = { id: newQrCodeId(), project_id: projectId, label, event_tag: input.eventTag, event_ends_on: eventEndsOn, created_at: createdAt };
  try {
    await db.insertInto("qr_codes").values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw labelTaken();
    throw error;
  }
  return db.selectFrom("qr_codes").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
}

/** The project's codes, newest first (edit screen), or by most scans (analytics). */
export async function listQrCodes(db: Kysely<Database>, ownerId: string, projectId: string, order: "newest" | "most-scanned" = "newest"): Promise<QrCode[]> {
  await requireProjectRole(db, ownerId, projectId, "view");
  const query = db.selectFrom("qr_codes").selectAll().where("project_id", "=", projectId);
  return (order === "newest" ? query.orderBy("created_at", "desc") : query.orderBy("total_scans", "desc").orderBy("created_at", "desc")).orderBy("id").execute();
}

export async function deleteQrCode(db: Kysely<Database>, ownerId: string, projectId: string, qrCodeId: string): Promise<void> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  if (!isRecordId(qrCodeId)) throw new DomainError("not_found", "QR code not found");
  const deleted = await db.deleteFrom("qr_codes").where("id", "=", qrCodeId).where("project_id", "=", projectId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new DomainError("not_found", "QR code not found");
}

const codeNotFound = () => new DomainError("not_found", "QR code not found");
const endBeforeCreation = () => new DomainError("invalid_input", EVENT_END_BEFORE_CREATION, { eventEndsOn: EVENT_END_BEFORE_CREATION });

/** One of the project's codes, for a write on it; another project's (or a missing) code is not found. */
async function ownCode(db: Kysely<Database>, projectId: string, qrCodeId: string): Promise<QrCode> {
  if (!isRecordId(qrCodeId)) throw codeNotFound();
  const code = await db.selectFrom("qr_codes").selectAll().where("id", "=", qrCodeId).where("project_id", "=", projectId).executeTakeFirst();
  if (!code) throw codeNotFound();
  return code;
}

/**
 * Archive (decision 64): the code leaves the active list for the Archived one, keeping its
 * numbers; a printed copy still opens the pitch and counts. Restore brings it back. Both are idempotent.
 */
export async function setQrCodeArchived(db: Kysely<Database>, ownerId: string, projectId: string, qrCodeId: string, archived: boolean, now = new Date()): Promise<void> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  const code = await ownCode(db, projectId, qrCodeId);
  if ((code.archived_at !== null) === archived) return;
  await db
    .updateTable("qr_codes")
    .set({ archived_at: archived ? now.toISOString() : null })
    .where("id", "=", code.id)
    .where("project_id", "=", projectId)
    .execute();
}

/** The event's last day, set or cleared; a day before the code was made is refused, nothing changed. */
export async function setQrCodeEventEnd(db: Kysely<Database>, ownerId: string, projectId: string, input: QrCodeEventEndInput): Promise<void> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  const code = await ownCode(db, projectId, input.qrCodeId);
  if (input.eventEndsOn !== null && input.eventEndsOn < String(code.created_at).slice(0, 10)) throw endBeforeCreation();
  await db.updateTable("qr_codes").set({ event_ends_on: input.eventEndsOn }).where("id", "=", code.id).where("project_id", "=", projectId).execute();
}

const repointRefused = (message: string) => new DomainError("invalid_input", message, { targetProjectId: message });

/**
 * Re-points a printed code to another published project (decisions 64 and 79): the code, its label and numbers
 * move, so its printed copies open that pitch and new scans count there; the scans it counted stay with this
 * project (each scan row keeps its project), which still names the code for them through `qr_code_moves`. It needs
 * the role that owns both ends: the member must own this project and the target; or the target is the project the
 * code was made in and they own that one (its owner may always bring it back). Anything else, a draft, the same
 * project or a label the target already has is refused, nothing changed.
 */
export async function repointQrCode(db: Kysely<Database>, userId: string, projectId: string, input: RepointQrCodeInput, now = new Date()): Promise<{ slug: string; title: string }> {
  const here = await requireProjectRole(db, userId, projectId, "edit");
  const code = await ownCode(db, projectId, input.qrCodeId);
  if (input.targetProjectId === projectId) throw repointRefused(REPOINT_SAME);
  const target = await findProjectAccess(db, userId, input.targetProjectId);
  const movingBack = target !== null && target.id === (await homeProjectOf(db, code));
  if (!target || target.role !== "owner" || (here.role !== "owner" && !movingBack)) throw repointRefused(REPOINT_NOT_YOURS);
  if (target.status !== "published") throw repointRefused(REPOINT_DRAFT);
  const labels = await db.selectFrom("qr_codes").select("label").where("project_id", "=", target.id).execute();
  const clash = () => new DomainError("conflict", `${target.title} already has a QR code labelled “${code.label}”: rename one of them first`, { targetProjectId: `${target.title} already has a QR code with this label` });
  if (labels.some((other) => sameLabel(other.label, code.label))) throw clash();
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await moveCode(trx, code, projectId, target.id, now))) throw codeNotFound();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw clash();
    throw error;
  }
  return { slug: target.slug, title: target.title };
}

/** The library fits whole pixels per module inside `width`; 1200 keeps every symbol of our URLs at 1024 px or more. */
const PNG_WIDTH = 1200;

/**
 * One of the codes of a project (by its id or its slug) whose team `memberId` is on, with the project's slug and
 * title; a code of anyone else's project, or of another project, is 'QR code not found'.
 */
export async function findTeamCode(db: Kysely<Database>, memberId: string, qrCodeId: string, project: { id: string } | { slug: string }) {
  if (!isRecordId(qrCodeId)) throw new DomainError("not_found", "QR code not found");
  const code = await db
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["qr_codes.id", "qr_codes.label", "qr_codes.event_tag", "projects.slug", "projects.title"])
    .where("qr_codes.id", "=", qrCodeId)
    .where((eb) => ("id" in project ? eb("projects.id", "=", project.id) : eb("projects.slug", "=", project.slug)))
    .where(onTeamOf(memberId))
    .executeTakeFirst();
  if (!code) throw new DomainError("not_found", "QR code not found");
  return code;
}

export type QrImages = { url: string; label: string; slug: string; png: Buffer; svg: string };

/**
 * The printable images of one of the owner's codes: a 1024 px PNG and an SVG, highest error correction,
 * both encoding the tracked pitch URL.
 */
export async function renderQrImages(db: Kysely<Database>, ownerId: string, publicUrl: string, slug: string, qrCodeId: string): Promise<QrImages> {
  const code = await findTeamCode(db, ownerId, qrCodeId, { slug });
  const url = trackedPitchUrl(publicUrl, code.slug, code.id);
  const options = { errorCorrectionLevel: "H" as const, margin: 4 };
  const [png, svg] = await Promise.all([renderQrPng(url, { ...options, maxWidth: PNG_WIDTH }), QRCode.toString(url, { ...options, type: "svg" })]);
  return { url, label: code.label, slug: code.slug, png, svg };
}

/** SVG markup of a code for `url`, as the QR codes section shows it (the pitch URL's code and each tracked code). */
export function renderQrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "H", margin: 2 });
}

export type QrCodesSection = {
  project: Pick<QrCode, "id"> & { title: string; slug: string; status: string; role: ProjectRole };
  pitchUrl: string;
  pitchQrSvg: string;
  /** Newest first, each with the URL it encodes and its image; archived ones too (`archived_at`). */
  codes: (QrCode & { url: string; svg: string; here: CodeCounts; scansElsewhere: number })[];
  /** The founder's other published projects, where a code can be re-pointed: those they own, when they own this one. */
  repointTargets: { id: string; title: string }[];
  /** Today in the founder's zone (`YYYY-MM-DD`): an event whose last day is before it has ended. */
  today: string;
};

/** Everything the project's QR codes section shows: the pitch URL's code and every tracked code with its image. */
export async function loadQrCodesSection(db: Kysely<Database>, userId: string, projectId: string, publicUrl: string, now = new Date()): Promise<QrCodesSection> {
  const project = await requireProjectRole(db, userId, projectId, "view");
  const [codes, teamProjects, owner] = await Promise.all([
    listQrCodes(db, userId, projectId),
    listTeamProjects(db, userId),
    db.selectFrom("users").select("time_zone").where("id", "=", project.owner_id).executeTakeFirst(),
  ]);
  // A code moves only between projects the member owns both of (decision 79); bringing one home is per code.
  const owned = project.role === "owner" ? teamProjects.filter((other) => other.role === "owner") : [];
  const pitchUrl = untrackedPitchUrl(publicUrl, project.slug);
  const countsHere = await readCodeCountsHere(db, project.id, codes.map((code) => code.id));
  const [pitchQrSvg, ...svgs] = await Promise.all([
    renderQrSvg(pitchUrl),
    ...codes.map((code) => renderQrSvg(trackedPitchUrl(publicUrl, project.slug, code.id))),
  ]);
  return {
    project,
    pitchUrl,
    pitchQrSvg: pitchQrSvg!,
    codes: codes.map((code, index) => {
      const here = countsHere.get(code.id) ?? { scans: 0, viewers: 0 };
      // A code re-pointed here brought scans to the project it opened before: shown apart, never as this one's.
      return { ...code, url: trackedPitchUrl(publicUrl, project.slug, code.id), svg: svgs[index]!, here, scansElsewhere: Math.max(0, Number(code.total_scans) - here.scans) };
    }),
    today: zonedCalendarDay(now, founderTimeZone(owner?.time_zone ?? null)),
    repointTargets: owned.filter((other) => other.id !== project.id && other.status === "published").map((other) => ({ id: other.id, title: other.title })),
  };
}
