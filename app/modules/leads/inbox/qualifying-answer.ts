// No zod here: the anonymous pitch page's module checks answers with it (decision 13 keeps zod out of that bundle).
/**
 * One question a founder asks everyone who requests an intro or signals interest: free text, or
 * one of up to six answers; optional or required. Shared by the settings form, both pitch clients and the server.
 */
export type QualifyingQuestion = {
  prompt: string;
  /** The answers to choose from; empty for a free-text question. */
  options: string[];
  required: boolean;
};

/** What a person answered, kept with the question as it was asked (the founder may change it later). */
export type QualifyingAnswer = { question: string; answer: string };

export const QUESTION_LIMITS = { prompt: 200, option: 60, options: 6, answer: 500 } as const;
export const QUESTION_KINDS = ["text", "choice"] as const;

export const QUESTION_MESSAGES = {
  promptTooLong: `Questions must be at most ${QUESTION_LIMITS.prompt} characters`,
  unknownKind: "Choose free text or answers to choose from",
  optionTooLong: `Answers to choose from must be at most ${QUESTION_LIMITS.option} characters`,
  tooFewOptions: "Give at least 2 answers to choose from, or choose free text",
  tooManyOptions: `At most ${QUESTION_LIMITS.options} answers to choose from`,
  duplicateOption: "Each answer to choose from must be different",
  answerRequired: "Please answer the question",
  answerTooLong: `Answer must be less than ${QUESTION_LIMITS.answer} characters`,
  unknownOption: "Choose one of the answers",
} as const;

/** The form field the visitor forms carry the answer in. */
export const ANSWER_FIELD = "answer";

/**
 * Why an answer does not do for the question, or null: a required question left empty, a choice not offered, text too
 * long. Both pitch clients check it before sending, and the server again before writing. With no question, any
 * answer is dropped rather than refused (a form from before the founder removed it).
 */
export function answerProblem(question: QualifyingQuestion | null, answer: string | null): string | null {
  if (!question) return null;
  if (!answer) return question.required ? QUESTION_MESSAGES.answerRequired : null;
  if (answer.length > QUESTION_LIMITS.answer) return QUESTION_MESSAGES.answerTooLong;
  if (question.options.length && !question.options.includes(answer)) return QUESTION_MESSAGES.unknownOption;
  return null;
}
