import type { Kysely } from "kysely";
import QRCode from "qrcode";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { onTeamOf, requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { trackedPitchUrl, untrackedPitchUrl } from "./qr-codes.server";
import { EVENT_SHEET_SIZES, PRINT_SHEET_SIZES, printSheetName, type EventSheetSize, type PrintSheetSize } from "./qr-form";
import { isRecordId } from "~/modules/http/id-shape";
import { pluralWord } from "~/modules/formats/counts";

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
const FONT = "'Helvetica Neue', Helvetica, Arial, sans-serif";

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

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A rough width of `text` in em for a Helvetica-like face (enough to wrap and shrink with a safety margin). */
export function estimateEm(text: string, bold = false): number {
  let em = 0;
  for (const char of text) {
    if (/[iljI.,:;'|!]/.test(char)) em += 0.28;
    else if (/[ftr()\-\s/]/.test(char)) em += 0.36;
    else if (/[mwMW@%]/.test(char)) em += 0.86;
    else if (/[A-Z0-9#&?=_]/.test(char)) em += 0.68;
    else em += 0.56;
  }
  return em * (bold ? 1.06 : 1);
}

/** Splits `text` into at most `maxLines` lines that fit `width` at `fontSize`; the last line is cut with an ellipsis. */
function wrap(text: string, width: number, fontSize: number, maxLines: number, bold: boolean): { lines: string[]; fits: boolean } {
  const fits = (line: string) => estimateEm(line, bold) * fontSize <= width;
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = "";
  let next = 0;
  while (next < words.length && lines.length < maxLines) {
    const candidate = current ? `${current} ${words[next]}` : words[next]!;
    if (!current || fits(candidate)) {
      current = candidate;
      next += 1;
    } else {
      lines.push(current);
      current = "";
    }
  }
  if (current) lines.push(current);
  if (next >= words.length && lines.every(fits)) return { lines, fits: true };
  // Too long: the rest joins the last line, which is cut until it fits with an ellipsis.
  let last = [lines.pop() ?? "", ...words.slice(next)].join(" ");
  while (last.length > 1 && !fits(`${last}…`)) last = last.slice(0, -1);
  lines.push(`${last.trimEnd()}…`);
  return { lines, fits: false };
}

/** The largest of `sizes` at which `text` fits in `maxLines` lines, else the smallest, cut. */
function fitText(text: string, width: number, sizes: readonly number[], maxLines: number, bold: boolean): { lines: string[]; fontSize: number } {
  for (const fontSize of sizes) {
    const result = wrap(text, width, fontSize, maxLines, bold);
    if (result.fits) return { lines: result.lines, fontSize };
  }
  const fontSize = sizes[sizes.length - 1]!;
  return { lines: wrap(text, width, fontSize, maxLines, bold).lines, fontSize };
}

/** A long address is split (at a slash, a hyphen or anywhere) rather than cut: it must stay typeable. */
function splitUrl(url: string, width: number, fontSize: number): string[] {
  if (estimateEm(url) * fontSize <= width) return [url];
  let cut = url.length;
  while (cut > 1 && estimateEm(url.slice(0, cut)) * fontSize > width) cut -= 1;
  const breakAt = Math.max(url.lastIndexOf("/", cut), url.lastIndexOf("-", cut - 1) + 1, url.lastIndexOf("?", cut));
  const at = breakAt > url.length / 3 ? breakAt : cut;
  return [url.slice(0, at), url.slice(at)];
}

/** The `qrcode` package's SVG (vector paths, error correction H), placed as a nested `<svg>` at x, y, size mm. */
async function qrSymbol(url: string, x: number, y: number, size: number): Promise<string> {
  const markup = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "H", margin: 0, color: { dark: "#000000", light: "#ffffff" } });
  const viewBox = /viewBox="([^"]+)"/.exec(markup)?.[1];
  const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(markup)?.[1];
  if (!viewBox || !inner) throw new Error("unexpected SVG from qrcode");
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${viewBox}" shape-rendering="crispEdges">${inner}</svg>`;
}

function text(x: number, y: number, content: string, attributes: string): string {
  return `<text x="${x}" y="${y}" text-anchor="middle" ${attributes}>${escapeXml(content)}</text>`;
}

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

function round(value: number): number {
  return Math.round(value * 100) / 100;
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
  if (!isRecordId(projectId) || !isRecordId(qrCodeId)) throw new DomainError("not_found", "QR code not found");
  const code = await db
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["qr_codes.id", "qr_codes.label", "qr_codes.event_tag", "projects.slug", "projects.title"])
    .where("qr_codes.id", "=", qrCodeId)
    .where("projects.id", "=", projectId)
    .where(onTeamOf(ownerId))
    .executeTakeFirst();
  if (!code) throw new DomainError("not_found", "QR code not found");
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

/**
 * One sheet for the whole event (issue 30 item 3, decision 64): every chosen code of a project on A4 or US Letter
 * pages, six to a page (two columns, three rows), each cell with the project's title, the code, its label, its event
 * tag and the address; dashed cell borders and crop marks in the margins to cut along. More than six codes make
 * more pages, each its own SVG document at actual size.
 */
export const EVENT_SHEET_PAGES = { a4: { width: 210, height: 297 }, letter: { width: 215.9, height: 279.4 } } as const;
const SHEET_COLUMNS = 2;
const SHEET_ROWS = 3;
export const CODES_PER_SHEET = SHEET_COLUMNS * SHEET_ROWS;
const SHEET_MARGIN = 12;

export type EventSheetCode = { label: string; eventTag: string | null; url: string };

export function parseEventSheetSize(value: string | null): EventSheetSize {
  if (value === null || value === "") return "a4";
  const size = value.toLowerCase();
  if ((EVENT_SHEET_SIZES as readonly string[]).includes(size)) return size as EventSheetSize;
  throw new DomainError("invalid_input", "size must be a4 or letter");
}

/**
 * One cell of the event sheet, drawn at the origin, `width` x `height` mm: the code with a quiet zone of at least
 * 7 mm above and beside it (a phone finds a code by the white around it), then its label, event tag and the address.
 */
async function sheetCell(code: EventSheetCode, shortUrl: string, width: number, height: number): Promise<string> {
  const centre = width / 2;
  const inner = width - 10;
  const qrTop = 7;
  const qrSize = round(Math.min(width - 24, height - 30));
  const parts: string[] = [await qrSymbol(code.url, round((width - qrSize) / 2), qrTop, qrSize)];
  let baseline = qrTop + qrSize + 9.5;
  const label = fitText(code.label, inner, [4.6, 3.8], 1, true);
  parts.push(text(centre, round(baseline), label.lines[0] ?? "", `font-size="${label.fontSize}" font-weight="700" fill="#0f172a"`));
  if (code.eventTag) {
    baseline += 4.8;
    const tag = fitText(code.eventTag, inner, [3.2, 2.8], 1, false);
    parts.push(text(centre, round(baseline), tag.lines[0] ?? "", `font-size="${tag.fontSize}" font-weight="600" fill="#4f46e5"`));
  }
  const urlSize = estimateEm(shortUrl) * 2.8 <= inner ? 2.8 : 2.3;
  parts.push(text(centre, round(Math.max(baseline + 5, height - 3.5)), splitUrl(shortUrl, inner, urlSize)[0] ?? "", `font-size="${urlSize}" fill="#475569"`));
  return parts.join("");
}

/** Crop marks in the margins at every cut line: the grid's outer edges and the lines between cells. */
function gridCropMarks(page: { width: number; height: number }, xs: number[], ys: number[]): string {
  const length = 6;
  const gap = 2;
  const top = ys[0]!;
  const bottom = ys[ys.length - 1]!;
  const left = xs[0]!;
  const right = xs[xs.length - 1]!;
  const d = [
    ...xs.map((x) => `M${round(x)} ${round(top - gap)}v${-length}M${round(x)} ${round(bottom + gap)}v${length}`),
    ...ys.map((y) => `M${round(left - gap)} ${round(y)}h${-length}M${round(right + gap)} ${round(y)}h${length}`),
  ].join("");
  return `<path d="${d}" stroke="#334155" stroke-width="0.25" fill="none"/>`;
}

/** The event sheet's pages: SVG documents in mm, six codes each, in the order given. */
export async function buildEventSheet(input: { title: string; codes: EventSheetCode[]; shortUrl: string; size: EventSheetSize }): Promise<string[]> {
  const page = EVENT_SHEET_PAGES[input.size];
  const cellWidth = round((page.width - 2 * SHEET_MARGIN) / SHEET_COLUMNS);
  const cellHeight = round((page.height - 2 * SHEET_MARGIN) / SHEET_ROWS);
  const xs = Array.from({ length: SHEET_COLUMNS + 1 }, (_, index) => round(SHEET_MARGIN + index * cellWidth));
  const ys = Array.from({ length: SHEET_ROWS + 1 }, (_, index) => round(SHEET_MARGIN + index * cellHeight));
  const pageCount = Math.max(1, Math.ceil(input.codes.length / CODES_PER_SHEET));
  const pages: string[] = [];
  for (let pageIndex = 0; pageIndex < pageCount; pageIndex += 1) {
    const codes = input.codes.slice(pageIndex * CODES_PER_SHEET, (pageIndex + 1) * CODES_PER_SHEET);
    const heading = `${input.title}: ${codes.length} QR ${pluralWord(codes.length, "code")}${pageCount > 1 ? `, page ${pageIndex + 1} of ${pageCount}` : ""}`;
    const cells = await Promise.all(
      codes.map(async (code, index) => {
        const x = xs[index % SHEET_COLUMNS]!;
        const y = ys[Math.floor(index / SHEET_COLUMNS)]!;
        const border = `<rect class="cell" x="${x}" y="${y}" width="${cellWidth}" height="${cellHeight}" fill="none" stroke="#cbd5e1" stroke-width="0.2" stroke-dasharray="1.5 1.5"/>`;
        return `${border}<g transform="translate(${x} ${y})" aria-label="${escapeXml(code.label)}">${await sheetCell(code, input.shortUrl, cellWidth, cellHeight)}</g>`;
      }),
    );
    const note = `${input.title}: print at 100% (actual size), then cut along the marks.${pageCount > 1 ? ` Page ${pageIndex + 1} of ${pageCount}.` : ""}`;
    pages.push(
      [
        `<svg xmlns="http://www.w3.org/2000/svg" width="${page.width}mm" height="${page.height}mm" viewBox="0 0 ${page.width} ${page.height}" font-family="${FONT}" role="img" aria-label="${escapeXml(heading)}">`,
        `<title>${escapeXml(heading)}</title>`,
        `<rect width="${page.width}" height="${page.height}" fill="#ffffff"/>`,
        text(page.width / 2, 5.5, fitText(note, page.width - 10, [2.8, 2.4], 1, false).lines[0] ?? "", `font-size="2.8" fill="#475569"`),
        gridCropMarks(page, xs.slice(0, Math.min(codes.length, SHEET_COLUMNS) + 1), ys.slice(0, Math.ceil(codes.length / SHEET_COLUMNS) + 1)),
        ...cells,
        "</svg>\n",
      ].join(""),
    );
  }
  return pages;
}

export type EventSheet = {
  project: { id: string; title: string; slug: string };
  /** The member's role, for the section tabs (decision 61). */
  projectRole: ProjectRole;
  size: EventSheetSize;
  /** Every code of the project, active first, each with whether it is on the sheet. */
  codes: { id: string; label: string; eventTag: string | null; archived: boolean; chosen: boolean }[];
  /** One SVG document per page (empty when no code is chosen). */
  pages: string[];
};

/**
 * The print page's event sheet: the owner's project (anyone else: 'not found or access denied'), the codes chosen by
 * id (unknown ids and other projects' codes are ignored), or, when none are named, every active code.
 */
export async function loadEventSheet(
  db: Kysely<Database>,
  ownerId: string,
  publicUrl: string,
  projectId: string,
  chosenIds: readonly string[] | null,
  size: EventSheetSize,
): Promise<EventSheet> {
  const project = await requireProjectRole(db, ownerId, projectId, "view");
  const rows = await db
    .selectFrom("qr_codes")
    .select(["id", "label", "event_tag", "archived_at"])
    .where("project_id", "=", project.id)
    .orderBy("created_at", "asc")
    .orderBy("id")
    .execute();
  const ordered = [...rows.filter((row) => row.archived_at === null), ...rows.filter((row) => row.archived_at !== null)];
  const chosen = new Set(chosenIds ?? ordered.filter((row) => row.archived_at === null).map((row) => row.id));
  const onSheet = ordered.filter((row) => chosen.has(row.id));
  const pages = onSheet.length
    ? await buildEventSheet({
        title: project.title,
        codes: onSheet.map((row) => ({ label: row.label, eventTag: row.event_tag, url: trackedPitchUrl(publicUrl, project.slug, row.id) })),
        shortUrl: shortPitchAddress(publicUrl, project.slug),
        size,
      })
    : [];
  return {
    project: { id: project.id, title: project.title, slug: project.slug },
    projectRole: project.role,
    size,
    codes: ordered.map((row) => ({ id: row.id, label: row.label, eventTag: row.event_tag, archived: row.archived_at !== null, chosen: chosen.has(row.id) })),
    pages,
  };
}
