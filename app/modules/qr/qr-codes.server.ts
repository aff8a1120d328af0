import crypto from "node:crypto";
import type { Kysely } from "kysely";
import QRCode from "qrcode";
import { isUniqueViolation } from "~/db/normalize.server";
import type { Database, QrCode } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { onTeamOf, requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { DUPLICATE_LABEL, sameLabel, type QrCodeFormInput } from "./qr-form";
import { isRecordId } from "~/modules/http/id-shape";
import { renderQrPng } from "./qr-png.server";

const CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A short, unambiguous code (no 0/o, 1/l), so the printed symbol stays small and scans from afar. */
export function newQrCodeId(length = 8): string {
  const bytes = crypto.randomBytes(length);
  return Array.from(bytes, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join("");
}

/** DESIGN.md item 11: what every printed code encodes. */
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
export async function createQrCode(db: Kysely<Database>, ownerId: string, projectId: string, input: QrCodeFormInput): Promise<QrCode> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  const label = input.label.trim();
  const existing = await db.selectFrom("qr_codes").select("label").where("project_id", "=", projectId).execute();
  if (existing.some((code) => sameLabel(code.label, label))) throw labelTaken();
  const row = { id: newQrCodeId(), project_id: projectId, label, event_tag: input.eventTag, created_at: new Date().toISOString() };
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

/** The library fits whole pixels per module inside `width`; 1200 keeps every symbol of our URLs at 1024 px or more. */
const PNG_WIDTH = 1200;

export type QrImages = { url: string; label: string; slug: string; png: Buffer; svg: string };

/**
 * The printable images of one of the owner's codes: a 1024 px PNG and an SVG, highest error correction,
 * both encoding the tracked pitch URL.
 */
export async function renderQrImages(db: Kysely<Database>, ownerId: string, publicUrl: string, slug: string, qrCodeId: string): Promise<QrImages> {
  if (!isRecordId(qrCodeId)) throw new DomainError("not_found", "QR code not found");
  const code = await db
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["qr_codes.id", "qr_codes.label", "projects.slug"])
    .where("qr_codes.id", "=", qrCodeId)
    .where("projects.slug", "=", slug)
    .where(onTeamOf(ownerId))
    .executeTakeFirst();
  if (!code) throw new DomainError("not_found", "QR code not found");
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
  /** Newest first, each with the URL it encodes and its image. */
  codes: (QrCode & { url: string; svg: string })[];
};

/** Everything the project's QR codes section shows: the pitch URL's code and every tracked code with its image. */
export async function loadQrCodesSection(db: Kysely<Database>, ownerId: string, projectId: string, publicUrl: string): Promise<QrCodesSection> {
  const project = await requireProjectRole(db, ownerId, projectId, "view");
  const codes = await listQrCodes(db, ownerId, projectId);
  const pitchUrl = untrackedPitchUrl(publicUrl, project.slug);
  const [pitchQrSvg, ...svgs] = await Promise.all([
    renderQrSvg(pitchUrl),
    ...codes.map((code) => renderQrSvg(trackedPitchUrl(publicUrl, project.slug, code.id))),
  ]);
  return {
    project,
    pitchUrl,
    pitchQrSvg: pitchQrSvg!,
    codes: codes.map((code, index) => ({ ...code, url: trackedPitchUrl(publicUrl, project.slug, code.id), svg: svgs[index]! })),
  };
}
