import { z } from "zod/mini";
import { checkbox, optionalText, text } from "~/modules/forms/fields";
import { readFormFields } from "~/modules/forms/validation";
import { QUESTION_KINDS, QUESTION_LIMITS, QUESTION_MESSAGES, type QualifyingQuestion } from "./qualifying-answer";

/** The visitor forms' answer before the project's question is known: trimmed, bounded, empty is none. */
export const answerField = optionalText(QUESTION_LIMITS.answer, QUESTION_MESSAGES.answerTooLong);

/**
 * The founder's question settings, run by the browser and the server. An empty question removes it; a choice
 * question keeps its non-empty answers, two to six, each different (compared without case).
 */
export const qualifyingQuestionSchema = z.pipe(
  z.object({
    prompt: optionalText(QUESTION_LIMITS.prompt, QUESTION_MESSAGES.promptTooLong),
    kind: z._default(z.enum(QUESTION_KINDS, QUESTION_MESSAGES.unknownKind), "text"),
    options: z._default(z.array(text(QUESTION_LIMITS.option, QUESTION_MESSAGES.optionTooLong)), []),
    required: checkbox,
  }),
  z.transform((input, ctx): QualifyingQuestion | null => {
    if (!input.prompt) return null;
    if (input.kind === "text") return { prompt: input.prompt, options: [], required: input.required };
    const options = input.options.filter(Boolean);
    const problem =
      options.length < 2
        ? QUESTION_MESSAGES.tooFewOptions
        : options.length > QUESTION_LIMITS.options
          ? QUESTION_MESSAGES.tooManyOptions
          : new Set(options.map((option) => option.toLowerCase())).size < options.length
            ? QUESTION_MESSAGES.duplicateOption
            : null;
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: input.options, path: ["options"] });
    return { prompt: input.prompt, options, required: input.required };
  }),
);
export type QualifyingQuestionInput = z.infer<typeof qualifyingQuestionSchema>;


/** The settings form as the schema reads it, in the browser and on the server: the answers to choose from as a list. */
export const readQuestionForm = (form: FormData) => readFormFields(form, { options: QUESTION_LIMITS.options });
