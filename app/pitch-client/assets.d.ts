declare module "virtual:pitch-client-assets" {
  /** The enhancement module's hashed address. */
  export const enhanceScript: string;
  /** The phone dialog's QR code drawer (`qr-code.ts`), loaded only when that dialog opens. */
  export const qrCodeScript: string;
  /** The deck reader's controls (`app/browser/deck-reader.ts`), loaded as a deck comes near the screen. */
  export const deckReaderScript: string;
  /** `/saved`'s list (`saved-page.ts`), loaded only on that page. */
  export const savedListScript: string;
  /** The pitch-only stylesheet's text, inlined into the anonymous page. */
  export const pitchStyles: string;
  /** `/saved`'s stylesheet's text (the pitch page's with the saved list's classes), inlined into that page. */
  export const savedStyles: string;
  /** The service worker's stable address. */
  export const serviceWorkerScript: string;
}
