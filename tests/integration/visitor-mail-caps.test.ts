import { expect, it } from "vitest";
import { subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { unsubscribeContact } from "~/modules/contacts/unsubscribe.server";
import { validate } from "~/modules/forms/validation";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { VISITOR_MAIL_CAPS } from "~/modules/rate-limit/rate-limit.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const visitor = { userId: null };

describeEachDialect("mails a visitor can trigger, per recipient", (getDb) => {
  const mailsTo = async (recipient: string, kind?: string) => {
    let query = getDb().db.selectFrom("mail_outbox").select("id").where("recipient", "=", recipient);
    if (kind) query = query.where("kind", "=", kind);
    return (await query.execute()).length;
  };

  it("sends a victim at most three welcomes per project per hour, while the last subscription still takes effect", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const victim = "victim-welcome@example.com";
    const input = parse(subscribeSchema, { name: "Victim", email: victim, consent: "on" });
    for (let round = 0; round < 8; round += 1) {
      await subscribeToUpdates(db, testMailLinks, project.id, input, visitor);
      const contact = await db.selectFrom("contacts").select("id").where("project_id", "=", project.id).where("email", "=", victim).executeTakeFirstOrThrow();
      await unsubscribeContact(db, contact.id);
    }
    await subscribeToUpdates(db, testMailLinks, project.id, input, visitor);

    expect(await mailsTo(victim)).toBe(VISITOR_MAIL_CAPS.perProject.max);
    const contact = await db.selectFrom("contacts").select("subscribed").where("project_id", "=", project.id).where("email", "=", victim).executeTakeFirstOrThrow();
    expect(Boolean(contact.subscribed)).toBe(true);
    const stats = await db.selectFrom("project_stats").select("subscribers").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(Number(stats.subscribers)).toBe(1);
  });

  it("sends one address at most ten visitor mails a day across projects, and leaves other addresses alone", async () => {
    const { db } = getDb();
    const victim = "victim-across@example.com";
    for (let index = 0; index < 14; index += 1) {
      const project = await createProject(db);
      await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { name: "Victim", email: victim, consent: "on" }), visitor);
    }
    expect(await mailsTo(victim)).toBe(VISITOR_MAIL_CAPS.acrossProjects.max);
    expect(await db.selectFrom("contacts").select("id").where("email", "=", victim).execute()).toHaveLength(14);

    const bystander = "bystander@example.com";
    const project = await createProject(db);
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { name: "B", email: bystander, consent: "on" }), visitor);
    expect(await mailsTo(bystander)).toBe(1);
  });

  it("caps signal confirmations per recipient too, while every signal is stored", async () => {
    const { db } = getDb();
    const victim = "Victim-Signal@Example.com";
    for (let index = 0; index < 3; index += 1) {
      const project = await createProject(db);
      for (const tier of project.tiers) {
        await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: tier.id, name: "V", email: victim }), visitor);
      }
      // Per project: two tiers, two confirmations, both within the hourly three.
      expect(await db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toHaveLength(2);
    }
    // Six signals across three projects, all confirmed; the cap is per recipient, the address's case does not matter.
    expect(await mailsTo(victim.toLowerCase(), "signal-confirmation")).toBe(6);
    const project = await createProject(db);
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { name: "V", email: victim, consent: "on" }), visitor);
    for (let index = 0; index < 6; index += 1) {
      const next = await createProject(db);
      await recordSignal(db, testMailLinks, next.id, parse(signalSchema, { tierId: next.tiers[0]!.id, name: "V", email: victim }), visitor);
    }
    expect(await mailsTo(victim.toLowerCase())).toBe(VISITOR_MAIL_CAPS.acrossProjects.max);
  });
});

describeEachDialect("a repeated signal updates the first", (getDb) => {
  it("turns 100 concurrent identical signals into one signal, one wall entry and one confirmation", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const input = parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Dana", email: "dana@example.com", message: "In!", showName: "on", showMessage: "on" });
    const results = await Promise.all(Array.from({ length: 100 }, () => recordSignal(db, testMailLinks, project.id, input, visitor)));

    expect(new Set(results.map((result) => result.signalId)).size).toBe(1);
    expect(results.filter((result) => !result.repeated)).toHaveLength(1);
    expect(await db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("recognition_entries").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("mail_outbox").select("id").where("recipient", "=", "dana@example.com").execute()).toHaveLength(1);
    const stats = await db.selectFrom("project_stats").select("signals").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(Number(stats.signals)).toBe(1);
  });

  it("takes a repeat's name, message and visibility on the first signal and its wall entry", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const tierId = project.tiers[0]!.id;
    const first = await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId, name: "Quiet", email: "q@example.com" }), visitor);
    expect(first.wallEntryId).toBeNull();

    const shown = await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId, name: "Loud", email: "q@example.com", message: "Hi", showName: "on", showMessage: "on" }), visitor);
    expect(shown).toMatchObject({ signalId: first.signalId, repeated: true });
    const entry = await db.selectFrom("recognition_entries").selectAll().where("id", "=", shown.wallEntryId!).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ display_name: "Loud", message: "Hi" });
    expect(Boolean(entry.is_public)).toBe(true);

    const edited = await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId, name: "Loud", email: "q@example.com", message: "Changed", showName: "on" }), visitor);
    expect(edited.wallEntryId).toBe(shown.wallEntryId);
    expect(await db.selectFrom("recognition_entries").select("message").where("id", "=", shown.wallEntryId!).executeTakeFirstOrThrow()).toEqual({ message: null });

    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId, name: "Loud", email: "q@example.com" }), visitor);
    const hidden = await db.selectFrom("recognition_entries").select("is_public").where("id", "=", shown.wallEntryId!).executeTakeFirstOrThrow();
    expect(Boolean(hidden.is_public)).toBe(false);
    const signal = await db.selectFrom("signals").selectAll().where("id", "=", first.signalId).executeTakeFirstOrThrow();
    expect(signal).toMatchObject({ message: null });
    expect(Boolean(signal.is_public)).toBe(false);
    expect(await db.selectFrom("signals").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("recognition_entries").select("id").where("project_id", "=", project.id).execute()).toHaveLength(1);

    // Another tier is another signal.
    const other = await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[1]!.id, name: "Loud", email: "q@example.com" }), visitor);
    expect(other.signalId).not.toBe(first.signalId);
  });
});
