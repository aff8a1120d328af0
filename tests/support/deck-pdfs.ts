import { encryptPDF } from "@pdfsmaller/pdf-encrypt-lite";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/** A deck as a founder exports one: 16:9 pages (960 x 540 pt), each a coloured band and its title in Helvetica. */
export async function makeDeckPdf(pages: number, options: { title?: (page: number) => string } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage([960, 540]);
    page.drawRectangle({ x: 0, y: 440, width: 960, height: 100, color: rgb(0.1, 0.3, 0.8) });
    page.drawText(options.title?.(n) ?? `Slide ${n}`, { x: 60, y: 300, size: 64, font, color: rgb(0, 0, 0) });
  }
  return pdf.save();
}

/** The same deck, protected by a password needed to open it. */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  return encryptPDF(await makeDeckPdf(1), "secret");
}

/** A deck with only an owner password (no editing): it opens without one, as readers open it. */
export async function makeOwnerPasswordPdf(): Promise<Uint8Array> {
  return encryptPDF(await makeDeckPdf(1), "", "owner");
}

/** A deck cut off halfway, as an interrupted download leaves it. */
export async function makeTruncatedPdf(): Promise<Uint8Array> {
  const whole = await makeDeckPdf(3);
  return whole.subarray(0, Math.floor(whole.length / 2));
}

/** One page 20,000 pt wide and 540 pt high: a banner, or a file made to exhaust a renderer's memory. */
export async function makeVeryWidePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([20_000, 540]);
  page.drawRectangle({ x: 0, y: 0, width: 20_000, height: 540, color: rgb(0.1, 0.3, 0.8) });
  page.drawText("Wide", { x: 60, y: 200, size: 200, font, color: rgb(1, 1, 1) });
  return pdf.save();
}
