import { Eye, LoaderCircle, Megaphone, MailCheck, Send } from "lucide-react";
import { useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { BadgeHeading, cardClass } from "~/components/ui/card";
import { FormAlert, TextAreaField, RecordIdField } from "~/components/ui/form-fields";
import { useClock, useFounderTimeZone } from "~/components/ui/use-clock";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useToastedFetcher } from "./qr-code-manage";
import { useProjectAllows } from "./use-project-role";
import { secondaryButtonClass } from "~/components/ui/buttons";
import type { FormResult } from "~/modules/forms/form-result";
import { formatActivityTime } from "~/modules/time/relative-time";
import { projectUpdateSchema } from "~/modules/updates/project-update-form";
import { pluralWord } from "~/modules/formats/counts";

/** `mailed`: null until followers got it, "digest" from a Friday digest, "now" from 'Send now' (decision 65). */
export type ProjectUpdateItem = { id: string; body: string; createdAt: string; mailed: "digest" | "now" | null };
/** The followers' e-mail of an update not yet mailed, as it would be sent. */
export type UpdateMailPreviewItem = { updateId: string; subject: string; html: string; text: string };

const MAILED_LABELS = { digest: "Sent in a digest", now: "Sent to followers" } as const;

export const UPDATE_POSTED = "Update posted";
const UPDATE_FAILED = "Failed to post update";

/**
 * 'What shipped': a founder posts a short update. It moves the pitch page's 'Last shipped', shows in the activity
 * feed, and goes to every subscriber in Friday's digest. Posts to the edit route's action (`intent=post-update`).
 */
export function ProjectUpdatesCard({
  projectId,
  updates,
  previews,
  followers,
  serverNow,
}: {
  projectId: string;
  updates: ProjectUpdateItem[];
  previews: UpdateMailPreviewItem[];
  followers: number;
  serverNow: string;
}) {
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const canPost = useProjectAllows("edit");
  const now = useClock(serverNow);
  const timeZone = useFounderTimeZone();
  const [body, setBody] = useState("");
  // The card owns 'Send now': once sent, the update's buttons leave the list, and its answer is still toasted.
  const send = useToastedFetcher("Failed to send the update");
  const { form, field, formError } = useSchemaForm(projectUpdateSchema, {
    id: "update",
    lastResult: fetcher.data,
    busy,
    onResult: (result) => {
      if (!result.ok) return void toast.error(result.formError || UPDATE_FAILED);
      setBody("");
      toast.success(UPDATE_POSTED, { description: "Subscribers get it in Friday's digest." });
    },
  });
  // Counted, not cut: the founder may type past the limit and sees the counter turn red.
  const { maxLength, ...bodyField } = field("body");

  return (
    <section aria-labelledby="updates-title" className={`${cardClass} overflow-hidden`}>
      <div className="p-4 sm:p-6">
        <BadgeHeading
          id="updates-title"
          icon={Megaphone}
          badge="bg-orange-50 text-orange-600"
          title="Post an Update"
          description="Tell followers what shipped. Your pitch page shows ‘Last shipped’, and subscribers get every update in one digest on Friday."
        />
        {canPost ? (
        <fetcher.Form method="post" action={`/project/${projectId}/edit`} {...form} aria-label="Post an update" className="mt-5 space-y-3">
          <input type="hidden" name="intent" value="post-update" />
          <TextAreaField
            {...bodyField}
            label="What shipped?"
            rows={3}
            placeholder="e.g. Launched team workspaces and cut onboarding to 2 minutes"
            value={body}
            counter={{ length: body.trim().length, max: maxLength ?? 0 }}
            onChange={(event) => setBody(event.target.value)}
          />
          <FormAlert message={formError} />
          <div className="flex justify-end">
            <button
              type="submit"
              disabled={busy}
              className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Send aria-hidden className="size-4" />}
              {busy ? "Posting..." : "Post Update"}
            </button>
          </div>
        </fetcher.Form>
        ) : null}
      </div>
      <div className="border-t border-slate-200 bg-slate-50/60 p-4 sm:p-6">
        <h3 className="text-sm font-semibold text-slate-900">Recent updates</h3>
        {updates.length ? (
          <ol className="mt-3 space-y-3" aria-label="Recent updates, newest first">
            {updates.map((update) => (
              <li key={update.id} className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
                <p className="text-sm break-words whitespace-pre-line text-slate-900">{update.body}</p>
                <p className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                  <time dateTime={update.createdAt} suppressHydrationWarning>
                    {formatActivityTime(update.createdAt, now, timeZone)}
                  </time>
                  <span
                    className={`rounded-full px-2 py-0.5 font-medium ${update.mailed ? "bg-slate-100 text-slate-600" : "bg-orange-50 text-orange-700"}`}
                  >
                    {update.mailed ? MAILED_LABELS[update.mailed] : "In Friday's digest"}
                  </span>
                </p>
                {update.mailed ? null : (
                  <UnsentUpdateActions
                    projectId={projectId}
                    update={update}
                    preview={previews.find((preview) => preview.updateId === update.id)}
                    followers={followers}
                    canSend={canPost}
                    send={send}
                  />
                )}
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-2 text-sm text-slate-600">No updates yet. Post one when you ship something.</p>
        )}
      </div>
    </section>
  );
}

/**
 * Under an update followers have not got yet: 'Preview e-mail' shows their e-mail as it would be sent (built by the
 * digest's function; the HTML in a sandboxed frame that loads nothing), and 'Send now' mails it to every follower at
 * once instead of on Friday, once (decision 65).
 */
function UnsentUpdateActions({
  projectId,
  update,
  preview,
  followers,
  canSend,
  send,
}: {
  projectId: string;
  update: ProjectUpdateItem;
  preview: UpdateMailPreviewItem | undefined;
  followers: number;
  canSend: boolean;
  send: ReturnType<typeof useToastedFetcher>;
}) {
  const { fetcher } = send;
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("updateId") === update.id;
  return (
    <div className="mt-3 space-y-3">
      {preview ? (
        <details className="group rounded-lg border border-slate-200 bg-slate-50">
          <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-sm font-semibold text-slate-700 hover:text-slate-900">
            <Eye aria-hidden className="size-4" />
            Preview e-mail
          </summary>
          <div className="border-t border-slate-200 p-3">
            <p className="text-xs text-slate-600">
              {followers === 0
                ? "No followers yet: nobody would get it."
                : `To each of your ${followers} ${pluralWord(followers, "follower")}, with their name and their own unsubscribe link`}
            </p>
            <p className="mt-1 text-sm text-slate-900">
              <span className="font-semibold">Subject:</span> <span data-preview-subject>{preview.subject}</span>
            </p>
            <iframe
              title={`E-mail preview: ${preview.subject}`}
              sandbox=""
              srcDoc={preview.html}
              className="mt-2 h-96 w-full rounded-md border border-slate-200 bg-white"
            />
          </div>
        </details>
      ) : null}
      {canSend ? (
        <fetcher.Form method="post" action={`/project/${projectId}/edit`} className="flex flex-wrap items-center justify-between gap-2">
          <input type="hidden" name="intent" value="send-update-now" />
          <RecordIdField name="updateId" id={update.id} />
          <p className="text-xs text-slate-600">Followers get it in Friday&rsquo;s digest, or now.</p>
          <button type="submit" disabled={busy} className={`${secondaryButtonClass} h-10 px-3 py-0`}>
            {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <MailCheck aria-hidden className="size-4" />}
            {busy ? "Sending..." : "Send now"}
          </button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}
