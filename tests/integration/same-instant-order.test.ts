// Rows made in one millisecond (a burst at the booth, two taps at once) come back in one order on every load: each
// list ordered by a time has the row's id as its last key, so which rows a limited list shows and the order of the
// rest never depend on how the database happened to store them (decision 75).
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { loadActivityFeed } from "~/modules/activity/activity.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { listTeamProjects } from "~/modules/projects/founder-projects.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { listMySignals } from "~/modules/signals/my-signals.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

const INSTANT = new Date("2026-09-14T10:00:00.000Z");

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

function visitorAt(viewer: string, userId: string | null = null) {
  return { userId, identity: { viewerFingerprint: viewer, addressHash: null }, sent: { at: INSTANT } };
}

/** The rows' ids, highest first, as the database compares them (its collation, not JavaScript's). */
async function idsDescending(db: Kysely<Database>, table: "intros" | "signals", projectId: string): Promise<string[]> {
  return (await db.selectFrom(table).select("id").where("project_id", "=", projectId).orderBy("id", "desc").execute()).map((row) => row.id);
}

describeEachDialect("rows made in one millisecond", (getDb) => {
  it("the founder's feed shows the same ten of twelve intros made at once, in one order", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    for (let index = 0; index < 12; index += 1) {
      const tag = `${index}-${project.id.slice(0, 6)}`;
      await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: `Guest ${index}`, email: `guest-${tag}@example.com`, note: "Met at the booth" }), visitorAt(`viewer-${tag}`));
    }

    const shown = (await loadActivityFeed(db, project.ownerId)).filter((item) => item.type === "intro").map((item) => item.id);
    expect(shown).toEqual((await idsDescending(db, "intros", project.id)).slice(0, 10).map((id) => `intro-${id}`));
  });

  it("My Signals lists signals made at once in one order", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const investorEmail = `investor-${project.id.slice(0, 6)}@example.com`;
    const investorId = await createUser(db, { email: investorEmail });
    for (let index = 0; index < 4; index += 1) {
      const input = { tierId: project.tiers[index % 2]!.id, name: "Ines Investor", email: `fund-${index}-${project.id.slice(0, 6)}@example.com`, message: "" };
      await recordSignal(db, testMailLinks, project.id, parse(signalSchema, input), visitorAt(`investor-${index}-${project.id}`, investorId));
    }

    const listed = await listMySignals(db, { id: investorId, email: investorEmail, emailVerified: false });
    expect(listed.map((signal) => signal.id)).toEqual(await idsDescending(db, "signals", project.id));
  });

  it("My Projects lists projects made in one instant in one order", async () => {
    const { db } = getDb();
    const ownerId = await createUser(db);
    for (let index = 0; index < 4; index += 1) await createProject(db, { ownerId });
    await db.updateTable("projects").set({ created_at: INSTANT.toISOString() }).where("owner_id", "=", ownerId).execute();
    const ids = await db.selectFrom("projects").select("id").where("owner_id", "=", ownerId).orderBy("id", "desc").execute();

    expect((await listTeamProjects(db, ownerId)).map((project) => project.id)).toEqual(ids.map((row) => row.id));
  });
});
