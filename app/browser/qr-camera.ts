/**
 * Reads a QR code from the phone's camera, on the phone (decision 62): the browser's `BarcodeDetector` where it has
 * one, else `jsqr`, loaded only now (its own chunk) and run on a frame drawn into a canvas. Nothing is uploaded: the
 * frames stay in this page and only the decoded text is handed back.
 */

type Detect = (video: HTMLVideoElement) => Promise<string | null>;

type BarcodeDetectorLike = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
type BarcodeDetectorClass = { new (options: { formats: string[] }): BarcodeDetectorLike; getSupportedFormats?: () => Promise<string[]> };

/** Frames are scaled down to this width before decoding: enough for a QR code held up to the camera, and quick. */
const DECODE_WIDTH = 640;
const FRAME_INTERVAL_MS = 120;

async function nativeDetector(): Promise<Detect | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  const formats: string[] = (await Detector.getSupportedFormats?.().catch((): string[] => [])) ?? [];
  if (!formats.includes("qr_code")) return null;
  const detector = new Detector({ formats: ["qr_code"] });
  return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
}

async function jsqrDetector(): Promise<Detect> {
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    if (!context || !video.videoWidth) return null;
    const scale = Math.min(1, DECODE_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height, { inversionAttempts: "attemptBoth" })?.data ?? null;
  };
}

/** Whether this browser can show a camera at all (a secure page with media devices). */
export function canUseCamera(): boolean {
  return typeof navigator !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia);
}

/**
 * Starts the back camera in `video` and calls `onText` once with the first QR code read. Answers a function that
 * stops the camera (call it when the sheet closes or the code was read). Rejects when the camera cannot start.
 */
export async function scanQrCode(video: HTMLVideoElement, onText: (text: string) => void): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  try {
    video.srcObject = stream;
    video.muted = true;
    video.playsInline = true;
    await video.play();
    const detect = (await nativeDetector()) ?? (await jsqrDetector());
    const tick = async () => {
      if (stopped) return;
      const text = video.readyState >= 2 ? await detect(video).catch(() => null) : null;
      if (stopped) return;
      if (text) {
        stop();
        onText(text);
        return;
      }
      timer = setTimeout(() => void tick(), FRAME_INTERVAL_MS);
    };
    void tick();
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}
