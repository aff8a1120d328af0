import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { findTeamCode, trackedPitchUrl, untrackedPitchUrl } from "./qr-codes.server";
import { PRINT_SHEET_SIZES, printSheetName, type PrintSheetSize } from "./qr-form";
import { isRecordId } from "~/modules/http/id-shape";
import { escapeXml, estimateEm, fitText, FONT, qrSymbol, round, splitUrl, text } from "./sheet-drawing.server";

/**
 * Print sheets (decision 11): one vector page per tracked QR code, for a booth table, a badge or a flyer.
 * An A6 card (105 x 148 mm) with the project title, a 66 mm code (about 1.6 mm a module for a typical URL,
 * which phones read from a metre away), the code's label and event tag, and the pitch address to type by
 * hand. `letter` puts the same card in the middle of a US Letter page with cut marks, so it prints at
 * actual size on the paper most North American printers hold (and on A4, whose page it also fits).
 */

export const CARD = { width: 105, height: 148 } as const;
const LETTER = { width: 215.9, height: 279.4 } as const;
const QR_SIZE = 66;
const QR_TOP = 46;
const MARGIN = 8;

export type PrintSheetInput = {
  title: string;
  label: string;
  eventTag: string | null;
  /** What the code encodes: the tracked pitch URL. */
  url: string;
  /** The address printed under the code for typing by hand (no scheme). */
  shortUrl: string;
  size: PrintSheetSize;
};

export type PrintSheet = { svg: string; fileName: string; url: string; label: string; title: string };

/** The A6 card's contents, in mm, drawn at the origin. */
async function card(input: PrintSheetInput): Promise<string> {
  const centre = CARD.width / 2;
  const inner = CARD.width - 2 * MARGIN;
  const parts: string[] = [];

  // Header band with the project title (up to two lines, shrunk to fit).
  const headerHeight = 31;
  parts.push(`<rect width="${CARD.width}" height="${headerHeight}" fill="url(#band)"/>`);
  const title = fitText(input.title, inner, [7, 6, 5.2], 2, true);
  const lineHeight = title.fontSize * 1.18;
  const firstBaseline = headerHeight / 2 - ((title.lines.length - 1) * lineHeight) / 2 + title.fontSize * 0.36;
  title.lines.forEach((line, index) => {
    parts.push(text(centre, round(firstBaseline + index * lineHeight), line, `font-size="${title.fontSize}" font-weight="700" fill="#ffffff"`));
  });

  parts.push(text(centre, 39.5, "Scan to see our pitch", `font-size="4" font-weight="600" fill="#334155"`));
  parts.push(await qrSymbol(input.url, (CARD.width - QR_SIZE) / 2, QR_TOP, QR_SIZE));

  // The code's label, its event tag and the address, under the code.
  let baseline = QR_TOP + QR_SIZE + 12;
  const label = fitText(input.label, inner, [5.2, 4.4], 2, true);
  label.lines.forEach((line, index) => {
    if (index) baseline += label.fontSize * 1.2;
    parts.push(text(centre, round(baseline), line, `font-size="${label.fontSize}" font-weight="700" fill="#0f172a"`));
  });
  if (input.eventTag) {
    baseline += 6.2;
    const tag = fitText(input.eventTag, inner, [3.8, 3.2], 1, false);
    parts.push(text(centre, baseline, tag.lines[0] ?? "", `font-size="${tag.fontSize}" font-weight="600" fill="#4f46e5"`));
  }
  const urlSize = estimateEm(input.shortUrl) * 3.4 <= inner ? 3.4 : 2.8;
  const urlLines = splitUrl(input.shortUrl, inner, urlSize);
  baseline = Math.max(baseline + 7, CARD.height - 7 - (urlLines.length - 1) * urlSize * 1.25);
  urlLines.forEach((line, index) => {
    parts.push(text(centre, round(baseline + index * urlSize * 1.25), line, `font-size="${urlSize}" fill="#475569" letter-spacing="0.05"`));
  });
  return parts.join("");
}

/** Corner cut marks just outside a card at (x, y). */
function cutMarks(x: number, y: number): string {
  const gap = 2;
  const length = 6;
  const corners = [
    [x, y, -1, -1],
    [x + CARD.width, y, 1, -1],
    [x, y + CARD.height, -1, 1],
    [x + CARD.width, y + CARD.height, 1, 1],
  ] as const;
  const d = corners
    .map(([cx, cy, dx, dy]) => `M${round(cx + dx * gap)} ${round(cy)}h${dx * length}M${round(cx)} ${round(cy + dy * gap)}v${dy * length}`)
    .join("");
  return `<path d="${d}" stroke="#64748b" stroke-width="0.25" fill="none"/>`;
}

/** The print sheet's SVG document: width and height in mm, text in a generic sans-serif face. */
export async function buildPrintSheet(input: PrintSheetInput): Promise<string> {
  const page = input.size === "letter" ? LETTER : CARD;
  const defs = `<defs><linearGradient id="band" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4f46e5"/><stop offset="0.6" stop-color="#7c3aed"/><stop offset="1" stop-color="#a21caf"/></linearGradient></defs>`;
  const body = await card(input);
  const heading = `${input.title}: QR code for ${input.label}`;
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${page.width}mm" height="${page.height}mm" viewBox="0 0 ${page.width} ${page.height}" font-family="${FONT}" role="img" aria-label="${escapeXml(heading)}">`;
  const background = `<rect width="${page.width}" height="${page.height}" fill="#ffffff"/>`;
  if (input.size === "a6") return `${open}<title>${escapeXml(heading)}</title>${defs}${background}${body}</svg>\n`;

  const x = round((LETTER.width - CARD.width) / 2);
  const y = round((LETTER.height - CARD.height) / 2);
  const note = `Print at 100% (actual size), then cut along the marks: an A6 card, 105 × 148 mm.`;
  return [
    open,
    `<title>${escapeXml(heading)}</title>`,
    defs,
    background,
    text(LETTER.width / 2, y - 14, note, `font-size="3.4" fill="#64748b"`),
    cutMarks(x, y),
    `<rect x="${x}" y="${y}" width="${CARD.width}" height="${CARD.height}" fill="none" stroke="#e2e8f0" stroke-width="0.2"/>`,
    `<g transform="translate(${x} ${y})">${body}</g>`,
    "</svg>\n",
  ].join("");
}

/** The address printed under the code: the pitch page without its scheme or the tracking parameter. */
export function shortPitchAddress(publicUrl: string, slug: string): string {
  return untrackedPitchUrl(publicUrl, slug).replace(/^https?:\/\//, "").replace(/^www\./, "");
}

export function parsePrintSheetSize(value: string | null): PrintSheetSize {
  if (value === null || value === "") return "a6";
  const size = value.toLowerCase();
  if ((PRINT_SHEET_SIZES as readonly string[]).includes(size)) return size as PrintSheetSize;
  throw new DomainError("invalid_input", "size must be a6 or letter");
}

/** One of the owner's codes as a print sheet; anyone else's code (or a missing one) is not found. */
export async function renderPrintSheet(
  db: Kysely<Database>,
  ownerId: string,
  publicUrl: string,
  projectId: string,
  qrCodeId: string,
  size: PrintSheetSize,
): Promise<PrintSheet> {
  if (!isRecordId(projectId)) throw new DomainError("not_found", "QR code not found");
  const code = await findTeamCode(db, ownerId, qrCodeId, { id: projectId });
  const url = trackedPitchUrl(publicUrl, code.slug, code.id);
  const svg = await buildPrintSheet({
    title: code.title,
    label: code.label,
    eventTag: code.event_tag,
    url,
    shortUrl: shortPitchAddress(publicUrl, code.slug),
    size,
  });
  return { svg, url, fileName: printSheetName(code.slug, code.label, size), label: code.label, title: code.title };
}

/**
 * The print page's sheet: someone else's (or a missing) project reads as the project-level 'not found or access
 * denied', like every other project page; a missing code in the owner's project as 'QR code not found'.
 */
export async function loadPrintPageSheet(
  db: Kysely<Database>,
  ownerId: string,
  publicUrl: string,
  projectId: string,
  qrCodeId: string,
  size: PrintSheetSize,
): Promise<PrintSheet & { role: ProjectRole }> {
  const { role } = await requireProjectRole(db, ownerId, projectId, "view");
  return { ...(await renderPrintSheet(db, ownerId, publicUrl, projectId, qrCodeId, size)), role };
}
