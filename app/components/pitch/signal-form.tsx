import { Check, Info } from "lucide-react";
import { useId, useState } from "react";
import type { PublicTier } from "~/modules/pitch/pitch-page.server";
import type { VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { maxLengthOf } from "~/modules/forms/constraints";
import { signalSchema } from "~/modules/signals/signal-form";
import { formatAmountRange } from "~/modules/formats/amount";
import { SubmitButton } from "~/components/ui/buttons";
import { CheckboxField, TextAreaField } from "~/components/ui/form-fields";
import type { QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import { NameAndEmailFields, QualifyingQuestionField, VisitorFormTop } from "./form-controls";
import { toastConfirmation } from "~/browser/visitor-answers";
import { useVisitorForm } from "./use-visitor-form";

const MESSAGE_MAX = maxLengthOf(signalSchema, "message");

export const SIGNAL_NOTICE = "This is a non-binding signal of interest. No payment is made and no securities are offered.";

/** Exactly what 'Show my name' publishes and what never is, beside the choice (decision 18 for the message). */
export const SHOW_NAME_DISCLOSURE =
  "Ticked, the public wall shows your name and the tier you chose. Your e-mail always stays private, and so does your message unless you also tick the box below.";

export type SignalFormProps = { tiers: PublicTier[]; question: QualifyingQuestion | null; actionData: VisitorActionResult | undefined; onSuccess: () => void };

export function SignalForm({ tiers, question, actionData, onSuccess }: SignalFormProps) {
  const id = useId();
  const [messageLength, setMessageLength] = useState(0);
  // The message is only ever shown with the name: without it, the second choice is off (the server agrees).
  const [showName, setShowName] = useState(true);
  const form = useVisitorForm({
    intent: "signal",
    actionData,
    onSuccess: (result) => {
      toastConfirmation("signal", result);
      onSuccess();
    },
  });
  const tierError = form.fieldError("tierId");

  return (
    <form.fetcher.Form method="post" action={form.action} noValidate onSubmit={form.onSubmit} className="relative space-y-5">
      <VisitorFormTop intent="signal" form={form} />

      <fieldset aria-describedby={tierError ? `${id}-tier-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">
          Interest range
          <span aria-hidden className="ml-0.5 text-red-600">
            *
          </span>
        </legend>
        {tiers.length === 0 ? (
          <p className="mt-2 rounded-xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
            The founders have not set up interest ranges yet. Request an intro instead.
          </p>
        ) : (
          <div className="mt-2 grid gap-2.5 sm:grid-cols-2">
            {tiers.map((tier) => (
              <label
                key={tier.id}
                className="group relative flex cursor-pointer gap-3 rounded-xl border border-slate-200 bg-white p-3.5 shadow-xs transition-colors hover:border-slate-300 has-checked:border-brand-600 has-checked:bg-brand-50/60 has-checked:ring-1 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600"
              >
                <input
                  type="radio"
                  name="tierId"
                  value={tier.id}
                  defaultChecked={form.submitted("tierId") === tier.id}
                  required
                  aria-invalid={tierError ? true : undefined}
                  aria-describedby={tierError ? `${id}-tier-error` : undefined}
                  className="peer sr-only"
                />
                <span
                  aria-hidden
                  className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border-2 border-slate-300 bg-white text-white transition-colors peer-checked:border-brand-600 peer-checked:bg-brand-600"
                >
                  <Check className="size-3 opacity-0 group-has-checked:opacity-100" strokeWidth={3} />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="font-semibold text-slate-900">{tier.rangeLabel}</span>
                    <span className="text-sm font-semibold tabular-nums text-brand-700">{formatAmountRange(tier.rangeMin, tier.rangeMax)}</span>
                  </span>
                  {tier.perks.length ? (
                    <span className="mt-1 block text-xs leading-relaxed text-slate-600">
                      {tier.perks.map((perk, perkIndex) => (
                        <span key={perkIndex} className="block">
                          · {perk}
                        </span>
                      ))}
                    </span>
                  ) : null}
                </span>
              </label>
            ))}
          </div>
        )}
        {tierError ? (
          <p id={`${id}-tier-error`} className="mt-1 text-sm text-red-600">
            {tierError}
          </p>
        ) : null}
      </fieldset>

      <p className="flex gap-2.5 rounded-xl bg-amber-50 px-3.5 py-3 text-sm leading-snug text-amber-900 ring-1 ring-amber-200">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
        <span>{SIGNAL_NOTICE}</span>
      </p>

      <div className="grid gap-4 sm:grid-cols-2">
        <NameAndEmailFields id={id} form={form} />
      </div>
      <TextAreaField
        id={`${id}-message`}
        name="message"
        label="Message"
        optional
        rows={3}
        maxLength={MESSAGE_MAX}
        defaultValue={form.submitted("message")}
        counter={{ length: messageLength, max: MESSAGE_MAX }}
        onChange={(event) => setMessageLength(event.currentTarget.value.length)}
        placeholder="Where we met, what caught your eye…"
        hint="For the founders. It stays off the Recognition Wall unless you choose to show it below."
        error={form.fieldError("message")}
      />
      <div className="space-y-3">
        <CheckboxField
          id={`${id}-show-name`}
          name="showName"
          value="on"
          defaultChecked
          onChange={(event) => setShowName(event.currentTarget.checked)}
          label="Show my name on the Recognition Wall"
          hint={SHOW_NAME_DISCLOSURE}
          error={form.fieldError("showName")}
        />
        <CheckboxField
          id={`${id}-show-message`}
          name="showMessage"
          value="on"
          disabled={!showName}
          label="Also show my message on the wall"
          error={form.fieldError("showMessage")}
        />
      </div>
      {question ? <QualifyingQuestionField id={id} question={question} form={form} /> : null}
      <SubmitButton busy={form.busy} label="Signal Interest" busyLabel="Submitting..." disabled={tiers.length === 0} />
    </form.fetcher.Form>
  );
}
