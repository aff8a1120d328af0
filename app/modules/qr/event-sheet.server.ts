import type { Kysely } from "kysely";
import { pluralWord } from "~/modules/formats/counts";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { trackedPitchUrl } from "./qr-codes.server";
import { EVENT_SHEET_SIZES, type EventSheetSize } from "./qr-form";
import { shortPitchAddress } from "./print-sheet.server";
import { escapeXml, estimateEm, fitText, FONT, qrSymbol, round, splitUrl, text } from "./sheet-drawing.server";

/**
 * One sheet for the whole event (decision 64): every chosen code of a project on A4 or US Letter
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
