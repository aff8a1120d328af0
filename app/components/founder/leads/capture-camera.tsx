import { QrCode, ScanLine, X } from "lucide-react";
import { useEffect, useRef, useState, type RefObject } from "react";
import { canUseCamera, scanQrCode } from "~/browser/qr-camera";

/**
 * The camera that reads a person's QR code (a contact card, a LinkedIn profile, an e-mail link): `start` opens it on
 * the video element and hands the first code read to `onRead`, `stop` closes it. It closes with the form too.
 */
export function useCodeScanner({ onRead, onFailed }: { onRead: (text: string) => void; onFailed: () => void }) {
  const [scanning, setScanning] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const stopCamera = useRef<(() => void) | null>(null);

  useEffect(() => () => stopCamera.current?.(), []);

  const start = async () => {
    setScanning(true);
    // The video element renders with `scanning`; wait a frame for it.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const video = videoRef.current;
    if (!video) return;
    try {
      stopCamera.current = await scanQrCode(video, (text) => {
        stopCamera.current = null;
        setScanning(false);
        onRead(text);
      });
    } catch {
      setScanning(false);
      onFailed();
    }
  };

  const stop = () => {
    stopCamera.current?.();
    stopCamera.current = null;
    setScanning(false);
  };

  return { scanning, videoRef, start, stop };
}

/** What the camera sees while it looks for their code, with a frame to aim it by. */
export function CameraView({ videoRef }: { videoRef: RefObject<HTMLVideoElement | null> }) {
  return (
    <div className="relative overflow-hidden rounded-2xl bg-slate-950">
      <video ref={videoRef} aria-label="Camera" className="aspect-square w-full object-cover" muted playsInline />
      <ScanLine aria-hidden className="pointer-events-none absolute inset-0 m-auto size-2/3 text-white/70" />
      <p className="absolute inset-x-0 bottom-0 bg-slate-950/70 px-3 py-2 text-center text-sm text-white">Point the camera at their QR code</p>
    </div>
  );
}

/** 'Scan their QR code', or 'Stop the camera' while it is open; nothing on a device without a camera. */
export function CameraButton({ scanning, onStart, onStop }: { scanning: boolean; onStart: () => void; onStop: () => void }) {
  if (!canUseCamera()) return null;
  return scanning ? (
    <button type="button" onClick={onStop} className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-slate-300 px-4 text-base font-semibold text-slate-800 hover:bg-slate-50">
      <X aria-hidden className="size-5" />
      Stop the camera
    </button>
  ) : (
    <button type="button" onClick={onStart} className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-slate-300 px-4 text-base font-semibold text-slate-800 hover:bg-slate-50">
      <QrCode aria-hidden className="size-5" />
      Scan their QR code
    </button>
  );
}
