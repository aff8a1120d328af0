/**
 * The booth's last choice of code: the plain pitch address, whose scans count as direct visits, not as an event.
 * Its id cannot be a QR code's (those are 8 letters and digits, or a UUID).
 */
export const PLAIN_PITCH_CODE = "plain";
export const PLAIN_PITCH_LABEL = "Pitch page, no event";

/** A code as the booth chooses among them: the project's tracked codes, oldest first. */
type BoothCodeChoice = { id: string; label: string };

/**
 * The code a booth shows when nothing chose one (issue 29 item 3): the newest code labelled like 'Booth', else the
 * newest code, else the plain pitch address.
 */
export function defaultBoothCode(codesOldestFirst: readonly BoothCodeChoice[]): string {
  const newestFirst = [...codesOldestFirst].reverse();
  return (newestFirst.find((code) => /booth/i.test(code.label)) ?? newestFirst[0])?.id ?? PLAIN_PITCH_CODE;
}

export const UNKNOWN_BOOTH_CODE_MESSAGE = "Choose one of this project's QR codes";
