import { expect, it } from "vitest";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { unsubscribeEmail } from "~/modules/contacts/unsubscribe.server";
import { validate } from "~/modules/forms/validation";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject } from "../support/fixtures";

async function seedProjectWithContacts(database: TestDatabase, emails: string[]) {
  const { id: projectId } = await createProject(database.db);
  for (const email of emails) {
    await database.db
      .insertInto("contacts")
      .values({
        id: crypto.randomUUID(),
        project_id: projectId,
        name: "Sub",
        email,
        intent: "Supporter",
        subscribed: true,
        role_tags: [],
        linkedin_url: null,
        note: null,
        user_id: null,
      })
      .execute();
  }
  return projectId;
}

describeEachDialect("unsubscribe by e-mail", (getDb) => {
  it("clears subscribed for every contact with that address, typed in any letter case, and no one else", async () => {
    const database = getDb();
    const address = `ada-${crypto.randomUUID()}@example.com`;
    const first = await seedProjectWithContacts(database, [address, "other@example.com"]);
    const second = await seedProjectWithContacts(database, [address]);

    expect(await unsubscribeEmail(database.db, address.toUpperCase())).toBe(2);

    const rows = await database.db.selectFrom("contacts").select(["email", "subscribed"]).where("project_id", "in", [first, second]).execute();
    for (const row of rows) expect(row.subscribed).toBe(row.email === "other@example.com");
  });

  it("changes nothing for an unknown address", async () => {
    const database = getDb();
    await seedProjectWithContacts(database, ["known@example.com"]);
    expect(await unsubscribeEmail(database.db, "unknown@example.com")).toBe(0);
    const known = await database.db.selectFrom("contacts").select("subscribed").where("email", "=", "known@example.com").execute();
    expect(known.every((row) => row.subscribed)).toBe(true);
  });
});

it("refuses an empty address or one without an at-sign, and trims a valid one", () => {
  expect(validate(unsubscribeSchema, { email: "" })).toMatchObject({ ok: false, formError: "Please enter a valid email address." });
  expect(validate(unsubscribeSchema, { email: "no-at-sign" })).toMatchObject({ ok: false });
  expect(validate(unsubscribeSchema, {})).toMatchObject({ ok: false, formError: "Please enter a valid email address." });
  expect(validate(unsubscribeSchema, { email: " ada@example.com " })).toEqual({ ok: true, data: { email: "ada@example.com" } });
});
