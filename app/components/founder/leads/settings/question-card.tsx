import { ListChecks } from "lucide-react";
import { useState } from "react";
import { primaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { bareInputClass, CheckboxField, describedBy, FieldError, FormAlert, labelClass, TextField } from "~/components/ui/form-fields";
import { useHydrated } from "~/components/ui/use-hydrated";
import { QUESTION_KINDS, QUESTION_LIMITS, type QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import { qualifyingQuestionSchema, readQuestionForm } from "~/modules/leads/inbox/qualifying-question";
import type { SettingsResult } from "./settings-result";
import { SaveButton, useSettingsForm } from "./settings-form";

/**
 * One question for everyone who requests an intro or signals interest, free text or one of up to
 * six answers, optional or required. Clearing the text removes it.
 */
export function QuestionCard({ action, question, documentResult }: { action: string; question: QualifyingQuestion | null; documentResult?: SettingsResult | undefined }) {
  const [kind, setKind] = useState<(typeof QUESTION_KINDS)[number]>(question?.options.length ? "choice" : "text");
  const hydrated = useHydrated();
  const { fetcher, busy, form, field, formError } = useSettingsForm<SettingsResult>(qualifyingQuestionSchema, { id: "question", lastResult: (posted) => posted ?? documentResult, read: readQuestionForm });
  const prompt = field("prompt");
  const kindField = field("kind");
  const optionsError = field("options").error;
  return (
    <SectionCard
      id="question-title"
      title="Your question"
      icon={ListChecks}
      description="Ask everyone who requests an intro or signals interest one thing you want to know first. Their answer shows on the lead."
    >
      <fetcher.Form method="post" action={action} {...form} className="space-y-5">
        <input type="hidden" name="intent" value="question" />
        <TextField
          {...prompt}
          label="Question"
          optional
          hint="Leave it empty to ask nothing."
          defaultValue={question?.prompt ?? ""}
          placeholder="What stage do you invest in?"
        />
        <fieldset id={kindField.id}>
          <legend className={labelClass}>Answers</legend>
          <div className="mt-2 grid grid-cols-2 gap-2">
            {QUESTION_KINDS.map((value) => (
              <label
                key={value}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2.5 text-sm font-medium text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-700"
              >
                <input
                  type="radio"
                  name={kindField.name}
                  value={value}
                  checked={kind === value}
                  onChange={() => setKind(value)}
                  data-error-slot={kindField["data-error-slot"]}
                  className="accent-brand-600"
                />
                {value === "text" ? "Free text" : "Choose one"}
              </label>
            ))}
          </div>
          <FieldError id={`${kindField.id}-error`} message={kindField.error} />
        </fieldset>
        {/* Without JavaScript the answers stay on screen, used only for 'Choose one'. */}
        {kind === "choice" || !hydrated ? (
          <fieldset id={field("options").id} aria-describedby={describedBy(optionsError && `${field("options").id}-error`)}>
            <legend className={labelClass}>
              Answers to choose from <span className="font-normal text-slate-500">(2 to {QUESTION_LIMITS.options})</span>
            </legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {Array.from({ length: QUESTION_LIMITS.options }, (_, index) => {
                const option = field(`options.${index}`);
                return (
                  <div key={index}>
                    <input
                      id={option.id}
                      name="options"
                      maxLength={option.maxLength}
                      data-error-slot={option["data-error-slot"]}
                      defaultValue={question?.options[index] ?? ""}
                      aria-label={`Answer ${index + 1}`}
                      placeholder={index < 2 ? ["Pre-seed", "Seed"][index] : undefined}
                      aria-invalid={option.error ? true : undefined}
                      aria-describedby={describedBy(option.error && `${option.id}-error`)}
                      className={bareInputClass}
                    />
                    <FieldError id={`${option.id}-error`} message={option.error} />
                  </div>
                );
              })}
            </div>
            <FieldError id={`${field("options").id}-error`} message={optionsError} />
          </fieldset>
        ) : null}
        <CheckboxField
          id="question-required"
          name="required"
          value="on"
          defaultChecked={question?.required ?? false}
          label="Required"
          hint="Without an answer, the form is not sent. Keep it optional to lose no one."
        />
        <FormAlert message={formError} />
        <SaveButton busy={busy} label="Save question" className={`${primaryButtonClass} w-full sm:w-auto`} />
      </fetcher.Form>
    </SectionCard>
  );
}
