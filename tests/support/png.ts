// Reading PNG files in tests: the header fields a store checks, the pixels, and a QR code in a rendered sheet.
import { Resvg } from "@resvg/resvg-js";
import jsQR from "jsqr";
import { PNG } from "pngjs";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The IHDR fields, read straight from the bytes (colour type 2 is RGB, 6 is RGBA). */
export function pngHeader(png: Buffer): { width: number; height: number; bitDepth: number; colorType: number } {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG: wrong signature");
  if (png.toString("ascii", 12, 16) !== "IHDR") throw new Error("not a PNG: IHDR is not the first chunk");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24]!, colorType: png[25]! };
}

/** The RGBA value of one pixel. */
export function pixelAt(png: Buffer, x: number, y: number): [number, number, number, number] {
  const image = PNG.sync.read(png);
  const offset = (y * image.width + x) * 4;
  return [image.data[offset]!, image.data[offset + 1]!, image.data[offset + 2]!, image.data[offset + 3]!];
}

/** Whether every pixel's alpha is 255. */
export function isFullyOpaque(png: Buffer): boolean {
  const { data } = PNG.sync.read(png);
  for (let index = 3; index < data.length; index += 4) if (data[index] !== 255) return false;
  return true;
}

/** Renders an SVG document (e.g. a print sheet) to pixels, as a printer would, and reads its QR code. */
export function decodeQrInSvg(svg: string, width = 800): { text: string | null; width: number; height: number } {
  const rendered = new Resvg(svg, { fitTo: { mode: "width", value: width }, background: "#ffffff", logLevel: "off" }).render();
  const code = jsQR(new Uint8ClampedArray(rendered.pixels), rendered.width, rendered.height);
  return { text: code?.data ?? null, width: rendered.width, height: rendered.height };
}

/**
 * Reads every code of a multi-code sheet as a phone pointed at each one would: renders the page as a printer would,
 * then decodes the pixels of each cell the sheet marks out for cutting (`<rect class="cell" x y width height>`, in mm).
 */
export function decodeQrCodesInSheet(svg: string, pixelsPerMm = 5): (string | null)[] {
  const pageWidth = Number(/viewBox="0 0 ([\d.]+) /.exec(svg)?.[1]);
  const rendered = new Resvg(svg, { fitTo: { mode: "width", value: Math.round(pageWidth * pixelsPerMm) }, background: "#ffffff", logLevel: "off" }).render();
  const scale = rendered.width / pageWidth;
  // `pixels` copies the whole image on every read: once.
  const image = rendered.pixels;
  const cells = [...svg.matchAll(/<rect class="cell" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)].map((match) => match.slice(1).map(Number) as [number, number, number, number]);
  return cells.map(([x, y, width, height]) => {
    const left = Math.round(x * scale);
    const top = Math.round(y * scale);
    const w = Math.min(Math.round(width * scale), rendered.width - left);
    const h = Math.min(Math.round(height * scale), rendered.height - top);
    const pixels = new Uint8ClampedArray(w * h * 4);
    for (let row = 0; row < h; row += 1) {
      const from = ((top + row) * rendered.width + left) * 4;
      pixels.set(image.subarray(from, from + w * 4), row * w * 4);
    }
    return jsQR(pixels, w, h, { inversionAttempts: "dontInvert" })?.data ?? null;
  });
}
