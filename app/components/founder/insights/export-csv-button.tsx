import { Download, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { saveBlobAs } from "~/components/save-file";
import { csvFileName } from "~/modules/analytics/contacts-csv";
import { secondaryButtonClass } from "~/components/ui/buttons";
import { fileNameFromDisposition } from "./format";

export const EXPORT_MESSAGES = {
  empty: "No contacts to export",
  success: "Contacts exported successfully",
  failure: "Failed to export contacts",
} as const;


/**
 * The contacts CSV export: fetches the owner's CSV, says 'No contacts to export' when it holds none
 * (the server's `X-Contact-Count`) instead of downloading a header-only file, else downloads it under the
 * server's file name, and confirms the outcome with a toast.
 */
export function ExportCsvButton({ projectId, projectTitle }: { projectId: string; projectTitle: string }) {
  const [busy, setBusy] = useState(false);

  async function exportContacts() {
    if (busy) return;
    setBusy(true);
    try {
      const response = await fetch(`/project/${encodeURIComponent(projectId)}/contacts.csv`, {
        headers: { Accept: "text/csv" },
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) throw new Error(`CSV export answered ${response.status}`);
      if (Number(response.headers.get("X-Contact-Count") ?? "NaN") === 0) {
        await response.body?.cancel();
        toast.info(EXPORT_MESSAGES.empty);
        return;
      }
      const blob = await response.blob();
      saveBlobAs(blob, fileNameFromDisposition(response.headers.get("Content-Disposition")) ?? csvFileName(projectTitle));
      toast.success(EXPORT_MESSAGES.success);
    } catch (error) {
      console.error("CSV export failed", error);
      toast.error(EXPORT_MESSAGES.failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" onClick={() => void exportContacts()} disabled={busy} aria-busy={busy || undefined} className={secondaryButtonClass}>
      {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Download aria-hidden className="size-4" />}
      Export CSV
    </button>
  );
}
