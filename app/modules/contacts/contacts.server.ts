import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { IntroInput, SubscribeInput } from "~/modules/pitch/visitor-forms";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import { requireViewableProject } from "~/modules/projects/projects.server";

export type VisitorContext = { userId: string | null };

/** The text a founder can forward as-is to whoever should meet this person. */
export function buildIntroBlurb(input: Pick<IntroInput, "name" | "roleTags" | "linkedinUrl" | "note">, projectTitle: string): string {
  const roles = input.roleTags.length ? ` (${input.roleTags.join(", ")})` : "";
  const lines = [`Intro: ${input.name}${roles} → ${projectTitle}`, "", input.note];
  if (input.linkedinUrl) lines.push("", `LinkedIn: ${input.linkedinUrl}`);
  return lines.join("\n");
}

/** An intro request: one contact with intent Intro, its role tags, LinkedIn URL and note. */
export async function submitIntro(db: Kysely<Database>, projectId: string, input: IntroInput, visitor: VisitorContext) {
  const project = await requireViewableProject(db, projectId, visitor.userId);
  const id = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
    .insertInto("contacts")
    .values({
      id,
      project_id: project.id,
      name: input.name,
      email: input.email.toLowerCase(),
      intent: "Intro",
      subscribed: false,
      role_tags: input.roleTags,
      linkedin_url: input.linkedinUrl,
      note: input.note,
      user_id: visitor.userId,
      created_at: new Date().toISOString(),
    })
    .execute();
    await addToProjectStats(trx, project.id, { intros: 1 });
  });
  return { contactId: id, blurb: buildIntroBlurb(input, project.title) };
}

/**
 * Follow updates: every contact of this project with that e-mail becomes subscribed; when there is none,
 * a Subscriber contact is created. Either way the visitor sees the same success.
 */
export async function subscribeToUpdates(db: Kysely<Database>, projectId: string, input: SubscribeInput, visitor: VisitorContext) {
  const project = await requireViewableProject(db, projectId, visitor.userId);
  const email = input.email.toLowerCase();
  return db.transaction().execute(async (trx) => {
    const known = await trx.selectFrom("contacts").select("id").where("project_id", "=", project.id).where("email", "=", email).limit(1).execute();
    if (known.length > 0) {
      const resubscribed = await trx
        .updateTable("contacts")
        .set({ subscribed: true })
        .where("project_id", "=", project.id)
        .where("email", "=", email)
        .where("subscribed", "=", false)
        .executeTakeFirst();
      await addToProjectStats(trx, project.id, { subscribers: Number(resubscribed.numUpdatedRows) });
      return { created: false };
    }
    await trx
      .insertInto("contacts")
      .values({
        id: crypto.randomUUID(),
        project_id: project.id,
        name: input.name,
        email,
        intent: "Subscriber",
        subscribed: true,
        role_tags: [],
        linkedin_url: null,
        note: null,
        user_id: visitor.userId,
        created_at: new Date().toISOString(),
      })
      .execute();
    await addToProjectStats(trx, project.id, { subscribers: 1 });
    return { created: true };
  });
}
