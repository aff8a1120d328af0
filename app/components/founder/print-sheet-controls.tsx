import { Download, Printer } from "lucide-react";
import { Link } from "react-router";

/** The sheet-size choice of a print page: one link per size (the current one marked), replacing the page's entry. */
export function SheetSizeSwitch<Size extends string>({
  sizes,
  size,
  names,
  pathFor,
}: {
  sizes: readonly Size[];
  size: Size;
  names: Record<Size, string>;
  pathFor: (size: Size) => string;
}) {
  return (
    <div role="group" aria-label="Sheet size" className="flex rounded-lg shadow-sm">
      {sizes.map((option, index) => (
        <Link
          key={option}
          to={pathFor(option)}
          replace
          aria-current={option === size ? "page" : undefined}
          className={`inline-flex h-10 items-center border border-slate-300 px-3.5 text-sm font-semibold ${index === 0 ? "rounded-l-lg" : "-ml-px rounded-r-lg"} ${
            option === size ? "bg-slate-900 text-white" : "bg-white text-slate-800 hover:bg-slate-50"
          }`}
        >
          {names[option]}
        </Link>
      ))}
    </div>
  );
}

/** Opens the browser's print dialog; disabled until the page is hydrated (and while there is nothing to print). */
export function PrintButton({ disabled }: { disabled: boolean }) {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      disabled={disabled}
      className="inline-flex h-10 items-center gap-2 rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
    >
      <Printer aria-hidden className="size-4" />
      Print
    </button>
  );
}

/** A print page's download of a sheet as the SVG file it prints from. */
export function DownloadSheetLink({ href, label }: { href: string; label: string }) {
  return (
    <a
      href={href}
      download
      className="inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3.5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
    >
      <Download aria-hidden className="size-4" />
      {label}
    </a>
  );
}
