import { describe, expect, it } from "vitest";
import { renderQrPng } from "~/modules/qr/qr-png.server";
import { decodeQrPng } from "../support/founder-e2e";
import { pngHeader } from "../support/png";

const URL = "https://pitch.example/pitch/fuzz-target?qr=ed567970-f97b-530d-9343-bbb000000001";

describe("renderQrPng", () => {
  it("draws a code that reads back as its text, whole pixels per module, at most the width asked for", async () => {
    const png = await renderQrPng(URL, { errorCorrectionLevel: "H", margin: 4, maxWidth: 1200 });
    const header = pngHeader(png);
    expect(header).toMatchObject({ bitDepth: 1, colorType: 0 });
    expect(header.width).toBe(header.height);
    expect(header.width).toBeLessThanOrEqual(1200);
    expect(header.width).toBeGreaterThanOrEqual(1024);
    expect(decodeQrPng(png).text).toBe(URL);
  });
});
