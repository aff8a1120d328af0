import QRCode from "qrcode";

// What the print sheets are drawn with: SVG text that fits a width, a QR code as vector paths, lengths in mm.

export const FONT = "'Helvetica Neue', Helvetica, Arial, sans-serif";

export function escapeXml(text: string): string {
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
export function fitText(text: string, width: number, sizes: readonly number[], maxLines: number, bold: boolean): { lines: string[]; fontSize: number } {
  for (const fontSize of sizes) {
    const result = wrap(text, width, fontSize, maxLines, bold);
    if (result.fits) return { lines: result.lines, fontSize };
  }
  const fontSize = sizes[sizes.length - 1]!;
  return { lines: wrap(text, width, fontSize, maxLines, bold).lines, fontSize };
}

/** A long address is split (at a slash, a hyphen or anywhere) rather than cut: it must stay typeable. */
export function splitUrl(url: string, width: number, fontSize: number): string[] {
  if (estimateEm(url) * fontSize <= width) return [url];
  let cut = url.length;
  while (cut > 1 && estimateEm(url.slice(0, cut)) * fontSize > width) cut -= 1;
  const breakAt = Math.max(url.lastIndexOf("/", cut), url.lastIndexOf("-", cut - 1) + 1, url.lastIndexOf("?", cut));
  const at = breakAt > url.length / 3 ? breakAt : cut;
  return [url.slice(0, at), url.slice(at)];
}

/** The `qrcode` package's SVG (vector paths, error correction H), placed as a nested `<svg>` at x, y, size mm. */
export async function qrSymbol(url: string, x: number, y: number, size: number): Promise<string> {
  const markup = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "H", margin: 0, color: { dark: "#000000", light: "#ffffff" } });
  const viewBox = /viewBox="([^"]+)"/.exec(markup)?.[1];
  const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(markup)?.[1];
  if (!viewBox || !inner) throw new Error("unexpected SVG from qrcode");
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${viewBox}" shape-rendering="crispEdges">${inner}</svg>`;
}

export function text(x: number, y: number, content: string, attributes: string): string {
  return `<text x="${x}" y="${y}" text-anchor="middle" ${attributes}>${escapeXml(content)}</text>`;
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
