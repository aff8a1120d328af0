import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { cardClass } from "~/components/ui/card";
import { FormAlert, TextField } from "~/components/ui/form-fields";
import { PageHeader } from "~/components/ui/page-header";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import type { FormResult } from "~/modules/forms/form-result";
import type { loadReplyTemplate } from "~/modules/leads/replies/lead-replies.server";
import { replyTemplateSchema, TEMPLATE_PLACEHOLDERS, type TemplatePlaceholder } from "~/modules/leads/replies/reply-form";
import { ProjectSectionTop } from "../project-section-nav";
import { ReplyMessageField } from "./lead-reply-view";

type ReplyTemplateViewProps = Awaited<ReturnType<typeof loadReplyTemplate>> & { actionData?: FormResult | undefined };

const PLACEHOLDER_MEANINGS: Record<TemplatePlaceholder, string> = {
  first_name: "the lead's first name",
  project_title: "this project's title",
  pitch_link: "the pitch page's link",
  deck_link: "the deck link (Edit project)",
  booking_link: "the booking link (Edit project)",
  founder_name: "your name",
};

/** The project's follow-up template (decision 57): plain text, its placeholders listed with what each becomes. */
export function ReplyTemplateView({ project, template, custom, links, actionData }: ReplyTemplateViewProps) {
  const echoed = actionData && !actionData.ok ? actionData.values : undefined;
  const [subject, setSubject] = useState(typeof echoed?.subject === "string" ? echoed.subject : template.subject);
  const [body, setBody] = useState(typeof echoed?.body === "string" ? echoed.body : template.body);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { form, field, formError } = useSchemaForm(replyTemplateSchema, {
    id: "template",
    lastResult: actionData,
    busy,
    onResult: (result) => (result.ok ? toast.success(result.message) : undefined),
  });
  const linkValues: Partial<Record<TemplatePlaceholder, string | null>> = { pitch_link: links.pitch, deck_link: links.deck, booking_link: links.booking };
  return (
    <main className="mx-auto max-w-2xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={<ProjectSectionTop projectId={project.id} current="leads" />}
        title="Follow-up template"
        subtitle={custom ? "Every reply to a lead starts from this text." : "Every reply to a lead starts from this text (the default, until you save your own)."}
      />
      <div className="-mt-2 mb-5">
        <Link to={`/project/${project.id}/leads`} className={`${secondaryButtonClass} min-h-11`}>
          <ArrowLeft aria-hidden className="size-4" />
          All leads
        </Link>
      </div>
      <Form method="post" {...form} aria-label="Follow-up template" className={`${cardClass} space-y-4 p-4 sm:p-6`}>
        <TextField {...field("subject")} label="Subject" value={subject} onChange={(event) => setSubject(event.target.value)} autoComplete="off" />
        <ReplyMessageField field={field("body")} body={body} onBody={setBody} hint="Plain text. A line naming a link this project does not have is left out of the reply." />
        <FormAlert message={formError} />
        <button type="submit" disabled={busy} className={`${primaryButtonClass} min-h-12 w-full text-base sm:w-auto sm:min-h-10 sm:text-sm`}>
          {busy ? "Saving..." : "Save template"}
        </button>
      </Form>
      <section aria-labelledby="placeholders-title" className={`${cardClass} mt-5 p-4 sm:p-6`}>
        <h2 id="placeholders-title" className="text-base font-semibold text-slate-950">
          Placeholders
        </h2>
        <dl className="mt-3 space-y-2 text-sm">
          {TEMPLATE_PLACEHOLDERS.map((name) => {
            const value = linkValues[name];
            return (
              <div key={name} className="flex flex-wrap gap-x-2">
                <dt className="font-mono font-semibold text-slate-900">{`{${name}}`}</dt>
                <dd className="min-w-0 break-words text-slate-600">
                  {PLACEHOLDER_MEANINGS[name]}
                  {name in linkValues ? <>: {value ? <span className="text-slate-800">{value}</span> : <em>not set</em>}</> : null}
                </dd>
              </div>
            );
          })}
        </dl>
      </section>
    </main>
  );
}
