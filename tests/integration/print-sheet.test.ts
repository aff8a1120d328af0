import jsQR from "jsqr";
import { PNG } from "pngjs";
import { expect, it } from "vitest";
import { renderPrintSheet } from "~/modules/qr/print-sheet.server";
import { createQrCode, renderQrImages } from "~/modules/qr/qr-codes.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser } from "../support/fixtures";
import { decodeQrInSvg } from "../support/png";

const PUBLIC_URL = "https://pitch.example";

describeEachDialect("print sheets", (get) => {
  it("the owner's sheet shows the code's facts and encodes the same tracked URL as the PNG download", async () => {
    const { db } = get();
    const project = await createProject(db, { title: "Harbor Cold Chain" });
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Disrupt booth", eventTag: "disrupt-2025" });

    const sheet = await renderPrintSheet(db, project.ownerId, PUBLIC_URL, project.id, code.id, "a6");
    expect(sheet.fileName).toBe(`${project.slug}-Disrupt-booth-print-a6.svg`);
    for (const text of ["Harbor Cold Chain", "Disrupt booth", "disrupt-2025", `pitch.example/pitch/${project.slug}`]) expect(sheet.svg).toContain(text);

    const images = await renderQrImages(db, project.ownerId, PUBLIC_URL, project.slug, code.id);
    const png = PNG.sync.read(images.png);
    const fromPng = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
    expect(sheet.url).toBe(images.url);
    expect(decodeQrInSvg(sheet.svg).text).toBe(fromPng);

    const letter = await renderPrintSheet(db, project.ownerId, PUBLIC_URL, project.id, code.id, "letter");
    expect(letter.fileName).toBe(`${project.slug}-Disrupt-booth-print-letter.svg`);
    expect(decodeQrInSvg(letter.svg, 1400).text).toBe(images.url);
  });

  it("anyone else, another project's path, or an unknown code: not found", async () => {
    const { db } = get();
    const project = await createProject(db);
    const other = await createProject(db);
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Badge", eventTag: null });
    const stranger = await createUser(db);
    const notFound = { code: "not_found", message: "QR code not found" };
    await expect(renderPrintSheet(db, stranger, PUBLIC_URL, project.id, code.id, "a6")).rejects.toMatchObject(notFound);
    await expect(renderPrintSheet(db, other.ownerId, PUBLIC_URL, other.id, code.id, "a6")).rejects.toMatchObject(notFound);
    await expect(renderPrintSheet(db, project.ownerId, PUBLIC_URL, other.id, code.id, "a6")).rejects.toMatchObject(notFound);
    await expect(renderPrintSheet(db, project.ownerId, PUBLIC_URL, project.id, "nosuchcode", "a6")).rejects.toMatchObject(notFound);
  });
});
