import { promisify } from "node:util";
import zlib from "node:zlib";

const deflate = promisify(zlib.deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type PngHeader = { width: number; height: number; bitDepth: 1 | 8; colorType: "greyscale" | "rgb" };

/**
 * A PNG file from its image rows, each already prefixed with its filter byte. The rows are compressed on libuv's
 * thread pool, so a large image never holds the event loop the way a synchronous PNG writer does.
 */
export async function writePng(header: PngHeader, filteredRows: Buffer): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(header.width, 0);
  ihdr.writeUInt32BE(header.height, 4);
  ihdr[8] = header.bitDepth;
  ihdr[9] = header.colorType === "rgb" ? 2 : 0;
  return Buffer.concat([SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", await deflate(filteredRows)), chunk("IEND", Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * RGBA pixels as RGB rows with PNG's "Up" filter (each byte minus the one above it), which keeps an icon's flat
 * areas and vertical gradients small when compressed, in one pass over the pixels.
 */
export function opaqueRowsUpFiltered(rgba: Uint8Array, width: number, height: number): Buffer {
  const rowBytes = width * 3;
  const rows = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const out = y * (rowBytes + 1);
    rows[out] = 2; // filter type: Up
    for (let x = 0; x < width; x += 1) {
      const from = (y * width + x) * 4;
      const above = from - width * 4;
      for (let channel = 0; channel < 3; channel += 1) {
        const value = rgba[from + channel]!;
        rows[out + 1 + x * 3 + channel] = y === 0 ? value : (value - rgba[above + channel]!) & 0xff;
      }
    }
  }
  return rows;
}
