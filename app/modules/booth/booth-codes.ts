/**
 * The booth's last choice of code: the plain pitch address, whose scans count as direct visits, not as an event.
 * Its id cannot be a QR code's (those are 8 letters and digits, or a UUID).
 */
export const PLAIN_PITCH_CODE = "plain";
export const PLAIN_PITCH_LABEL = "Pitch page, no event";
