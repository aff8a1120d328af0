import { DownloadSheetLink, PrintButton, SheetSizeSwitch } from "~/components/founder/print-sheet-controls";
import { ProjectSectionTop } from "~/components/founder/project-section-nav";
import { SetupWarningBanner } from "~/components/founder/setup-warning-banner";
import { useHydrated } from "~/components/ui/use-hydrated";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orErrorPage } from "~/modules/http/domain-errors.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { loadPrintPageSheet, parsePrintSheetSize } from "~/modules/qr/print-sheet.server";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { PRINT_SHEET_SIZES, printPagePath, printSheetPath, type PrintSheetSize } from "~/modules/qr/qr-form";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-qr-print-page";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Print ${loaderData?.label ?? "QR code"} · ${PRODUCT_NAME}` },
];

const SIZE_NAMES: Record<PrintSheetSize, string> = { a6: "A6 card", letter: "US Letter" };

/** GET /project/{id}/qr/{qrId}/print[?size=letter]: one code's print sheet, ready for the browser's print dialog. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, config, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const size = await orErrorPage(() => parsePrintSheetSize(url.searchParams.get("size")));
  const sheet = await orRedirectToMyProjects(flashCookie, () => loadPrintPageSheet(database.db, user.id, config.publicUrl, params.id, params.qrId, size));
  return {
    projectRole: sheet.role,
    projectId: params.id,
    qrCodeId: params.qrId,
    size,
    label: sheet.label,
    title: sheet.title,
    svg: sheet.svg,
    setupBanner: operatorBannerFor(context.services, request, url, sheet.role, ["qr-address"]),
  };
}

export default function PrintQrSheet({ loaderData }: Route.ComponentProps) {
  const { projectId, qrCodeId, size, label } = loaderData;
  const hydrated = useHydrated();
  const src = `data:image/svg+xml;utf8,${encodeURIComponent(loaderData.svg)}`;
  return (
    <main className="mx-auto max-w-3xl px-4 pb-10 pt-5 sm:pt-8 print:m-0 print:max-w-none print:p-0">
      <ProjectSectionTop projectId={projectId} current="qr-codes" />
      <div className="print:hidden">
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-950 sm:text-3xl">Print: {label}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {loaderData.title} · prints at actual size; choose 100% (no scaling) in the print dialog.
        </p>
        <SetupWarningBanner banner={loaderData.setupBanner} className="mt-4" />
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <SheetSizeSwitch sizes={PRINT_SHEET_SIZES} size={size} names={SIZE_NAMES} pathFor={(option) => printPagePath(projectId, qrCodeId, option)} />
          <PrintButton disabled={!hydrated} />
          <DownloadSheetLink href={printSheetPath(projectId, qrCodeId, size)} label="Download SVG" />
        </div>
      </div>
      {/* Drawn at its size in mm; on screen it shrinks to the column, on paper it prints at actual size. */}
      <figure data-print-sheet className="mt-6 overflow-hidden rounded-xl bg-slate-100 p-4 ring-1 ring-slate-200 print:m-0 print:rounded-none print:bg-white print:p-0 print:ring-0">
        <img src={src} alt={`Print sheet for ${label} (${SIZE_NAMES[size]})`} className="mx-auto h-auto max-w-full bg-white shadow-md print:max-w-none print:shadow-none" />
      </figure>
    </main>
  );
}
