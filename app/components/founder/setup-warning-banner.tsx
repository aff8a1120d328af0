import { AlertTriangle } from "lucide-react";

/** What the founder must know about how the operator set the app up: a title, and a message naming the setting and the fix. */
export type SetupWarning = { title: string; message: string };

/**
 * An operator setting that breaks something the founder counts on, said where it matters: QR codes that will not
 * open on phones (issue 13, PUBLIC_URL) or mail that reaches nobody (issue 23, SMTP_URL and MAIL_FROM).
 */
export function SetupWarningBanner({ warning, className = "" }: { warning: SetupWarning | null; className?: string }) {
  if (!warning) return null;
  return (
    <div role="alert" aria-label={warning.title} className={`flex items-start gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-300 print:hidden ${className}`}>
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="min-w-0">
        <p className="font-semibold">{warning.title}</p>
        <p className="mt-1 break-words">{warning.message}</p>
      </div>
    </div>
  );
}
