import { describe, expect, it } from "vitest";
import { DomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { appIconSvg } from "~/modules/icons/app-icon-svg";
import { generateAppIcon, renderAppIcon, SITE_ICONS } from "~/modules/icons/app-icons.server";
import { APP_ICON_CONCEPTS, appIconDownloadName, CONCEPT_MESSAGE, generateAppIconSchema } from "~/modules/icons/concepts";
import { isFullyOpaque, pixelAt, pngHeader } from "../support/png";

const RGB = 2;
const RGBA = 6;
const PALETTE = 3;

describe.each(APP_ICON_CONCEPTS)("app icon concept $concept ($name)", ({ concept }) => {
  it("renders to a 1024x1024 PNG with no alpha channel and opaque corners", async () => {
    const { png } = await renderAppIcon(concept);
    expect(pngHeader(png)).toEqual({ width: 1024, height: 1024, bitDepth: 8, colorType: RGB });
    for (const [x, y] of [
      [0, 0],
      [1023, 0],
      [0, 1023],
      [1023, 1023],
    ] as const) {
      expect(pixelAt(png, x, y)[3], `alpha at ${x},${y}`).toBe(255);
    }
    expect(isFullyOpaque(png)).toBe(true);
  });

  it("is drawn with shapes only: no text, no font, nothing loaded from elsewhere", () => {
    const svg = appIconSvg(concept);
    expect(svg).not.toMatch(/<text|<image|font-family|href="(?!#)|url\((?!#)/);
    expect(svg).toContain('width="1024" height="1024"');
  });

  it("is generated once and then answered from memory, at a versioned URL", async () => {
    const first = await renderAppIcon(concept);
    expect(await renderAppIcon(concept)).toBe(first);
    const generated = await generateAppIcon(concept);
    expect(generated.imageUrl).toBe(`/app-icons/concept-${concept}.png?v=${first.etag.replaceAll('"', "")}`);
    expect(generated).toMatchObject({ concept, width: 1024, height: 1024 });
    expect(appIconDownloadName(concept)).toBe(`icon-concept-${concept}.png`);
  });
});

describe("app icons", () => {
  it("the three concepts are different pictures", async () => {
    const pngs = await Promise.all(APP_ICON_CONCEPTS.map(({ concept }) => renderAppIcon(concept)));
    expect(new Set(pngs.map((icon) => icon.etag)).size).toBe(3);
  });

  it("refuses any concept but 1, 2 or 3 with a clear message", async () => {
    for (const concept of [0, 4, 1.5, "1", null, undefined]) {
      await expect(generateAppIcon(concept)).rejects.toMatchObject({ code: "invalid_input", message: CONCEPT_MESSAGE });
      await expect(generateAppIcon(concept)).rejects.toBeInstanceOf(DomainError);
    }
    expect(validate(generateAppIconSchema, { concept: 2 })).toEqual({ ok: true, data: { concept: 2 } });
    for (const body of [{ concept: 0 }, { concept: 4 }, { concept: "2" }, {}]) {
      expect(validate(generateAppIconSchema, body)).toMatchObject({ ok: false, formError: CONCEPT_MESSAGE });
    }
  });

  it("the site's icons come from concept 1 at their sizes; square ones are opaque, the favicon is rounded", async () => {
    const sizes = { "icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180, "favicon-32.png": 32 } as const;
    for (const [name, size] of Object.entries(sizes) as [keyof typeof sizes, number][]) {
      const { png } = await SITE_ICONS[name].render();
      const header = pngHeader(png);
      expect([header.width, header.height], name).toEqual([size, size]);
      if (name === "favicon-32.png") {
        expect(header.colorType).toBe(RGBA);
        expect(pixelAt(png, 0, 0)[3], "favicon corner").toBe(0);
      } else {
        // A palette image without transparency: no alpha channel, as iOS requires, and every pixel opaque.
        expect(header.colorType, name).toBe(PALETTE);
        expect(isFullyOpaque(png), name).toBe(true);
        expect(pixelAt(png, 0, 0)[3], `${name} corner`).toBe(255);
      }
    }
    // What Chrome fetches for the manifest on every first visit stays small.
    expect((await SITE_ICONS["icon-192.png"].render()).png.length).toBeLessThanOrEqual(6 * 1024);
    const favicon = (await SITE_ICONS["favicon.svg"].render()).png.toString("utf8");
    expect(favicon).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(favicon).toContain("clip-path");
  });
});
