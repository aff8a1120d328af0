import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "~/db/normalize.server";
import { uniqueQrLabels } from "~/db/migrations/0010-unique-qr-labels.server";
import { createQrCode, listQrCodes } from "~/modules/qr/qr-codes.server";
import { createTestDatabase, describeEachDialect, DIALECTS, type TestDatabase } from "../support/databases";
import { createProject } from "../support/fixtures";

const DUPLICATE = { code: "conflict", message: "A QR code with this label already exists", fieldErrors: { label: "A QR code with this label already exists" } };

describeEachDialect("QR code labels", (get) => {
  it("refuses a label the project already has, trimmed and in any case, and creates nothing", async () => {
    const { db } = get();
    const project = await createProject(db);
    await createQrCode(db, project.ownerId, project.id, { label: "Disrupt Booth", eventTag: null });

    for (const label of ["Disrupt Booth", "disrupt booth", "  DISRUPT BOOTH  "]) {
      await expect(createQrCode(db, project.ownerId, project.id, { label, eventTag: "disrupt-2025" })).rejects.toMatchObject(DUPLICATE);
    }
    expect((await listQrCodes(db, project.ownerId, project.id)).map((code) => code.label)).toEqual(["Disrupt Booth"]);
  });

  it("the same label is fine in another project, and a label is stored trimmed", async () => {
    const { db } = get();
    const project = await createProject(db);
    const other = await createProject(db, { ownerId: project.ownerId });
    await createQrCode(db, project.ownerId, project.id, { label: "Badge", eventTag: null });
    const code = await createQrCode(db, project.ownerId, other.id, { label: " Badge ", eventTag: null });
    expect(code.label).toBe("Badge");
  });

  it("the database refuses a duplicate written past the check (two tabs racing)", async () => {
    const { db } = get();
    const project = await createProject(db);
    await createQrCode(db, project.ownerId, project.id, { label: "Flyer", eventTag: null });
    const raced = await db
      .insertInto("qr_codes")
      .values({ id: crypto.randomUUID(), project_id: project.id, label: "FLYER", event_tag: null })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(raced)).toBe(true);
    expect(await listQrCodes(db, project.ownerId, project.id)).toHaveLength(1);
  });
});

describe.each(DIALECTS)("migration 0010 on a database that already has duplicate labels [%s]", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // As the database was before 0010: no index, so duplicates could be written.
    await database.db.schema.dropIndex("qr_codes_project_label_unique").execute();
  });
  afterAll(() => database.destroy());

  it("keeps the oldest code's label, renames the others with an unused suffix, then builds the index", async () => {
    const { db } = database;
    const project = await createProject(db);
    const other = await createProject(db);
    const code = (id: string, projectId: string, label: string, at: string) =>
      db.insertInto("qr_codes").values({ id, project_id: projectId, label, event_tag: null, created_at: at }).execute();
    await code("a1", project.id, "Booth", "2026-01-01T10:00:00.000Z");
    await code("a2", project.id, "booth", "2026-01-02T10:00:00.000Z");
    await code("a3", project.id, "BOOTH", "2026-01-03T10:00:00.000Z");
    await code("a4", project.id, "Booth (2)", "2026-01-04T10:00:00.000Z");
    await code("a5", project.id, "x".repeat(100), "2026-01-05T10:00:00.000Z");
    await code("a6", project.id, "X".repeat(100), "2026-01-06T10:00:00.000Z");
    await code("b1", other.id, "Booth", "2026-01-01T10:00:00.000Z");

    await uniqueQrLabels.up(db);

    const labels = await db.selectFrom("qr_codes").select(["id", "label"]).orderBy("id").execute();
    expect(labels).toEqual([
      { id: "a1", label: "Booth" },
      { id: "a2", label: "booth (3)" },
      { id: "a3", label: "BOOTH (4)" },
      { id: "a4", label: "Booth (2)" },
      { id: "a5", label: "x".repeat(100) },
      { id: "a6", label: `${"X".repeat(96)} (2)` },
      { id: "b1", label: "Booth" },
    ]);
    const duplicate = await sql`insert into qr_codes (id, project_id, label) values ('a7', ${project.id}, 'bOOTH')`.execute(db).catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
  });
});
