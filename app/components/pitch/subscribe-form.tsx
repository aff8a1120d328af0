import { useId } from "react";
import { useParams } from "react-router";
import type { VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { savedListStorage } from "~/modules/saved/saved-list";
import { toastConfirmation } from "~/browser/visitor-answers";
import { rememberFollowing } from "~/browser/following";
import { SubmitButton } from "~/components/ui/buttons";
import { CheckboxField } from "~/components/ui/form-fields";
import { NameAndEmailFields, VisitorFormTop } from "./form-controls";
import { useVisitorForm } from "./use-visitor-form";

export type SubscribeFormProps = { onClose: () => void; actionData: VisitorActionResult | undefined };

export function SubscribeForm({ onClose, actionData }: SubscribeFormProps) {
  const id = useId();
  const { slug } = useParams();
  const form = useVisitorForm({
    intent: "subscribe",
    actionData,
    // Closing unmounts the form, which resets it.
    onSuccess: (result) => {
      toastConfirmation("subscribe", result);
      if (slug && !result.held) rememberFollowing(savedListStorage(), slug);
      onClose();
    },
  });

  return (
    <form.fetcher.Form method="post" action={form.action} noValidate onSubmit={form.onSubmit} className="relative space-y-4">
      <VisitorFormTop intent="subscribe" form={form} />
      <NameAndEmailFields id={id} form={form} autoFocus />
      <CheckboxField id={`${id}-consent`} name="consent" label="I agree to receive project updates by e-mail" error={form.fieldError("consent")} />
      <SubmitButton busy={form.busy} label="Follow Updates" busyLabel="Subscribing..." />
    </form.fetcher.Form>
  );
}
