/** The intro form and, after sending, the forwardable blurb (loaded with the other forms, on demand). */
import { Check, Copy, Mail, PartyPopper } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useRouteLoaderData, useSearchParams, type To } from "react-router";
import { secondaryButtonClass, SubmitButton } from "~/components/ui/buttons";
import { TextAreaField, TextField } from "~/components/ui/form-fields";
import { useCopy } from "~/components/ui/use-copy";
import { toastCopyFailure } from "~/browser/copy-text";
import { guardConfirmationClose } from "~/browser/confirmation-guard";
import { toastConfirmation } from "~/browser/visitor-answers";
import { useHydrated } from "~/components/ui/use-hydrated";
import { introSchema } from "~/modules/contacts/intro-form";
import { INTRO_SENT_MESSAGE, NEXT_STEPS, ROLE_TAGS, type VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { maxLengthOf } from "~/modules/forms/constraints";
import type { loader as rootLoader } from "~/root";
import type { QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import { NameAndEmailFields, QualifyingQuestionField, VisitorFormTop } from "./form-controls";
import { introMailto, introSubject } from "~/browser/intro-blurb";
import { useVisitorForm } from "./use-visitor-form";

export type IntroFormProps = {
  projectTitle: string;
  question: QualifyingQuestion | null;
  closeTo: To;
  onClose: () => void;
  actionData: VisitorActionResult | undefined;
};

export function IntroForm({ projectTitle, question, closeTo, onClose, actionData }: IntroFormProps) {
  const id = useId();
  const [searchParams] = useSearchParams();
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const [submittedName, setSubmittedName] = useState<string | null>(null);
  const form = useVisitorForm({
    intent: "intro",
    actionData,
    onSuccess: (result) => {
      if (!result.held) return;
      toastConfirmation("intro", result);
      onClose();
    },
  });

  // With JavaScript the blurb comes back with the fetcher; without, the server redirected to `?sent=1` and
  // the root loader carries it from a one-shot cookie.
  // A form held for review (decision 50) has no blurb: its answer is a toast, as the other forms' are.
  const fetched = form.fetcher.data?.ok && !form.fetcher.data.held ? (form.fetcher.data.blurb ?? "") : null;
  const flashed = searchParams.get("sent") === "1" ? (rootData?.introBlurb ?? null) : null;
  const blurb = form.busy ? null : (fetched ?? flashed);

  if (blurb !== null) {
    return <IntroBlurb blurb={blurb} subject={introSubject(blurb, projectTitle, submittedName)} closeTo={closeTo} onClose={onClose} />;
  }

  return (
    <form.fetcher.Form
      method="post"
      action={form.action}
      noValidate
      onSubmit={(event) => {
        form.onSubmit(event);
        if (!event.defaultPrevented) setSubmittedName(String(new FormData(event.currentTarget).get("name") ?? "").trim() || null);
      }}
      className="relative space-y-4"
    >
      <VisitorFormTop intent="intro" form={form} />
      <div className="grid gap-4 sm:grid-cols-2">
        <NameAndEmailFields id={id} form={form} autoFocus />
      </div>
      <TextField
        id={`${id}-linkedin`}
        name="linkedinUrl"
        label="LinkedIn URL"
        type="url"
        inputMode="url"
        optional
        autoComplete="url"
        placeholder="https://linkedin.com/in/…"
        maxLength={maxLengthOf(introSchema, "linkedinUrl")}
        defaultValue={form.submitted("linkedinUrl")}
        error={form.fieldError("linkedinUrl")}
      />
      <TextAreaField
        id={`${id}-note`}
        name="note"
        label="Note"
        required
        rows={4}
        maxLength={maxLengthOf(introSchema, "note")}
        placeholder="Who you are, and who you could introduce (or would like to meet)."
        defaultValue={form.submitted("note")}
        error={form.fieldError("note")}
      />
      <fieldset aria-describedby={form.fieldError("roleTags") ? `${id}-roles-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">
          I am <span className="font-normal text-slate-500">(optional, pick any)</span>
        </legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {ROLE_TAGS.map((tag) => (
            <label
              key={tag}
              className="cursor-pointer select-none rounded-full border border-slate-300 bg-white px-3.5 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:border-slate-400 has-checked:border-brand-600 has-checked:bg-brand-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600"
            >
              <input
                type="checkbox"
                name="roleTags"
                value={tag}
                defaultChecked={form.submittedList("roleTags").includes(tag)}
                aria-invalid={form.fieldError("roleTags") ? true : undefined}
                aria-describedby={form.fieldError("roleTags") ? `${id}-roles-error` : undefined}
                className="sr-only"
              />
              {tag}
            </label>
          ))}
        </div>
        {form.fieldError("roleTags") ? (
          <p id={`${id}-roles-error`} className="mt-1 text-sm text-red-600">
            {form.fieldError("roleTags")}
          </p>
        ) : null}
      </fieldset>
      {question ? <QualifyingQuestionField id={id} question={question} form={form} /> : null}
      <SubmitButton busy={form.busy} label="Request Intro" busyLabel="Submitting..." />
    </form.fetcher.Form>
  );
}

type IntroBlurbProps = {
  blurb: string;
  subject: string;
  closeTo: To;
  onClose: () => void;
  /** Shows Copy before React runs: the shared anonymous page's enhancement module wires it (decision 13). */
  copyWithoutReact?: boolean;
};

export function IntroBlurb({ blurb, subject, closeTo, onClose, copyWithoutReact = false }: IntroBlurbProps) {
  const id = useId();
  const copier = useCopy(toastCopyFailure);
  const copied = copier.copied === "blurb";
  const hydrated = useHydrated() || copyWithoutReact;

  const mailto = introMailto(subject, blurb);
  const done = useRef<HTMLAnchorElement>(null);
  useEffect(() => (done.current ? guardConfirmationClose(done.current) : undefined), []);

  return (
    <div className="space-y-4">
      <div role="status" className="flex items-start gap-3 rounded-xl bg-emerald-50 px-4 py-3 text-emerald-800">
        <PartyPopper aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="min-w-0 text-sm">
          {/* The anonymous page's script says 'Your intro request was sent' here when it was kept offline and sent later. */}
          <p className="font-semibold" data-intro-sent-title>
            {INTRO_SENT_MESSAGE}
          </p>
          <p className="mt-0.5 leading-snug">{NEXT_STEPS.intro}</p>
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-blurb`} className="block text-sm font-medium text-slate-800">
          Your forwardable intro blurb
        </label>
        <p className="mt-0.5 text-xs text-slate-500">Send it to anyone who should meet the team.</p>
        <textarea
          id={`${id}-blurb`}
          readOnly
          value={blurb}
          rows={Math.min(10, Math.max(5, blurb.split("\n").length + 1))}
          onFocus={(event) => event.currentTarget.select()}
          className="mt-2 block w-full resize-none rounded-xl border border-slate-200 bg-slate-50 px-3 py-2.5 text-sm leading-relaxed text-slate-800 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
        />
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        {hydrated ? (
          <button type="button" onClick={() => void copier.copy(blurb, "blurb")} className={`${secondaryButtonClass} py-3`} data-autofocus data-copy-blurb>
            {copyWithoutReact ? (
              // Both icons, for the enhancement module to swap (decision 13).
              <>
                <Check aria-hidden className="hidden size-4 text-emerald-600" data-copy-icon="copied" />
                <Copy aria-hidden className="size-4" data-copy-icon="copy" />
              </>
            ) : copied ? (
              <Check aria-hidden className="size-4 text-emerald-600" />
            ) : (
              <Copy aria-hidden className="size-4" />
            )}
            <span aria-live="polite">{copied ? "Copied!" : "Copy"}</span>
          </button>
        ) : null}
        <a href={mailto} className={`${secondaryButtonClass} py-3 ${hydrated ? "" : "sm:col-span-2"}`}>
          <Mail aria-hidden className="size-4" />
          Open in email
        </a>
      </div>
      <Link
        ref={done}
        to={closeTo}
        replace
        preventScrollReset
        data-intro-done
        onClick={(event) => {
          event.preventDefault();
          onClose();
        }}
        className="inline-flex w-full items-center justify-center rounded-xl bg-slate-900 px-4 py-3 text-base font-semibold text-white hover:bg-slate-800"
      >
        Done
      </Link>
    </div>
  );
}
