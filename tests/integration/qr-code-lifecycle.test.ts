import { expect, it } from "vitest";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { codeMovedTo } from "~/modules/pitch/moved-pitch.server";
import { NOT_FOUND_OR_DENIED } from "~/modules/access/project-access.server";
import { createQrCode, listQrCodes, loadQrCodesSection, repointQrCode, setQrCodeArchived, setQrCodeEventEnd } from "~/modules/qr/qr-codes.server";
import { EVENT_END_BEFORE_CREATION, REPOINT_DRAFT, REPOINT_NOT_YOURS, REPOINT_SAME, qrCodeEventEndSchema, qrCodeFormSchema } from "~/modules/qr/qr-form";
import { recordScans } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject, TEST_PUBLIC_URL } from "../support/fixtures";

describeEachDialect("printed codes that never die", (get) => {
  async function counted(projectId: string, qrCodeId: string) {
    const { db } = get();
    const rows = await db.selectFrom("scans").select("id").where("project_id", "=", projectId).where("qr_code_id", "=", qrCodeId).execute();
    const stats = await db.selectFrom("project_stats").select("total_scans").where("project_id", "=", projectId).executeTakeFirst();
    return { scans: rows.length, projectScans: Number(stats?.total_scans ?? 0) };
  }

  it("an archived code leaves the active list with its numbers, still counts, and is restored", async () => {
    const { db } = get();
    const project = await createProject(db);
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Flyer", eventTag: null });
    await recordScans(db, [{ projectId: project.id, qrCodeId: code.id, viewerFingerprint: "viewer-a" }]);

    await setQrCodeArchived(db, project.ownerId, project.id, code.id, true);
    const section = await loadQrCodesSection(db, project.ownerId, project.id, TEST_PUBLIC_URL);
    const archived = section.codes.find((row) => row.id === code.id)!;
    expect(archived.archived_at).not.toBeNull();
    expect(Number(archived.total_scans)).toBe(1);

    expect(await recordScans(db, [{ projectId: project.id, qrCodeId: code.id, viewerFingerprint: "viewer-b" }])).toEqual([true]);
    expect(await counted(project.id, code.id)).toEqual({ scans: 2, projectScans: 2 });
    expect(await codeMovedTo(db, code.id, project.id, null)).toBeNull();

    await setQrCodeArchived(db, project.ownerId, project.id, code.id, false);
    expect((await listQrCodes(db, project.ownerId, project.id))[0]).toMatchObject({ id: code.id, archived_at: null, total_scans: 2 });
  });

  it("another founder can neither archive nor restore the code", async () => {
    const { db } = get();
    const project = await createProject(db);
    const stranger = await createProject(db);
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Badge", eventTag: null });
    await expect(setQrCodeArchived(db, stranger.ownerId, project.id, code.id, true)).rejects.toMatchObject({ code: "not_found", message: NOT_FOUND_OR_DENIED });
    await expect(setQrCodeArchived(db, stranger.ownerId, stranger.id, code.id, true)).rejects.toMatchObject({ code: "not_found", message: "QR code not found" });
    expect((await listQrCodes(db, project.ownerId, project.id))[0]!.archived_at).toBeNull();
  });

  it("a re-pointed code opens the other pitch and counts there; its past scans stay where they happened", async () => {
    const { db } = get();
    const first = await createProject(db, { title: "Harbor" });
    const next = await createProject(db, { ownerId: first.ownerId, title: "Orbit" });
    const code = await createQrCode(db, first.ownerId, first.id, { label: "Demo Day", eventTag: "dd-2026" });
    await recordScans(db, [{ projectId: first.id, qrCodeId: code.id, viewerFingerprint: "viewer-a" }]);

    expect(await repointQrCode(db, first.ownerId, first.id, { qrCodeId: code.id, targetProjectId: next.id })).toEqual({ slug: next.slug, title: "Orbit" });
    expect(await listQrCodes(db, first.ownerId, first.id)).toEqual([]);
    expect((await listQrCodes(db, first.ownerId, next.id)).map((row) => row.id)).toEqual([code.id]);
    // The printed code names the first project's slug: the door sends it on to the project it opens now.
    expect(await codeMovedTo(db, code.id, first.id, null)).toBe(next.slug);
    expect(await codeMovedTo(db, code.id, next.id, null)).toBeNull();

    await recordScans(db, [{ projectId: next.id, qrCodeId: code.id, viewerFingerprint: "viewer-b" }]);
    expect(await counted(first.id, code.id)).toEqual({ scans: 1, projectScans: 1 });
    expect(await counted(next.id, code.id)).toEqual({ scans: 1, projectScans: 1 });
    // The first project's analytics still name the code for the scan it brought there; the other's count the new one.
    const before = await loadProjectAnalytics(db, first.ownerId, first.id);
    expect(before.qrCodes).toEqual([{ id: code.id, label: "Demo Day", eventTag: "dd-2026", totalScans: 1, uniqueScans: 1, endedOn: null, movedAway: true }]);
    expect(before.funnel.find((row) => row.source === `qr:${code.id}`)).toMatchObject({ label: "Demo Day", eventTag: "dd-2026", scans: 1 });
    const after = await loadProjectAnalytics(db, first.ownerId, next.id);
    expect(after.funnel.find((row) => row.source === `qr:${code.id}`)).toMatchObject({ label: "Demo Day", scans: 1 });
    expect(after.qrCodes).toMatchObject([{ id: code.id, totalScans: 1, uniqueScans: 1, movedAway: false }]);
    const moves = await db.selectFrom("qr_code_moves").select(["from_project_id", "to_project_id"]).where("qr_code_id", "=", code.id).execute();
    expect(moves).toEqual([{ from_project_id: first.id, to_project_id: next.id }]);
  });

  it("only a recorded move redirects: another project's code on this pitch's address opens this pitch and credits no code", async () => {
    const { db } = get();
    const here = await createProject(db, { title: "Harbor" });
    const sibling = await createProject(db, { ownerId: here.ownerId, title: "Orbit" });
    const stranger = await createProject(db, { title: "Elsewhere" });
    const siblingsCode = await createQrCode(db, here.ownerId, sibling.id, { label: "Orbit flyer", eventTag: null });
    const strangersCode = await createQrCode(db, stranger.ownerId, stranger.id, { label: "Their flyer", eventTag: null });
    // A code that left a third project for the sibling was never this pitch's either.
    const third = await createProject(db, { ownerId: here.ownerId, title: "Third" });
    const thirdsCode = await createQrCode(db, here.ownerId, third.id, { label: "Third flyer", eventTag: null });
    await repointQrCode(db, here.ownerId, third.id, { qrCodeId: thirdsCode.id, targetProjectId: sibling.id });

    for (const code of [siblingsCode, strangersCode, thirdsCode]) expect(await codeMovedTo(db, code.id, here.id, null)).toBeNull();
    expect(await codeMovedTo(db, thirdsCode.id, third.id, null)).toBe(sibling.slug);

    expect(await recordScans(db, [{ projectId: here.id, qrCodeId: siblingsCode.id, viewerFingerprint: "viewer-a" }])).toEqual([true]);
    const rows = await db.selectFrom("scans").select("qr_code_id").where("project_id", "=", here.id).execute();
    expect(rows).toEqual([{ qr_code_id: null }]);
    expect(await counted(sibling.id, siblingsCode.id)).toEqual({ scans: 0, projectScans: 0 });
  });

  it("refuses another founder's project, a draft, the same project and a label the other project has, and changes nothing", async () => {
    const { db } = get();
    const project = await createProject(db);
    const strangers = await createProject(db);
    const draft = await createProject(db, { ownerId: project.ownerId, status: "draft" });
    const sibling = await createProject(db, { ownerId: project.ownerId, title: "Orbit" });
    await createQrCode(db, project.ownerId, sibling.id, { label: "booth", eventTag: null });
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: null });

    const refused = (targetProjectId: string) => repointQrCode(db, project.ownerId, project.id, { qrCodeId: code.id, targetProjectId });
    await expect(refused(strangers.id)).rejects.toMatchObject({ code: "invalid_input", message: REPOINT_NOT_YOURS, fieldErrors: { targetProjectId: REPOINT_NOT_YOURS } });
    await expect(refused("not-a-project")).rejects.toMatchObject({ code: "invalid_input", message: REPOINT_NOT_YOURS });
    await expect(refused(draft.id)).rejects.toMatchObject({ code: "invalid_input", message: REPOINT_DRAFT });
    await expect(refused(project.id)).rejects.toMatchObject({ code: "invalid_input", message: REPOINT_SAME });
    await expect(refused(sibling.id)).rejects.toMatchObject({ code: "conflict", message: "Orbit already has a QR code labelled “Booth”: rename one of them first" });
    // Nor may another founder move this founder's code into their own project.
    await expect(repointQrCode(db, strangers.ownerId, project.id, { qrCodeId: code.id, targetProjectId: strangers.id })).rejects.toMatchObject({ code: "not_found" });

    expect((await listQrCodes(db, project.ownerId, project.id)).map((row) => row.id)).toEqual([code.id]);
    expect(await db.selectFrom("qr_code_moves").select("id").where("qr_code_id", "=", code.id).execute()).toEqual([]);
  });

  it("an event end date is a real day, not before the code was made, and may be cleared", async () => {
    const { db } = get();
    const project = await createProject(db);
    const madeOn = new Date("2026-11-20T10:00:00Z");
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Expo", eventTag: null }, madeOn);

    await expect(setQrCodeEventEnd(db, project.ownerId, project.id, { qrCodeId: code.id, eventEndsOn: "2026-11-19" })).rejects.toMatchObject({
      code: "invalid_input",
      fieldErrors: { eventEndsOn: EVENT_END_BEFORE_CREATION },
    });
    expect((await listQrCodes(db, project.ownerId, project.id))[0]!.event_ends_on).toBeNull();
    await setQrCodeEventEnd(db, project.ownerId, project.id, { qrCodeId: code.id, eventEndsOn: "2026-11-20" });
    expect((await listQrCodes(db, project.ownerId, project.id))[0]!.event_ends_on).toBe("2026-11-20");
    await setQrCodeEventEnd(db, project.ownerId, project.id, { qrCodeId: code.id, eventEndsOn: null });
    expect((await listQrCodes(db, project.ownerId, project.id))[0]!.event_ends_on).toBeNull();

    // After the day, the code still works and analytics say the event ended.
    await setQrCodeEventEnd(db, project.ownerId, project.id, { qrCodeId: code.id, eventEndsOn: "2026-11-21" });
    expect((await loadProjectAnalytics(db, project.ownerId, project.id, new Date("2026-11-21T20:00:00Z"))).qrCodes[0]).toMatchObject({ endedOn: null });
    expect((await loadProjectAnalytics(db, project.ownerId, project.id, new Date("2026-11-22T12:00:00Z"))).qrCodes[0]).toMatchObject({ endedOn: "2026-11-21" });
    await expect(createQrCode(db, project.ownerId, project.id, { label: "Past", eventTag: null, eventEndsOn: "2000-01-01" })).rejects.toMatchObject({ message: EVENT_END_BEFORE_CREATION });
    expect(qrCodeFormSchema.safeParse({ label: "x", eventEndsOn: "2026-02-30" }).success).toBe(false);
    expect(qrCodeEventEndSchema.safeParse({ qrCodeId: code.id, eventEndsOn: "" }).data).toEqual({ qrCodeId: code.id, eventEndsOn: null });
  });
});
