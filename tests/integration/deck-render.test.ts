import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DeckRefusal } from "~/modules/deck/deck-refusal.server";
import { DECK_MAX_PAGES } from "~/modules/deck/deck-rules";
import { openDeckPdf } from "~/modules/deck/read-pdf.server";
import { renderDeckPage } from "~/modules/deck/render-page.server";
import { makeDeckPdf, makeEncryptedPdf, makeOwnerPasswordPdf, makeTruncatedPdf, makeVeryWidePdf } from "../support/deck-pdfs";

async function refusalOf(bytes: Uint8Array): Promise<DeckRefusal> {
  try {
    const { pdf, pageCount } = await openDeckPdf(bytes);
    for (let n = 1; n <= pageCount; n += 1) await renderDeckPage(pdf, n);
    await pdf.destroy();
  } catch (error) {
    if (error instanceof DeckRefusal) return error;
    throw error;
  }
  throw new Error("the file was taken as a deck");
}

describe("reading and rendering a deck", () => {
  it("renders each page once into WebP at 640, 1080 and 1600 px and a JPEG at 1080, with the text on it", async () => {
    const { pdf, pageCount } = await openDeckPdf(await makeDeckPdf(2, { title: (n) => `Traction ${n}` }));
    expect(pageCount).toBe(2);
    const page = await renderDeckPage(pdf, 1);
    await pdf.destroy();
    expect([page.width, page.height]).toEqual([1600, 900]);
    expect(page.text).toBe("Traction 1");
    expect(page.images.map((image) => `${image.width}.${image.format}`)).toEqual(["640.webp", "1080.webp", "1600.webp", "1080.jpg"]);
    for (const image of page.images) {
      const meta = await sharp(image.bytes).metadata();
      expect(meta.format).toBe(image.format === "jpg" ? "jpeg" : "webp");
      expect(meta.width).toBe(image.width);
      expect(meta.height).toBe(Math.round((image.width * 9) / 16));
    }
    const phone = page.images.find((image) => image.width === 1080 && image.format === "webp")!;
    expect(phone.bytes.length).toBeLessThan(60_000);
    // The title's ink: dark pixels in the text row of the 1080 px image, white around it, the blue band on top.
    const { data, info } = await sharp(phone.bytes).raw().toBuffer({ resolveWithObject: true });
    const scale = info.width / 960;
    const at = (x: number, y: number) => {
      const offset = (Math.round(y * scale) * info.width + Math.round(x * scale)) * info.channels;
      return data.subarray(offset, offset + 3);
    };
    const textRow = 540 - 300 - 20;
    const dark = Array.from({ length: 400 }, (_, i) => at(60 + i, textRow)).filter(([r, g, b]) => r! + g! + b! < 200).length;
    expect(dark).toBeGreaterThan(10);
    expect([...at(900, 500)].every((channel) => channel > 240)).toBe(true);
    const [r, g, b] = at(480, 20);
    expect(b!).toBeGreaterThan(150);
    expect(r!).toBeLessThan(80);
    expect(g!).toBeLessThan(120);
  });

  it("opens a PDF that has only an owner password, as readers do", async () => {
    const { pdf, pageCount } = await openDeckPdf(await makeOwnerPasswordPdf());
    expect(pageCount).toBe(1);
    await pdf.destroy();
  });

  it("draws a page 20,000 pt wide at 1,600 px, not at its own size", async () => {
    const { pdf } = await openDeckPdf(await makeVeryWidePdf());
    const page = await renderDeckPage(pdf, 1);
    await pdf.destroy();
    expect([page.width, page.height]).toEqual([1600, 43]);
    expect(page.text).toBe("Wide");
    for (const image of page.images) expect((await sharp(image.bytes).metadata()).width).toBeLessThanOrEqual(1600);
  });

  it("refuses what is not a deck, naming the reason", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#fff" } }).png().toBuffer();
    expect((await refusalOf(png)).message).toBe("This file is not a PDF. Export your deck as a PDF and upload that.");
    expect((await refusalOf(await makeEncryptedPdf())).message).toBe(
      "This PDF is protected with a password. Export it again without one and upload that.",
    );
    expect((await refusalOf(await makeTruncatedPdf())).message).toBe(
      "This PDF is damaged and cannot be read. Export it again and upload the new file.",
    );
    expect((await refusalOf(await makeDeckPdf(DECK_MAX_PAGES + 1))).message).toBe("This deck has 61 pages; a deck may have at most 60.");
  });
});
