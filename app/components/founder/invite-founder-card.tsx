import { Copy, UserPlus } from "lucide-react";
import { useFetcher } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-fields";
import { useCopy } from "~/components/ui/use-copy";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { invitationFormSchema } from "~/modules/auth/auth-form";
import type { FormResult } from "~/modules/forms/form-result";

type CreatedInvitation = FormResult<string, { invitationUrl?: string }>;

/**
 * When sign-up is by invitation (SIGNUP=invite): a founder makes a link for a co-founder, shown only once; it makes
 * one account, within 7 days. Posts to My Projects' action.
 */
export function InviteFounderCard() {
  const create = useFetcher<CreatedInvitation>();
  const copier = useCopy();
  const created = create.data?.ok ? create.data : null;
  const { form, formError } = useSchemaForm(invitationFormSchema, { id: "invitation", lastResult: create.data, busy: create.state !== "idle" });
  return (
    <SectionCard
      id="invite-founder-title"
      title="Invite a founder"
      icon={UserPlus}
      description="Sign-up here is by invitation. A link makes one account and works for 7 days."
      className="mt-8"
    >
      <create.Form method="post" action="/my-projects" {...form}>
        <input type="hidden" name="intent" value="invite" />
        <button type="submit" className={`${secondaryButtonClass} w-full sm:w-auto`} disabled={create.state !== "idle"}>
          {create.state !== "idle" ? "Creating link..." : "Create invitation link"}
        </button>
      </create.Form>
      {formError ? (
        <div className="mt-3">
          <FormAlert message={formError} />
        </div>
      ) : null}
      {created?.invitationUrl ? (
        <div role="status" className="mt-4 rounded-xl border border-brand-100 bg-brand-50 p-3">
          <p className="text-sm font-semibold text-slate-900">{created.message}</p>
          <input
            readOnly
            aria-label="Invitation link"
            value={created.invitationUrl}
            onFocus={(event) => event.currentTarget.select()}
            className="mt-2 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs"
          />
          <button type="button" className={`${primaryButtonClass} mt-2 w-full sm:w-auto`} onClick={() => void copier.copy(created.invitationUrl!, "invitation")}>
            <Copy aria-hidden className="size-4" />
            {copier.copied === "invitation" ? "Copied" : "Copy link"}
          </button>
        </div>
      ) : null}
    </SectionCard>
  );
}
