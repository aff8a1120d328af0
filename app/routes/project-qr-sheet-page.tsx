import { Form, Link } from "react-router";
import { DownloadSheetLink, PrintButton, SheetSizeSwitch } from "~/components/founder/print-sheet-controls";
import { ProjectSectionTop } from "~/components/founder/project-section-nav";
import { SetupWarningBanner } from "~/components/founder/setup-warning-banner";
import { secondaryButtonClass } from "~/components/ui/buttons";
import { useHydrated } from "~/components/ui/use-hydrated";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orErrorPage } from "~/modules/http/domain-errors.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { loadEventSheet, parseEventSheetSize } from "~/modules/qr/event-sheet.server";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { chosenSheetCodes, EVENT_SHEET_SIZES, eventSheetPath, eventSheetSvgPath, type EventSheetSize } from "~/modules/qr/qr-form";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-qr-sheet-page";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Print all QR codes: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

const SIZE_NAMES: Record<EventSheetSize, string> = { a4: "A4", letter: "US Letter" };

/** GET /project/{id}/qr/sheet[?size=letter&code=…]: every chosen code of the project on one sheet, to print and cut. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, config, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const size = await orErrorPage(() => parseEventSheetSize(url.searchParams.get("size")));
  const sheet = await orRedirectToMyProjects(flashCookie, () => loadEventSheet(database.db, user.id, config.publicUrl, params.id, chosenSheetCodes(url.searchParams), size));
  return { ...sheet, setupBanner: operatorBannerFor(context.services, request, url, sheet.projectRole, ["qr-address"]) };
}

export default function PrintEventSheet({ loaderData }: Route.ComponentProps) {
  const { project, size, codes, pages } = loaderData;
  const hydrated = useHydrated();
  const chosen = codes.filter((code) => code.chosen).map((code) => code.id);
  return (
    <main className="mx-auto max-w-3xl px-4 pb-10 pt-5 sm:pt-8 print:m-0 print:max-w-none print:p-0">
      <ProjectSectionTop projectId={project.id} current="qr-codes" />
      <div className="print:hidden">
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-950 sm:text-3xl">Print all codes on one sheet</h1>
        <p className="mt-1 text-sm text-slate-600">
          {project.title} · six codes a page, each with its label; prints at actual size, choose 100% (no scaling) in the print dialog, then cut along
          the marks.
        </p>
        <SetupWarningBanner banner={loaderData.setupBanner} className="mt-4" />
        <Form method="get" className="mt-4 rounded-xl bg-white p-4 ring-1 ring-slate-200">
          <input type="hidden" name="chosen" value="1" />
          {size === "a4" ? null : <input type="hidden" name="size" value={size} />}
          <fieldset>
            <legend className="text-sm font-semibold text-slate-900">Codes on the sheet</legend>
            {codes.length ? (
              <ul className="mt-2 grid gap-2 sm:grid-cols-2">
                {codes.map((code) => (
                  <li key={code.id}>
                    <label className="flex items-start gap-2 text-sm text-slate-800">
                      <input type="checkbox" name="code" value={code.id} defaultChecked={code.chosen} className="mt-0.5 size-4 rounded border-slate-300" />
                      <span className="min-w-0 break-words">
                        {code.label}
                        {code.eventTag ? <span className="text-slate-500"> · {code.eventTag}</span> : null}
                        {code.archived ? <span className="ml-1 rounded bg-slate-100 px-1 text-xs text-slate-600">Archived</span> : null}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-sm text-slate-600">
                No QR codes yet. <Link to={`/project/${project.id}/qr-codes`} className="font-semibold text-brand-700 hover:underline">Create one</Link> first.
              </p>
            )}
          </fieldset>
          {codes.length ? (
            <button type="submit" className={`${secondaryButtonClass} mt-3 h-10 py-0`}>
              Update sheet
            </button>
          ) : null}
        </Form>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <SheetSizeSwitch sizes={EVENT_SHEET_SIZES} size={size} names={SIZE_NAMES} pathFor={(option) => eventSheetPath(project.id, { size: option, codes: chosen })} />
          <PrintButton disabled={!hydrated || pages.length === 0} />
          {pages.map((_, index) => (
            <DownloadSheetLink key={index} href={eventSheetSvgPath(project.id, size, chosen, index + 1)} label={pages.length > 1 ? `Download SVG, page ${index + 1}` : "Download SVG"} />
          ))}
        </div>
        {pages.length === 0 && codes.length ? (
          <p role="status" className="mt-4 text-sm font-medium text-slate-700">
            Choose at least one code to print.
          </p>
        ) : null}
      </div>
      {pages.map((svg, index) => (
        <figure
          key={index}
          data-print-sheet
          className="mt-6 overflow-hidden rounded-xl bg-slate-100 p-4 ring-1 ring-slate-200 break-after-page print:m-0 print:rounded-none print:bg-white print:p-0 print:ring-0"
        >
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
            alt={`Sheet of ${project.title}'s QR codes (${SIZE_NAMES[size]}${pages.length > 1 ? `, page ${index + 1} of ${pages.length}` : ""})`}
            className="mx-auto h-auto max-w-full bg-white shadow-md print:max-w-none print:shadow-none"
          />
        </figure>
      ))}
    </main>
  );
}
