import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "~/db/normalize.server";
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from "~/db/schema";
import { describeEachDialect, type TestDatabase } from "../support/databases";

async function insertUser(database: TestDatabase, id = crypto.randomUUID()) {
  const now = new Date().toISOString();
  await database.db
    .insertInto("users")
    .values({ id, name: "", email: `${id}@example.com`, email_verified: false, image: null, created_at: now, updated_at: now })
    .execute();
  return id;
}

async function insertProject(database: TestDatabase, ownerId: string, overrides: Partial<{ slug: string; status: string }> = {}) {
  const id = crypto.randomUUID();
  await database.db
    .insertInto("projects")
    .values({
      id,
      owner_id: ownerId,
      title: "Harbor",
      slug: overrides.slug ?? `harbor-${id.slice(0, 8)}`,
      one_liner: "Cold chain",
      summary: null,
      video_url: null,
      deck_url: null,
      calendly_url: null,
      metrics: [{ label: "MRR", value: "$48k" }],
      problem_points: ["Vaccines spoil"],
      solution_points: [],
      status: (overrides.status ?? "draft") as "draft",
      last_shipped_at: null,
    })
    .execute();
  return id;
}

describeEachDialect("schema and value normalisation", (getDb) => {
  it("creates every entity of the spec and the auth tables", async () => {
    const tables = (await getDb().db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "users",
        "sessions",
        "accounts",
        "verifications",
        "rate_limits",
        "projects",
        "qr_codes",
        "project_slugs",
        "qr_code_moves",
        "scans",
        "contacts",
        "signals",
        "signal_tiers",
        "recognition_entries",
      ]),
    );
  });

  it("gives a column name read as JSON or as a boolean that type in every table that has it", async () => {
    // Values are converted by column name, whatever the table: a text column that shares a JSON column's name would be
    // parsed as JSON (a confirmation's JSON `payload` once broke every webhook's text `payload`).
    const postgres = getDb().dialect === "postgres";
    const [json, boolean] = postgres ? ["jsonb", "bool"] : ["text", "integer"];
    const declared = (type: string) => type.toLowerCase();
    const columns = (await getDb().db.introspection.getTables()).flatMap((table) => table.columns.map((column) => ({ table: table.name, ...column })));
    const mistyped = columns
      .filter((column) => (JSON_COLUMNS.has(column.name) && declared(column.dataType) !== json) || (BOOLEAN_COLUMNS.has(column.name) && declared(column.dataType) !== boolean))
      .map((column) => `${column.table}.${column.name}: ${column.dataType}`);
    expect(mistyped).toEqual([]);
  });

  it("reads JSON lists, booleans and timestamps back the same way on both databases", async () => {
    const database = getDb();
    const owner = await insertUser(database);
    const projectId = await insertProject(database, owner);
    const project = await database.db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirstOrThrow();
    expect(project.metrics).toEqual([{ label: "MRR", value: "$48k" }]);
    expect(project.problem_points).toEqual(["Vaccines spoil"]);
    expect(project.solution_points).toEqual([]);
    expect(project.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const contactId = crypto.randomUUID();
    await database.db
      .insertInto("contacts")
      .values({
        id: contactId,
        project_id: projectId,
        name: "Ada",
        email: "ada@example.com",
        intent: "Intro",
        subscribed: true,
        role_tags: ["Angel", "Operator"],
        linkedin_url: null,
        note: "Hi",
        user_id: null,
      })
      .execute();
    const contact = await database.db.selectFrom("contacts").selectAll().where("id", "=", contactId).executeTakeFirstOrThrow();
    expect(contact.subscribed).toBe(true);
    expect(contact.role_tags).toEqual(["Angel", "Operator"]);
    const subscribed = await database.db.selectFrom("contacts").select("id").where("subscribed", "=", true).execute();
    expect(subscribed.map((row) => row.id)).toContain(contactId);
  });

  it("keeps slugs unique and reports the violation in one shape", async () => {
    const database = getDb();
    const owner = await insertUser(database);
    await insertProject(database, owner, { slug: "taken-slug" });
    const error = await insertProject(database, owner, { slug: "taken-slug" }).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("limits status to draft or published", async () => {
    const database = getDb();
    const owner = await insertUser(database);
    await expect(insertProject(database, owner, { status: "archived" })).rejects.toThrow();
  });

  it("refuses a project whose owner does not exist, and removes a user's projects with the user", async () => {
    const database = getDb();
    await expect(insertProject(database, "no-such-user")).rejects.toThrow();
    const owner = await insertUser(database);
    const projectId = await insertProject(database, owner);
    await database.db.insertInto("qr_codes").values({ id: "qr-cascade", project_id: projectId, label: "Booth", event_tag: null }).execute();
    await database.db.insertInto("scans").values({ project_id: projectId, qr_code_id: "qr-cascade", viewer_fingerprint: "f1" }).execute();
    await database.db.deleteFrom("users").where("id", "=", owner).execute();
    const left = await database.db.selectFrom("scans").select(sql<number>`count(*)`.as("n")).where("project_id", "=", projectId).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    expect(await database.db.selectFrom("qr_codes").select("id").where("id", "=", "qr-cascade").executeTakeFirst()).toBeUndefined();
  });

  it("enforces the QR label and event tag limits in the database too", async () => {
    const database = getDb();
    const owner = await insertUser(database);
    const projectId = await insertProject(database, owner);
    await expect(
      database.db.insertInto("qr_codes").values({ id: crypto.randomUUID(), project_id: projectId, label: "x".repeat(101), event_tag: null }).execute(),
    ).rejects.toThrow();
    await expect(
      database.db.insertInto("qr_codes").values({ id: crypto.randomUUID(), project_id: projectId, label: "Booth", event_tag: "y".repeat(51) }).execute(),
    ).rejects.toThrow();
  });
});

describe("isUniqueViolation", () => {
  it("is false for other errors", () => {
    expect(isUniqueViolation(new Error("boom"))).toBe(false);
    expect(isUniqueViolation({ code: "23503" })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
