/**
 * One plain mailbox: a single at-sign, no spaces, and none of the characters that let an address header list
 * several recipients or carry a display name (`,` `;` `<` `>` `"` …). Shared by the visitor forms and the outbox.
 */
export const EMAIL_PATTERN = /^[^\s@,;:<>()[\]\\"]+@[^\s@,;:<>()[\]\\"]+\.[^\s@,;:<>()[\]\\"]+$/;

export function isSingleMailbox(value: string): boolean {
  return value.length <= 255 && EMAIL_PATTERN.test(value);
}
