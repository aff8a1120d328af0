import { expect, it } from "vitest";
import { NOT_FOUND_OR_DENIED } from "~/modules/access/project-access.server";
import { loadEventSheet } from "~/modules/qr/event-sheet.server";
import { createQrCode, setQrCodeArchived } from "~/modules/qr/qr-codes.server";
import { describeEachDialect } from "../support/databases";
import { createProject, TEST_PUBLIC_URL } from "../support/fixtures";
import { decodeQrCodesInSheet } from "../support/png";

/** The sheet lists codes in the order they were made: each test code gets a minute of its own, never a shared millisecond. */
const minutesInto = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 9, minutes));

describeEachDialect("one sheet for the whole event", (get) => {
  it("puts every active code on one A4 page by default, each decoding to its tracked address, labels under each", async () => {
    const { db } = get();
    const project = await createProject(db, { title: "Harbor Cold Chain" });
    const labels = ["Hall A", "Hall B", "Badge"];
    const codes = [];
    for (const [index, label] of labels.entries()) codes.push(await createQrCode(db, project.ownerId, project.id, { label, eventTag: "demo-day" }, minutesInto(index)));
    await setQrCodeArchived(db, project.ownerId, project.id, codes[2]!.id, true);

    const sheet = await loadEventSheet(db, project.ownerId, TEST_PUBLIC_URL, project.id, null, "a4");
    expect(sheet.codes.map((code) => [code.label, code.archived, code.chosen])).toEqual([
      ["Hall A", false, true],
      ["Hall B", false, true],
      ["Badge", true, false],
    ]);
    expect(sheet.pages).toHaveLength(1);
    const page = sheet.pages[0]!;
    expect(page).toMatch(/^<svg [^>]*width="210mm" height="297mm"/);
    for (const text of ["Hall A", "Hall B", "demo-day", "Harbor Cold Chain: print at 100% (actual size), then cut along the marks."]) expect(page).toContain(`>${text}</text>`);
    expect(decodeQrCodesInSheet(page)).toEqual(codes.slice(0, 2).map((code) => `${TEST_PUBLIC_URL}/pitch/${project.slug}?qr=${code.id}`));
  });

  it("prints the chosen codes only, archived ones too, on US Letter; seven codes make two pages; others' codes are ignored", async () => {
    const { db } = get();
    const project = await createProject(db);
    const stranger = await createProject(db);
    const foreign = await createQrCode(db, stranger.ownerId, stranger.id, { label: "Theirs", eventTag: null });
    const codes = [];
    for (let index = 1; index <= 7; index += 1) codes.push(await createQrCode(db, project.ownerId, project.id, { label: `Table ${index}`, eventTag: null }, minutesInto(index)));
    await setQrCodeArchived(db, project.ownerId, project.id, codes[6]!.id, true);

    const chosen = await loadEventSheet(db, project.ownerId, TEST_PUBLIC_URL, project.id, [codes[6]!.id, codes[1]!.id, foreign.id], "letter");
    expect(chosen.pages).toHaveLength(1);
    expect(chosen.pages[0]).toMatch(/^<svg [^>]*width="215.9mm" height="279.4mm"/);
    expect(decodeQrCodesInSheet(chosen.pages[0]!)).toEqual([codes[1]!, codes[6]!].map((code) => `${TEST_PUBLIC_URL}/pitch/${project.slug}?qr=${code.id}`));
    expect(chosen.pages[0]).not.toContain("Theirs");

    const all = await loadEventSheet(db, project.ownerId, TEST_PUBLIC_URL, project.id, codes.map((code) => code.id), "a4");
    expect(all.pages).toHaveLength(2);
    expect(all.pages.map((page) => decodeQrCodesInSheet(page).length)).toEqual([6, 1]);
    expect(all.pages[1]).toContain("Page 2 of 2.");

    expect((await loadEventSheet(db, project.ownerId, TEST_PUBLIC_URL, project.id, [], "a4")).pages).toEqual([]);
  });

  it("is the owner's only", async () => {
    const { db } = get();
    const project = await createProject(db);
    const stranger = await createProject(db);
    await expect(loadEventSheet(db, stranger.ownerId, TEST_PUBLIC_URL, project.id, null, "a4")).rejects.toMatchObject({ code: "not_found", message: NOT_FOUND_OR_DENIED });
  });
});
