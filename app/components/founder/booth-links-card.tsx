import { Copy, MonitorSmartphone } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { SectionCard } from "~/components/ui/card";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { fieldControl, FieldError, FormAlert, labelClass, RecordIdField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useCopy } from "~/components/ui/use-copy";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import { BOOTH_LINK_DAYS, boothPath, createBoothLinkSchema, DEFAULT_BOOTH_LINK_DAYS, revokeBoothLinkSchema } from "~/modules/booth/booth-link-form";
import { defaultBoothCode, PLAIN_PITCH_CODE, PLAIN_PITCH_LABEL } from "~/modules/booth/booth-codes";
import { codeName } from "~/modules/analytics/source-names";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { toast } from "sonner";
import type { FormResult } from "~/modules/forms/form-result";
import { pluralWord } from "~/modules/formats/counts";

type BoothLinkItem = { id: string; createdAt: string; expiresAt: string; codeId: string | null };
type CodeItem = { id: string; label: string; eventTag: string | null; createdAt: string; archived: boolean };
type CreatedLink = FormResult<string, { boothUrl?: string; boothQrSvg?: string }>;

/**
 * Booth mode: open the booth screen here; a role that may edit (decision 61) also creates links for a staff device (shown once, with its
 * QR code for the tablet to scan), and revoke the active ones. Writes post to the edit route's action.
 */
export function BoothLinksCard({ projectId, links, codes, manageLinks }: { projectId: string; links: BoothLinkItem[]; codes: CodeItem[]; manageLinks: boolean }) {
  const action = `/project/${projectId}/edit`;
  const create = useFetcher<CreatedLink>();
  const revoke = useFetcher<FormResult>();
  const oldestFirst = [...codes].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const nameOf = (codeId: string) => {
    const code = codes.find((item) => item.id === codeId);
    return code ? codeName(code.label, code.eventTag) : PLAIN_PITCH_LABEL;
  };
  const defaultName = nameOf(defaultBoothCode(oldestFirst));
  const codeOptions = [
    { value: "", name: `Default: ${defaultName}` },
    ...oldestFirst.map((code) => ({ value: code.id, name: codeName(code.label, code.eventTag) })),
    { value: PLAIN_PITCH_CODE, name: PLAIN_PITCH_LABEL },
  ];
  const copier = useCopy();
  const timeZone = useFounderTimeZone();
  const created = create.data?.ok ? create.data : null;
  const creating = useSchemaForm(createBoothLinkSchema, { id: "booth-link", lastResult: create.data, busy: create.state !== "idle" });
  const revoking = useSchemaForm(revokeBoothLinkSchema, { id: "booth-revoke", hidden: ["linkId"], lastResult: revoke.data, busy: revoke.state !== "idle" });
  const days = creating.field("days");
  const code = creating.field("code");
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
      {manageLinks ? (
        <div className="space-y-4 px-4 pb-4 pt-3 sm:px-5 sm:pb-5">
          <create.Form method="post" action={action} {...creating.form} className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="create-booth-link" />
            <label className={labelClass}>
              Link works for
              <select
                {...fieldControl(days)}
                defaultValue={String(DEFAULT_BOOTH_LINK_DAYS)}
                className="mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
              >
                {BOOTH_LINK_DAYS.map((days) => (
                  <option key={days} value={days}>
                    {`${days} ${pluralWord(days, "day")}`}
                  </option>
                ))}
              </select>
            </label>
            <label className={`${labelClass} w-full min-w-0 sm:w-auto`}>
              Shows
              <select
                {...fieldControl(code)}
                defaultValue=""
                className="mt-1 block w-full max-w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base sm:w-auto"
              >
                {codeOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className={primaryButtonClass} disabled={create.state !== "idle"}>
              Create booth link
            </button>
          </create.Form>
          <FieldError id={`${days.id}-error`} message={days.error} />
          <FieldError id={`${code.id}-error`} message={code.error} />
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
                  <RepointForm action={action} link={link} options={codeOptions} />
                  <revoke.Form method="post" action={action} {...revoking.form}>
                    <input type="hidden" name="intent" value="revoke-booth-link" />
                    <RecordIdField name="linkId" id={link.id} />
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
      ) : null}
    </SectionCard>
  );
}

/**
 * Which code a link's screens show, changed in place: its open screens switch at once. Without
 * JavaScript the select posts with its button.
 */
function RepointForm({ action, link, options }: { action: string; link: BoothLinkItem; options: { value: string; name: string }[] }) {
  const fetcher = useFetcher<FormResult>();
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => (result.ok ? toast.success(result.message) : toast.error(result.formError)));
  const selectId = `booth-link-code-${link.id}`;
  return (
    <fetcher.Form method="post" action={action} className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
      <input type="hidden" name="intent" value="repoint-booth-link" />
      <RecordIdField name="linkId" id={link.id} />
      <label htmlFor={selectId} className="shrink-0 text-slate-600">
        Shows
      </label>
      <select id={selectId} name="code" defaultValue={link.codeId ?? ""} className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.name}
          </option>
        ))}
      </select>
      <button type="submit" disabled={fetcher.state !== "idle"} className={`${secondaryButtonClass} shrink-0 px-3 py-2`}>
        Change
      </button>
    </fetcher.Form>
  );
}
