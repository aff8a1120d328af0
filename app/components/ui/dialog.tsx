import { X } from "lucide-react";
import { Dialog as RadixDialog } from "radix-ui";
import { type ReactNode, useId, useRef } from "react";
import { Link, type To } from "react-router";

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
 * card from 768 px.
 *
 * Rendered inline, not in a portal, so that a dialog opened by `?dialog=` is in the server's HTML and works
 * without JavaScript (portals render only in the browser); it is fixed-positioned above everything else.
 * Radix supplies the focus trap, Escape, outside-click and aria-modal. The close control is a real link to
 * the page without `?dialog`, which is how a visitor without JavaScript closes it.
 */
export function Dialog({ open, title, description, icon, closeTo, onClose, children }: DialogProps) {
  const contentRef = useRef<HTMLDivElement>(null);
  // Named explicitly so the server-rendered dialog (before or without JavaScript) is labelled and modal too.
  const titleId = useId();
  const descriptionId = useId();
  // There is no Radix trigger (the openers are links), so return focus to whatever opened the dialog.
  const openedFrom = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[2px] transition-opacity duration-200 starting:opacity-0" />
      <RadixDialog.Content
        ref={contentRef}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        aria-modal="true"
        className={[
          "fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] flex-col rounded-t-3xl bg-white shadow-2xl outline-none",
          "transition duration-200 ease-out starting:translate-y-6 starting:opacity-0 motion-reduce:transition-none",
          "md:inset-x-auto md:bottom-auto md:left-1/2 md:top-1/2 md:max-h-[88dvh] md:w-full md:max-w-lg md:-translate-x-1/2 md:-translate-y-1/2 md:rounded-2xl",
          "md:starting:-translate-y-[48%] md:starting:scale-[0.98]",
        ].join(" ")}
        onOpenAutoFocus={(event) => {
          // With a mouse or trackpad, start in the first field; on a touch screen focus the dialog itself,
          // so the on-screen keyboard does not cover the sheet before the visitor has read it.
          event.preventDefault();
          openedFrom.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
          const content = contentRef.current;
          if (!content) return;
          const finePointer = window.matchMedia?.("(pointer: fine)").matches ?? false;
          const first = finePointer ? content.querySelector<HTMLElement>("[data-autofocus]") : null;
          (first ?? content).focus({ preventScroll: true });
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          const opener = openedFrom.current;
          openedFrom.current = null;
          if (opener?.isConnected) opener.focus({ preventScroll: true });
        }}
      >
        <div aria-hidden className="mx-auto mt-2.5 h-1.5 w-10 shrink-0 rounded-full bg-slate-200 md:hidden" />
        <div className="flex shrink-0 items-start gap-3 border-b border-slate-100 px-5 pb-4 pt-3 md:px-6 md:pt-6">
          {icon ? (
            <span aria-hidden className="mt-0.5 flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              {icon}
            </span>
          ) : null}
          <div className="min-w-0 flex-1">
            <RadixDialog.Title id={titleId} className="text-lg font-bold tracking-tight text-slate-900">{title}</RadixDialog.Title>
            <RadixDialog.Description id={descriptionId} className="mt-0.5 text-sm leading-snug text-slate-600">{description}</RadixDialog.Description>
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
      </RadixDialog.Content>
    </RadixDialog.Root>
  );
}
