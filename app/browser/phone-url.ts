export const PHONE_QR_SIZE = 256;

/**
 * The address the phone should open: this page as the visitor sees it, without the dialog parameters (the
 * phone should not open this dialog again) and without `qr` (this visitor's scan is already counted; the
 * phone is the same person, not a second scan of that printed code).
 */
export function phoneUrl(href: string): string {
  const url = new URL(href);
  for (const param of ["dialog", "sent", "qr"]) url.searchParams.delete(param);
  url.hash = "";
  return url.toString();
}
