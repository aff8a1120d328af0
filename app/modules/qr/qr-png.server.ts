import QRCode from "qrcode";
import { writePng } from "~/modules/icons/png-file.server";

/**
 * A QR code as a black-and-white PNG (1 bit per pixel, whole pixels per module, at most `maxWidth` wide).
 * The library's own PNG writer filters and compresses on the event loop (0.6 to 0.9 s for a 1,200 px code on a
 * busy machine, every other request waiting meanwhile); here the rows are packed in a few milliseconds and
 * compressed on libuv's thread pool.
 */
export async function renderQrPng(text: string, options: { errorCorrectionLevel: "L" | "M" | "Q" | "H"; margin: number; maxWidth: number }): Promise<Buffer> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: options.errorCorrectionLevel });
  const span = modules.size + 2 * options.margin;
  const scale = Math.max(1, Math.floor(options.maxWidth / span));
  const width = span * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * width, 0xff);
  for (let y = 0; y < width; y += 1) {
    const row = y * (rowBytes + 1);
    raw[row] = 0; // filter type: none
    const moduleY = Math.floor(y / scale) - options.margin;
    if (moduleY < 0 || moduleY >= modules.size) continue;
    for (let moduleX = 0; moduleX < modules.size; moduleX += 1) {
      if (!modules.get(moduleY, moduleX)) continue;
      const from = (moduleX + options.margin) * scale;
      for (let x = from; x < from + scale; x += 1) raw[row + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
  }
  return writePng({ width, height: width, bitDepth: 1, colorType: "greyscale" }, raw);
}
