import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { DomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { findViewableProjectRefBySlug } from "~/modules/projects/projects.server";
import { consumeRateLimit } from "~/modules/rate-limit/rate-limit.server";
import { readWall, readWallAfter } from "~/modules/recognition/wall.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

const anonymous = { userId: null };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

describeEachDialect("intro, subscription and signal", (getDb) => {
  it("stores an intro as an Intro contact with role tags, LinkedIn and note, and returns the blurb", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const input = parse(introSchema, {
      name: "  Ada Lovelace ",
      email: "Ada@Example.com",
      linkedinUrl: "https://www.linkedin.com/in/ada",
      note: "Happy to intro you to two cold-chain buyers.",
      roleTags: ["Angel", "Operator"],
    });
    const result = await submitIntro(db, testMailLinks, project.id, input, anonymous);
    expect(result.blurb).toContain("Ada Lovelace (Angel, Operator)");
    expect(result.blurb).toContain("Happy to intro you");
    const contact = await db.selectFrom("contacts").selectAll().where("id", "=", result.contactId).executeTakeFirstOrThrow();
    expect(contact).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
      intent: "Intro",
      subscribed: false,
      role_tags: ["Angel", "Operator"],
      linkedin_url: "https://www.linkedin.com/in/ada",
      note: "Happy to intro you to two cold-chain buyers.",
    });
  });

  it("refuses an intro for a draft or unknown project and stores nothing", async () => {
    const { db } = getDb();
    const draft = await createProject(db, { status: "draft" });
    const input = parse(introSchema, { name: "A", email: "a@example.com", note: "n" });
    await expect(submitIntro(db, testMailLinks, draft.id, input, anonymous)).rejects.toMatchObject({ code: "not_found" });
    await expect(submitIntro(db, testMailLinks, "no-such-project", input, anonymous)).rejects.toBeInstanceOf(DomainError);
    const count = await db.selectFrom("contacts").select("id").where("project_id", "=", draft.id).execute();
    expect(count).toHaveLength(0);
  });

  it("lets the owner act on their own draft", async () => {
    const { db } = getDb();
    const draft = await createProject(db, { status: "draft" });
    const input = parse(introSchema, { name: "A", email: "a@example.com", note: "n" });
    await expect(submitIntro(db, testMailLinks, draft.id, input, { userId: draft.ownerId })).resolves.toMatchObject({ contactId: expect.any(String) });
  });

  it("finds the project a pitch page's form posts to by its slug: a published one for anyone, a draft only for its owner", async () => {
    const { db } = getDb();
    const published = await createProject(db);
    const draft = await createProject(db, { status: "draft" });
    await expect(findViewableProjectRefBySlug(db, published.slug, null)).resolves.toEqual({ id: published.id, slug: published.slug });
    await expect(findViewableProjectRefBySlug(db, draft.slug, null)).resolves.toBeNull();
    await expect(findViewableProjectRefBySlug(db, draft.slug, published.ownerId)).resolves.toBeNull();
    await expect(findViewableProjectRefBySlug(db, draft.slug, draft.ownerId)).resolves.toEqual({ id: draft.id, slug: draft.slug });
    await expect(findViewableProjectRefBySlug(db, "no-such-project", null)).resolves.toBeNull();
    await expect(findViewableProjectRefBySlug(db, "Not A Slug!", null)).resolves.toBeNull();
  });

  it("subscribes a new address as a Subscriber and re-subscribes an existing contact instead of duplicating it", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const input = parse(subscribeSchema, { consent: "on", name: "Grace", email: "grace@example.com" });
    expect(await subscribeToUpdates(db, testMailLinks, project.id, input, anonymous)).toEqual({ created: true });
    await db.updateTable("contacts").set({ subscribed: false }).where("project_id", "=", project.id).execute();
    expect(await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Grace", email: "GRACE@example.com" }), anonymous)).toEqual({ created: false });
    const contacts = await db.selectFrom("contacts").selectAll().where("project_id", "=", project.id).execute();
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ intent: "Subscriber", subscribed: true, email: "grace@example.com" });
  });

  it("records a public signal: contact, signal with the tier's range, and a Supporter wall entry with the tier, in one go", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const tier = project.tiers[0]!;
    const input = parse(signalSchema, { tierId: tier.id, name: "Linus", email: "linus@example.com", message: "In!", showName: "on", showMessage: "on" });
    const result = await recordSignal(db, testMailLinks, project.id, input, anonymous);

    const signal = await db.selectFrom("signals").selectAll().where("id", "=", result.signalId).executeTakeFirstOrThrow();
    expect(signal).toMatchObject({ range_label: "Angel", range_min: 5000, range_max: 25000, amount: 5000, is_public: true, message: "In!" });
    const contact = await db.selectFrom("contacts").selectAll().where("id", "=", signal.contact_id).executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ intent: "Supporter", name: "Linus" });
    const wall = await readWall(db, project.id);
    expect(wall.entries.map((entry) => entry.displayName)).toEqual(["Linus"]);
    expect(wall.entries[0]).toEqual({
      id: result.wallEntryId,
      seq: 1,
      type: "Supporter",
      displayName: "Linus",
      roleTags: ["Angel"],
      message: "In!",
      createdAt: expect.any(String),
    });
    expect(wall.hiddenSupporters).toBe(0);
  });

  it("counts a private signal without putting the name on the wall", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const input = parse(signalSchema, { tierId: project.tiers[1]!.id, name: "Secret Sam", email: "sam@example.com" });
    expect(input.showName).toBe(false);
    const result = await recordSignal(db, testMailLinks, project.id, input, anonymous);
    expect(result.wallEntryId).toBeNull();
    const wall = await readWall(db, project.id);
    expect(wall.entries).toHaveLength(0);
    expect(wall.hiddenSupporters).toBe(1);
    const signal = await db.selectFrom("signals").selectAll().where("id", "=", result.signalId).executeTakeFirstOrThrow();
    expect(signal).toMatchObject({ range_min: 1_000_000, range_max: null, amount: 1_000_000, is_public: false });
  });

  it("answers 'Tier not found' for a tier of another project and leaves nothing behind", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const input = parse(signalSchema, { tierId: other.tiers[0]!.id, name: "Eve", email: "eve@example.com", showName: "on" });
    await expect(recordSignal(db, testMailLinks, project.id, input, anonymous)).rejects.toMatchObject({ code: "not_found", message: "Tier not found" });
    expect(await db.selectFrom("contacts").select("id").where("project_id", "=", project.id).execute()).toHaveLength(0);
    expect(await db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toHaveLength(0);
  });

  it("rolls the whole signal back when the last write fails", async () => {
    const { db, dialect } = getDb();
    const project = await createProject(db);
    // Make the wall insert (the third write, after the contact and the signal) fail for this one name.
    if (dialect === "sqlite") {
      await sql`create trigger refuse_rollback before insert on recognition_entries when new.display_name = 'Rollback' begin select raise(abort, 'refused'); end`.execute(db);
    } else {
      await sql`create function refuse_rollback() returns trigger language plpgsql as $$ begin if new.display_name = 'Rollback' then raise exception 'refused'; end if; return new; end $$`.execute(db);
      await sql`create trigger refuse_rollback before insert on recognition_entries for each row execute function refuse_rollback()`.execute(db);
    }
    const input = parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Rollback", email: "r@example.com", showName: "on" });
    await expect(recordSignal(db, testMailLinks, project.id, input, anonymous)).rejects.toThrow(/refused/);
    expect(await db.selectFrom("contacts").select("id").where("project_id", "=", project.id).execute()).toHaveLength(0);
    expect(await db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toHaveLength(0);
    expect((await readWall(db, project.id)).entries).toHaveLength(0);
    await sql`drop trigger refuse_rollback${dialect === "postgres" ? sql` on recognition_entries` : sql``}`.execute(db);
  });

  it("bumps the page's content version with every signal, so cached pages refresh", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const before = await db.selectFrom("projects").select("content_version").where("id", "=", project.id).executeTakeFirstOrThrow();
    const input = parse(signalSchema, { tierId: project.tiers[0]!.id, name: "V", email: "v@example.com" });
    await recordSignal(db, testMailLinks, project.id, input, anonymous);
    const after = await db.selectFrom("projects").select("content_version").where("id", "=", project.id).executeTakeFirstOrThrow();
    expect(after.content_version).toBe(before.content_version + 1);
  });

  it("reads wall entries after a cursor, oldest first, for a resuming stream", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const written: { id: number; seq: number }[] = [];
    for (const name of ["One", "Two", "Three"]) {
      const input = parse(signalSchema, { tierId: project.tiers[0]!.id, name, email: `${name}@example.com`, showName: "on" });
      const result = await recordSignal(db, testMailLinks, project.id, input, anonymous);
      written.push({ id: result.wallEntryId!, seq: result.wallSeq! });
    }
    expect(written.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    const after = await readWallAfter(db, project.id, written[0]!.seq);
    expect(after.map((entry) => [entry.displayName, entry.seq])).toEqual([
      ["Two", 2],
      ["Three", 3],
    ]);
    await db.updateTable("recognition_entries").set({ hidden: true }).where("id", "=", written[2]!.id).execute();
    expect((await readWallAfter(db, project.id, written[0]!.seq)).map((entry) => entry.displayName)).toEqual(["Two"]);
  });
});

describeEachDialect("public form rate limit", (getDb) => {
  it("allows the window's allowance, refuses the next with a clear message, and starts over after the window", async () => {
    const { db } = getDb();
    const rule = { windowSeconds: 60, max: 3, message: "Slow down" };
    const key = `form:test-${crypto.randomUUID()}`;
    const now = Date.now();
    for (let i = 0; i < 3; i += 1) await consumeRateLimit(db, key, rule, now + i);
    await expect(consumeRateLimit(db, key, rule, now + 10)).rejects.toMatchObject({ code: "rate_limited", message: "Slow down" });
    await expect(consumeRateLimit(db, `${key}-other`, rule, now + 10)).resolves.toBeUndefined();
    await expect(consumeRateLimit(db, key, rule, now + 61_000)).resolves.toBeUndefined();
  });
});

describe("visitor form schemas", () => {
  it.each([
    [introSchema, { name: "", email: "a@example.com", note: "n" }, "Please fill in all required fields"],
    [introSchema, { name: "A", email: "not-an-email", note: "n" }, "Please enter a valid email address"],
    [introSchema, { name: "A", email: "a@example.com", note: "" }, "Please fill in all required fields"],
    [introSchema, { name: "A", email: "a@example.com", note: "n", linkedinUrl: "javascript:alert(1)" }, "Please enter a valid LinkedIn URL (starting with https://)"],
    [introSchema, { name: "A", email: "a@example.com", note: "n", roleTags: ["Wizard"] }, "Unknown role tag"],
    [subscribeSchema, { name: "A", email: "a@example.com" }, "Please agree to receive updates."],
    [signalSchema, { tierId: "", name: "A", email: "a@example.com" }, "Please fill in all required fields"],
    [signalSchema, { tierId: "t", name: "x".repeat(101), email: "a@example.com" }, "Name must be less than 100 characters"],
    [signalSchema, { tierId: "t", name: "A", email: `${"e".repeat(250)}@example.com` }, "Email must be less than 255 characters"],
    [signalSchema, { tierId: "t", name: "A", email: "a@example.com", message: "m".repeat(1001) }, "Message must be less than 1000 characters"],
  ] as const)("rejects bad input with the spec's message (%#)", (schema, input, message) => {
    const result = validate(schema, input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.formError).toBe(message);
  });

  it("trims text and turns empty optional fields into null", () => {
    const result = validate(introSchema, { name: " A ", email: " a@example.com ", note: " hi ", linkedinUrl: "  " });
    expect(result).toEqual({ ok: true, data: { name: "A", email: "a@example.com", note: "hi", linkedinUrl: null, roleTags: [], answer: null } });
  });
});
