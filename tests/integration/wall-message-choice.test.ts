import { expect, it } from "vitest";
import { hideSignalMessagesFromWall } from "~/db/migrations/0011-wall-message-choice.server";
import { validate } from "~/modules/forms/validation";
import { signalSchema } from "~/modules/signals/signal-form";
import { addWallEntry, readWall, readWallAfter } from "~/modules/recognition/wall.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

const anonymous = { userId: null };

function signalInput(values: Record<string, string>) {
  const result = validate(signalSchema, values);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

describeEachDialect("a signal's message on the Recognition Wall", (getDb) => {
  const choices = [
    { showName: true, showMessage: true, wall: { name: "Ada", message: "Count me in" }, messagePublic: true },
    { showName: true, showMessage: false, wall: { name: "Ada", message: null }, messagePublic: false },
    { showName: false, showMessage: true, wall: null, messagePublic: false },
    { showName: false, showMessage: false, wall: null, messagePublic: false },
  ];

  for (const choice of choices) {
    it(`name ${choice.showName ? "on" : "off"}, message ${choice.showMessage ? "on" : "off"}: stores the choice and the wall shows ${choice.wall ? (choice.wall.message ? "name and message" : "the name only") : "nothing"}`, async () => {
      const { db } = getDb();
      const project = await createProject(db);
      const input = signalInput({
        tierId: project.tiers[0]!.id,
        name: "Ada",
        email: "ada@example.com",
        message: "Count me in",
        ...(choice.showName ? { showName: "on" } : {}),
        ...(choice.showMessage ? { showMessage: "on" } : {}),
      });
      const result = await recordSignal(db, testMailLinks, project.id, input, anonymous);

      const signal = await db.selectFrom("signals").select(["is_public", "message", "message_public"]).where("id", "=", result.signalId).executeTakeFirstOrThrow();
      // The founder always keeps the message; the choice is stored as a real boolean on both databases.
      expect(signal).toEqual({ is_public: choice.showName, message: "Count me in", message_public: choice.messagePublic });

      const wall = await readWall(db, project.id);
      const streamed = await readWallAfter(db, project.id, 0);
      if (choice.wall) {
        expect(wall.entries.map((entry) => ({ name: entry.displayName, message: entry.message }))).toEqual([choice.wall]);
        expect(streamed.map((entry) => ({ name: entry.displayName, message: entry.message }))).toEqual([choice.wall]);
        expect(wall.hiddenSupporters).toBe(0);
      } else {
        expect(wall.entries).toEqual([]);
        expect(streamed).toEqual([]);
        expect(wall.hiddenSupporters).toBe(1);
      }
      // Nothing private is stored where the public wall reads from.
      const stored = await db.selectFrom("recognition_entries").select("message").where("project_id", "=", project.id).execute();
      expect(stored.filter((row) => row.message !== null)).toHaveLength(choice.messagePublic ? 1 : 0);
    });
  }

  it("takes no message on the wall without one, even when chosen", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const input = signalInput({ tierId: project.tiers[0]!.id, name: "Bo", email: "bo@example.com", showName: "on", showMessage: "on" });
    const result = await recordSignal(db, testMailLinks, project.id, input, anonymous);
    const signal = await db.selectFrom("signals").select(["message", "message_public"]).where("id", "=", result.signalId).executeTakeFirstOrThrow();
    expect(signal).toEqual({ message: null, message_public: false });
  });

  it("migration 0011: messages of earlier signals leave the wall, other entries keep theirs, the founder keeps every message", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    // A signal made before the choice existed: its message was copied onto the wall.
    const input = signalInput({ tierId: project.tiers[0]!.id, name: "Early", email: "early@example.com", message: "Old note to the founders", showName: "on", showMessage: "on" });
    const result = await recordSignal(db, testMailLinks, project.id, input, anonymous);
    await addWallEntry(db, { projectId: project.id, type: "Pilot", displayName: "St. Luke's", roleTags: [], message: "Three fridges since March", createdAt: new Date().toISOString() });

    await hideSignalMessagesFromWall(db);

    const wall = await readWall(db, project.id);
    expect(wall.entries.map((entry) => [entry.displayName, entry.message])).toEqual([
      ["St. Luke's", "Three fridges since March"],
      ["Early", null],
    ]);
    const signal = await db.selectFrom("signals").select("message").where("id", "=", result.signalId).executeTakeFirstOrThrow();
    expect(signal.message).toBe("Old note to the founders");
  });
});
