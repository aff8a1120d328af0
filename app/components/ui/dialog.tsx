import { X } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Link, type To } from "react-router";
import { focusDialogStart, showDialogModal } from "~/browser/dialog";

type DialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  icon?: ReactNode;
  closeTo: To;
  onClose: () => void;
  children: ReactNode;
};

/**
 * A dialog whose open state lives in the URL (the pitch page's `?dialog=`): a bottom sheet on phones, a centred
 * card from 768 px. Its body mounts only while it is open, so closing resets a form.
 *
 * A native `<dialog>` (decision 47), the same element the anonymous page's module opens: rendered `open` by the
 * server, so a dialog opened by `?dialog=` is in the HTML and works without JavaScript (its close control is a
 * real link to the page without `?dialog`); in the browser it is shown modal (`showModal`), which makes the rest
 * of the page inert and moves focus in, Escape asks to close it, and focus goes back to what opened it.
 */
export function Dialog({ open, ...props }: DialogProps) {
  return open ? <OpenDialog {...props} /> : null;
}

function OpenDialog({ title, description, icon, closeTo, onClose, children }: Omit<DialogProps, "open">) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    const content = contentRef.current;
    if (!dialog || !content) return;
    // There is no trigger element (the openers are links): focus goes back to whatever had it.
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const release = showDialogModal(dialog, () => close.current());
    focusDialogStart(content);
    return () => {
      release();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      open
      role="dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      aria-modal="true"
      // Only a frame over the whole screen: its overlay and sheet draw themselves; the browser's box and backdrop are set aside.
      className="fixed inset-0 z-50 size-full max-h-none max-w-none bg-transparent backdrop:bg-transparent"
    >
      <div data-dialog-overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[2px] transition-opacity duration-200 starting:opacity-0" />
      <div
        ref={contentRef}
        tabIndex={-1}
        data-dialog-content
        className={[
          "fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] flex-col rounded-t-3xl bg-white shadow-2xl outline-none",
          "transition duration-200 ease-out starting:translate-y-6 starting:opacity-0 motion-reduce:transition-none",
          "md:inset-x-auto md:bottom-auto md:left-1/2 md:top-1/2 md:max-h-[88dvh] md:w-full md:max-w-lg md:-translate-x-1/2 md:-translate-y-1/2 md:rounded-2xl",
          "md:starting:-translate-y-[48%] md:starting:scale-[0.98]",
        ].join(" ")}
      >
        <div aria-hidden className="mx-auto mt-2.5 h-1.5 w-10 shrink-0 rounded-full bg-slate-200 md:hidden" />
        <div className="flex shrink-0 items-start gap-3 border-b border-slate-100 px-5 pb-4 pt-3 md:px-6 md:pt-6">
          {icon ? (
            <span aria-hidden className="mt-0.5 flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              {icon}
            </span>
          ) : null}
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-bold tracking-tight text-slate-900">
              {title}
            </h2>
            <p id={descriptionId} className="mt-0.5 text-sm leading-snug text-slate-600">
              {description}
            </p>
          </div>
          <Link
            to={closeTo}
            replace
            preventScrollReset
            aria-label="Close"
            onClick={(event) => {
              event.preventDefault();
              onClose();
            }}
            className="-mr-1.5 -mt-1 flex size-9 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-900"
          >
            <X aria-hidden className="size-5" />
          </Link>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 pb-[calc(1.25rem+env(safe-area-inset-bottom))] pt-4 md:px-6 md:pb-6">
          {children}
        </div>
      </div>
    </dialog>
  );
}
