import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { bumpContentVersion } from "~/modules/projects/projects.server";
import { ANSWER_FIELD, answerProblem, type QualifyingAnswer, type QualifyingQuestion } from "./qualifying-answer";
import type { QualifyingQuestionInput } from "./qualifying-question";

type QuestionColumns = { question_prompt: string | null; question_options: string[]; question_required: boolean };

export function questionOf(row: QuestionColumns): QualifyingQuestion | null {
  return row.question_prompt ? { prompt: row.question_prompt, options: row.question_options, required: Boolean(row.question_required) } : null;
}

/** The project's qualifying question, as its pitch page asks it; null when it asks none. */
export async function readQualifyingQuestion(db: Kysely<Database>, projectId: string): Promise<QualifyingQuestion | null> {
  const row = await db.selectFrom("projects").select(["question_prompt", "question_options", "question_required"]).where("id", "=", projectId).executeTakeFirst();
  return row ? questionOf(row) : null;
}

/** Sets (or, with null, removes) the project's question; the pitch page shows the change at once. */
export async function saveQualifyingQuestion(db: Kysely<Database>, ownerId: string, projectId: string, input: QualifyingQuestionInput): Promise<void> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("projects")
      .set({ question_prompt: input?.prompt ?? null, question_options: input?.options ?? [], question_required: input?.required ?? false })
      .where("id", "=", project.id)
      .execute();
    await bumpContentVersion(trx, project.id);
  });
}

/**
 * A visitor's answer checked against the project's question as it stands (the project row the visitor write already
 * read): refused (`invalid_input` on the answer field) when it does not do, kept with the question's text when given,
 * dropped when the project asks nothing.
 */
export function checkedAnswer(project: QuestionColumns, answer: string | null): QualifyingAnswer | null {
  const question = questionOf(project);
  const problem = answerProblem(question, answer);
  if (problem) throw new DomainError("invalid_input", problem, { [ANSWER_FIELD]: problem });
  return question && answer ? { question: question.prompt, answer } : null;
}
