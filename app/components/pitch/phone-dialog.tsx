import { QrCode } from "lucide-react";
import { useEffect, useState } from "react";
import { useLocation, useRouteLoaderData, type To } from "react-router";
import type { loader as pitchLoader } from "~/routes/pitch";
import { Dialog } from "~/components/ui/dialog";
import { PHONE_QR_SIZE, phoneUrl } from "~/browser/phone-url";

export { PHONE_QR_SIZE, phoneUrl } from "~/browser/phone-url";


/** `forScript`: the copy in the anonymous document's `<template>`, only ever shown by its script (no `<noscript>` text). */
export function PhoneDialog({ open, closeTo, onClose, forScript = false }: { open: boolean; closeTo: To; onClose: () => void; forScript?: boolean }) {
  return (
    <Dialog
      open={open}
      title="Open on my phone"
      description="Point your phone's camera at the code to open this page there."
      icon={<QrCode className="size-5" />}
      closeTo={closeTo}
      onClose={onClose}
    >
      {open ? <PhoneQrCode forScript={forScript} /> : null}
    </Dialog>
  );
}

type QrState = { status: "loading" } | { status: "ready"; src: string; url: string } | { status: "failed"; url: string };

function PhoneQrCode({ forScript }: { forScript: boolean }) {
  const [state, setState] = useState<QrState>({ status: "loading" });
  // Without JavaScript there is no QR code: show the page's public address to type instead.
  const publicUrl = useRouteLoaderData<typeof pitchLoader>("routes/pitch")?.publicUrl ?? "";
  const { pathname } = useLocation();

  useEffect(() => {
    let cancelled = false;
    const url = phoneUrl(window.location.href);
    // The QR library loads only when this dialog opens, never with the page.
    import("qrcode")
      .then((module) => {
        // A CommonJS package: its exports arrive as `default` (and, depending on the bundler, as named exports too).
        const QRCode = (module.default as typeof module | undefined) ?? module;
        return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "H", width: PHONE_QR_SIZE, margin: 1 });
      })
      .then((svg) => {
        if (!cancelled) setState({ status: "ready", src: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`, url });
      })
      .catch((error: unknown) => {
        console.warn("QR code could not be drawn", error);
        if (!cancelled) setState({ status: "failed", url });
      });
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <div className="flex flex-col items-center gap-4 pb-2 text-center">
      <div className="flex size-[272px] items-center justify-center rounded-2xl bg-white p-2 shadow-sm ring-1 ring-slate-200" aria-busy={state.status === "loading"}>
        {state.status === "ready" ? (
          <img src={state.src} width={PHONE_QR_SIZE} height={PHONE_QR_SIZE} alt="QR code linking to this pitch page" className="size-64" />
        ) : state.status === "loading" ? (
          <div className="relative size-64">
            <div aria-hidden className="absolute inset-0 animate-pulse rounded-xl bg-slate-100" />
            <span className="sr-only">Drawing the QR code…</span>
            {forScript ? null : (
            <noscript>
              <span className="relative flex h-full flex-col items-center justify-center gap-2 px-6 text-sm text-slate-600">
                The QR code needs JavaScript. Type this address on your phone instead:
                <strong className="break-all font-semibold text-slate-900">{`${publicUrl}${pathname}`}</strong>
              </span>
            </noscript>
            )}
          </div>
        ) : (
          <p className="px-6 text-sm text-slate-600">The QR code could not be drawn. Open the address below on your phone.</p>
        )}
      </div>
      {state.status !== "loading" ? <p className="max-w-full break-all text-xs text-slate-500">{state.url}</p> : null}
    </div>
  );
}
