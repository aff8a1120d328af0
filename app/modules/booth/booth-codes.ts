/**
 * The booth's last choice of code: the plain pitch address, whose scans count as direct visits, not as an event.
 * Its id cannot be a QR code's (those are 8 letters and digits, or a UUID).
 */
export const PLAIN_PITCH_CODE = "plain";
export const PLAIN_PITCH_LABEL = "Pitch page, no event";

/** A code as the booth chooses among them: the project's tracked codes, oldest first; an archived one is never the default. */
type BoothCodeChoice = { id: string; label: string; archived?: boolean };

/**
 * The code a booth shows when nothing chose one: the newest active code labelled like 'Booth', else
 * the newest active code, else the plain pitch address. An archived code left the event (decision 64).
 */
export function defaultBoothCode(codesOldestFirst: readonly BoothCodeChoice[]): string {
  const newestFirst = codesOldestFirst.filter((code) => !code.archived).reverse();
  return (newestFirst.find((code) => /booth/i.test(code.label)) ?? newestFirst[0])?.id ?? PLAIN_PITCH_CODE;
}

export const UNKNOWN_BOOTH_CODE_MESSAGE = "Choose one of this project's QR codes";
