import { useId } from "react";
import { toast } from "sonner";
import { useParams } from "react-router";
import { CONFIRMATION_TOAST_MS, confirmationText, type VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { savedListStorage } from "~/modules/saved/saved-list";
import { rememberFollowing } from "./following";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { SubmitButton } from "~/components/ui/buttons";
import { CheckboxField, FormAlert } from "~/components/ui/form-fields";
import { Honeypot, NameAndEmailFields } from "./form-controls";
import { useVisitorForm } from "./use-visitor-form";

const FIELD_ORDER = ["name", "email", "consent"] as const;

export type SubscribeFormProps = { onClose: () => void; actionData: VisitorActionResult | undefined };

export function SubscribeForm({ onClose, actionData }: SubscribeFormProps) {
  const id = useId();
  const { slug } = useParams();
  const form = useVisitorForm({
    intent: "subscribe",
    schema: subscribeSchema,
    fieldOrder: FIELD_ORDER,
    actionData,
    // Closing unmounts the form, which resets it.
    onSuccess: (result) => {
      toast.success(confirmationText("subscribe", result), { duration: CONFIRMATION_TOAST_MS });
      if (slug) rememberFollowing(savedListStorage(), slug);
      onClose();
    },
  });

  return (
    <form.fetcher.Form method="post" action={form.action} noValidate onSubmit={form.onSubmit} className="relative space-y-4">
      <input type="hidden" name="intent" value="subscribe" />
      {form.hydrated ? <input type="hidden" name="via" value="fetch" /> : null}
      <Honeypot />
      <FormAlert message={form.errors?.formError} />
      <NameAndEmailFields id={id} form={form} autoFocus />
      <CheckboxField id={`${id}-consent`} name="consent" label="I agree to receive project updates by e-mail" error={form.fieldError("consent")} />
      <SubmitButton busy={form.busy} label="Follow Updates" busyLabel="Subscribing..." />
    </form.fetcher.Form>
  );
}
