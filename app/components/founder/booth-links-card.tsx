import { Copy, MonitorSmartphone } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { SectionCard } from "~/components/ui/card";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { describedBy, FieldError, FormAlert, labelClass } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useCopy } from "~/components/ui/use-copy";
import { formatFounderDateTime } from "~/modules/formats/founder-dates";
import { BOOTH_LINK_DAYS, boothPath, createBoothLinkSchema, DEFAULT_BOOTH_LINK_DAYS, revokeBoothLinkSchema } from "~/modules/booth/booth-link-form";
import type { FormResult } from "~/modules/forms/form-result";

type BoothLinkItem = { id: string; createdAt: string; expiresAt: string };
type CreatedLink = FormResult<string, { boothUrl?: string; boothQrSvg?: string }>;

/**
 * The owner's booth mode: open the booth screen here, or create a link for a staff device (shown once, with its
 * QR code for the tablet to scan), and revoke the active ones. Writes post to the edit route's action.
 */
export function BoothLinksCard({ projectId, links }: { projectId: string; links: BoothLinkItem[] }) {
  const action = `/project/${projectId}/edit`;
  const create = useFetcher<CreatedLink>();
  const revoke = useFetcher<FormResult>();
  const copier = useCopy();
  const timeZone = useFounderTimeZone();
  const created = create.data?.ok ? create.data : null;
  const creating = useSchemaForm(createBoothLinkSchema, { id: "booth-link", lastResult: create.data, busy: create.state !== "idle" });
  const revoking = useSchemaForm(revokeBoothLinkSchema, { id: "booth-revoke", hidden: ["linkId"], lastResult: revoke.data, busy: revoke.state !== "idle" });
  const days = creating.field("days");
  const revokingId = revoke.state !== "idle" ? String(revoke.formData?.get("linkId") ?? "") : null;
  const shown = links.filter((link) => link.id !== revokingId);

  return (
    <SectionCard
      id="booth-mode-title"
      title="Booth mode"
      icon={MonitorSmartphone}
      description="A full-screen QR code with today's live counters, for a tablet or spare phone at your booth."
      actions={
        <Link to={boothPath(projectId)} className={secondaryButtonClass}>
          Open booth screen
        </Link>
      }
    >
      <div className="space-y-4 px-4 pb-4 pt-3 sm:px-5 sm:pb-5">
        <create.Form method="post" action={action} {...creating.form} className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="create-booth-link" />
          <label className={labelClass}>
            Link works for
            <select
              id={days.id}
              name={days.name}
              data-error-slot={days["data-error-slot"]}
              aria-invalid={days.error ? true : undefined}
              aria-describedby={describedBy(days.error && `${days.id}-error`)}
              defaultValue={String(DEFAULT_BOOTH_LINK_DAYS)}
              className="mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
            >
              {BOOTH_LINK_DAYS.map((days) => (
                <option key={days} value={days}>
                  {days === 1 ? "1 day" : `${days} days`}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={primaryButtonClass} disabled={create.state !== "idle"}>
            Create booth link
          </button>
        </create.Form>
        <FieldError id={`${days.id}-error`} message={days.error} />
        <FormAlert message={creating.formError} />
        {created?.boothUrl ? (
          <div className="rounded-xl border border-brand-100 bg-brand-50 p-3" role="status">
            <p className="text-sm font-semibold text-slate-900">New booth link: shown only now. Open it on the staff device, or scan the code with it.</p>
            <div className="mt-2 flex flex-wrap items-start gap-3">
              {created.boothQrSvg ? (
                <div aria-label="QR code of the booth link" role="img" className="size-28 shrink-0 rounded-lg bg-white p-1 [&>svg]:size-full" dangerouslySetInnerHTML={{ __html: created.boothQrSvg }} />
              ) : null}
              <div className="min-w-0 flex-1 basis-52 space-y-2">
                <input readOnly aria-label="Booth link" value={created.boothUrl} className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs" />
                <button type="button" className={secondaryButtonClass} onClick={() => void copier.copy(created.boothUrl!, "booth-link")}>
                  <Copy aria-hidden className="size-4" />
                  {copier.copied === "booth-link" ? "Copied" : "Copy link"}
                </button>
              </div>
            </div>
          </div>
        ) : null}
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Active booth links</h3>
          <FormAlert message={revoking.formError} />
          {shown.length ? (
            <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200">
              {shown.map((link) => (
                <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                  <span className="text-slate-700">
                    Created {formatFounderDateTime(link.createdAt, timeZone)} · expires {formatFounderDateTime(link.expiresAt, timeZone)}
                  </span>
                  <revoke.Form method="post" action={action} {...revoking.form}>
                    <input type="hidden" name="intent" value="revoke-booth-link" />
                    <input type="hidden" name="linkId" value={link.id} />
                    <button type="submit" className="font-semibold text-red-700 hover:underline">
                      Revoke
                    </button>
                  </revoke.Form>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-sm text-slate-600">None. A link stops working when it expires or when you revoke it.</p>
          )}
        </div>
      </div>
    </SectionCard>
  );
}
