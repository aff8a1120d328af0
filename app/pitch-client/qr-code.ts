import QRCode from "qrcode";

/**
 * The phone dialog's QR code as SVG text. Built as its own file and imported by address only when that
 * dialog opens, so the page's module carries neither the library nor a loader for it (decision 13).
 */
export function qrCodeSvg(url: string, width: number): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "H", width, margin: 1 });
}
