import { FormAlert, TextAreaField, TextField } from "~/components/ui/form-fields";
import { ANSWER_FIELD, QUESTION_LIMITS, type QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import { visitorEmail, visitorName } from "~/modules/forms/visitor-fields";
import { HONEYPOT_FIELD } from "~/modules/contacts/visitor-form-rules";
import { maxLengthOf } from "~/modules/forms/constraints";

/** A field people never see or fill; a value means a script filled the form (spam). */
export function Honeypot() {
  return (
    <div aria-hidden style={{ position: "absolute", left: "-9999px", top: "auto", width: 1, height: 1, overflow: "hidden" }}>
      <label>
        Website
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" aria-hidden defaultValue="" />
      </label>
    </div>
  );
}

/**
 * What every visitor form posts before its fields: its intent, `via=fetch` once the page runs its script (the answer
 * is then data, not a page), the honeypot, and the form's own message.
 */
export function VisitorFormTop({ intent, form }: { intent: "intro" | "signal" | "subscribe"; form: { hydrated: boolean; errors?: { formError?: string } | null } }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {form.hydrated ? <input type="hidden" name="via" value="fetch" /> : null}
      <Honeypot />
      <FormAlert message={form.errors?.formError} />
    </>
  );
}

type ContactForm = { submitted(field: string): string | undefined; fieldError(field: string): string | undefined };

/** Name and e-mail, as all three visitor forms ask for them (limits: 100 and 255). */
export function NameAndEmailFields({ id, form, autoFocus }: { id: string; form: ContactForm; autoFocus?: boolean }) {
  return (
    <>
      <TextField
        id={`${id}-name`}
        name="name"
        label="Name"
        required
        autoComplete="name"
        maxLength={maxLengthOf(visitorName)}
        defaultValue={form.submitted("name")}
        error={form.fieldError("name")}
        {...(autoFocus ? { "data-autofocus": true } : {})}
      />
      <TextField
        id={`${id}-email`}
        name="email"
        label="Email"
        type="email"
        inputMode="email"
        required
        autoComplete="email"
        maxLength={maxLengthOf(visitorEmail)}
        defaultValue={form.submitted("email")}
        error={form.fieldError("email")}
      />
    </>
  );
}

/**
 * The project's qualifying question on the intro and signal forms: free text, or one answer of up
 * to six. The question travels on the field (`data-qualifying-question`) so the check before sending, shared by both
 * pitch clients, reads it from the form itself.
 */
export function QualifyingQuestionField({ id, question, form }: { id: string; question: QualifyingQuestion; form: ContactForm }) {
  const error = form.fieldError(ANSWER_FIELD);
  const errorId = `${id}-answer-error`;
  const described = JSON.stringify(question);
  if (!question.options.length) {
    return (
      <div data-qualifying-question={described}>
        <TextAreaField
          id={`${id}-answer`}
          name={ANSWER_FIELD}
          label={question.prompt}
          required={question.required}
          optional={!question.required}
          rows={2}
          maxLength={QUESTION_LIMITS.answer}
          defaultValue={form.submitted(ANSWER_FIELD)}
          error={error}
        />
      </div>
    );
  }
  const submitted = form.submitted(ANSWER_FIELD);
  return (
    <fieldset data-qualifying-question={described} aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">
        {question.prompt}
        {question.required ? (
          <span aria-hidden className="ml-0.5 text-red-600">
            *
          </span>
        ) : (
          <span className="font-normal text-slate-500"> (optional)</span>
        )}
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {question.options.map((option) => (
          <label
            key={option}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-slate-200 bg-white px-3.5 py-2.5 text-sm font-medium text-slate-800 hover:border-slate-300 has-checked:border-brand-600 has-checked:bg-brand-50/60 has-checked:ring-1 has-checked:ring-brand-600"
          >
            <input
              type="radio"
              name={ANSWER_FIELD}
              value={option}
              required={question.required}
              defaultChecked={submitted === option}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className="size-4 shrink-0 accent-brand-600"
            />
            {option}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
