import { AlertTriangle } from "lucide-react";
import type { PublicUrlWarning } from "~/modules/qr/public-url";

/** Issue 13: the address QR codes encode will not open on visitors' phones; says which address and how to fix it. */
export function PublicUrlWarningBanner({ warning, className = "" }: { warning: Pick<PublicUrlWarning, "address" | "message"> | null; className?: string }) {
  if (!warning) return null;
  return (
    <div role="alert" aria-label="QR codes will not open on phones" className={`flex items-start gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-300 print:hidden ${className}`}>
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="min-w-0">
        <p className="font-semibold">QR codes will not open on phones</p>
        <p className="mt-1 break-words">{warning.message}</p>
      </div>
    </div>
  );
}
