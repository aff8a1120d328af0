import { describe, expect, it } from "vitest";
import { contentDisposition } from "~/modules/http/content-disposition";
import { buildPrintSheet, CARD, parsePrintSheetSize, shortPitchAddress, type PrintSheetInput } from "~/modules/qr/print-sheet.server";
import { trackedPitchUrl } from "~/modules/qr/qr-codes.server";
import { printSheetName, printSheetPath } from "~/modules/qr/qr-form";
import { decodeQrInSvg } from "../support/png";

const PUBLIC_URL = "https://pitch.example";
const url = trackedPitchUrl(PUBLIC_URL, "harbor-cold-chain", "tk7mq2xa");
const input: PrintSheetInput = {
  title: "Harbor Cold Chain",
  label: "Disrupt booth",
  eventTag: "disrupt-2025",
  url,
  shortUrl: shortPitchAddress(PUBLIC_URL, "harbor-cold-chain"),
  size: "a6",
};

/** The millimetre size and the QR symbol's placement (x, y, width in mm) of a sheet. */
function geometry(svg: string) {
  const root = /^<svg[^>]*width="([\d.]+)mm" height="([\d.]+)mm" viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const symbol = /<svg x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" viewBox="0 0 (\d+) \d+"/.exec(svg);
  if (!root || !symbol) throw new Error("unexpected sheet markup");
  return {
    page: { width: Number(root[1]), height: Number(root[2]), viewBox: [Number(root[3]), Number(root[4])] },
    qr: { x: Number(symbol[1]), y: Number(symbol[2]), width: Number(symbol[3]), modules: Number(symbol[5]) },
  };
}

describe("print sheet", () => {
  it("is an A6 card in mm with the title, the label, the event tag and the short address", async () => {
    const svg = await buildPrintSheet(input);
    const { page, qr } = geometry(svg);
    expect(page).toEqual({ width: 105, height: 148, viewBox: [105, 148] });
    for (const text of ["Harbor Cold Chain", "Disrupt booth", "disrupt-2025", "pitch.example/pitch/harbor-cold-chain"]) {
      expect(svg).toContain(`>${text}</text>`);
    }
    expect(svg).not.toContain("https://pitch.example/pitch/harbor-cold-chain</text>");
    // Big enough to scan from a metre: at least 60 mm, centred, and fully on the card.
    expect(qr.width).toBeGreaterThanOrEqual(60);
    expect(qr.x + qr.width / 2).toBeCloseTo(CARD.width / 2, 5);
    expect(qr.y + qr.width).toBeLessThan(CARD.height);
    expect(qr.width / qr.modules, "module size in mm").toBeGreaterThan(1);
  });

  it("carries a QR code (vector paths, no bitmap) that reads back as the tracked URL", async () => {
    const svg = await buildPrintSheet(input);
    expect(svg).not.toContain("<image");
    expect(svg).toMatch(/<path stroke="#000000" d="M/);
    expect(decodeQrInSvg(svg).text).toBe(url);
  });

  it("on Letter: the same card centred on a 215.9 x 279.4 mm page with cut marks, still scanning", async () => {
    const svg = await buildPrintSheet({ ...input, size: "letter" });
    const { page, qr } = geometry(svg);
    expect(page).toEqual({ width: 215.9, height: 279.4, viewBox: [215.9, 279.4] });
    const card = /<g transform="translate\(([\d.]+) ([\d.]+)\)">/.exec(svg);
    expect(Number(card?.[1])).toBeCloseTo((215.9 - 105) / 2, 1);
    expect(Number(card?.[2])).toBeCloseTo((279.4 - 148) / 2, 1);
    expect(qr.width).toBeGreaterThanOrEqual(60);
    expect(svg).toContain("Print at 100% (actual size)");
    expect(decodeQrInSvg(svg, 1400).text).toBe(url);
  });

  it("escapes what founders typed, and fits a long title and label with an ellipsis", async () => {
    const svg = await buildPrintSheet({
      ...input,
      title: `<script>alert("x")</script> & a title that goes on and on about solar cold rooms for rural clinics everywhere`,
      label: "Booth 'A' & <B>",
      eventTag: null,
    });
    expect(svg).not.toMatch(/<script|<B>/);
    expect(svg).toContain("&#60;script&#62;alert(&#34;x&#34;)");
    expect(svg).toContain("Booth &#39;A&#39; &#38; &#60;B&#62;");
    expect(svg).toContain("…</text>");
    const titleLines = [...svg.matchAll(/<text [^>]*fill="#ffffff">/g)];
    expect(titleLines.length).toBeLessThanOrEqual(2);
    expect(decodeQrInSvg(svg).text).toBe(url);
  });

  it("keeps a long address whole, on two lines", async () => {
    const slug = "a-very-long-project-slug-that-someone-chose-for-their-pitch-page-on-purpose";
    const svg = await buildPrintSheet({ ...input, shortUrl: shortPitchAddress("https://www.pitchqr-example.com", slug) });
    const lines = [...svg.matchAll(/<text [^>]*fill="#475569"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
    expect(lines).toHaveLength(2);
    expect(lines.join("")).toBe(`pitchqr-example.com/pitch/${slug}`);
  });

  it("sizes, names and paths", () => {
    expect(parsePrintSheetSize(null)).toBe("a6");
    expect(parsePrintSheetSize("")).toBe("a6");
    expect(parsePrintSheetSize("LETTER")).toBe("letter");
    expect(() => parsePrintSheetSize("a4")).toThrow("size must be a6 or letter");
    expect(printSheetName("harbor", "Disrupt  booth ", "a6")).toBe("harbor-Disrupt-booth-print-a6.svg");
    expect(printSheetPath("p1", "q1")).toBe("/project/p1/qr/q1/print.svg");
    expect(printSheetPath("p1", "q1", "letter")).toBe("/project/p1/qr/q1/print.svg?size=letter");
    expect(shortPitchAddress("http://127.0.0.1:3000", "demo")).toBe("127.0.0.1:3000/pitch/demo");
  });

  it("download names survive any label in the Content-Disposition header", () => {
    expect(contentDisposition('a "quoted" Café (1).svg')).toBe(
      `attachment; filename="a _quoted_ Caf_ (1).svg"; filename*=UTF-8''a%20%22quoted%22%20Caf%C3%A9%20%281%29.svg`,
    );
    expect(contentDisposition("icon-concept-1.png", "inline")).toBe(`inline; filename="icon-concept-1.png"; filename*=UTF-8''icon-concept-1.png`);
  });
});
