const MAX_LINE_OCTETS = 75;
const encoder = new TextEncoder();

/**
 * RFC 6350 section 3.2 (vCard) and RFC 5545 section 3.1 (iCalendar) fold content lines alike: a line longer than 75
 * octets continues on the next after CRLF and one space, which counts towards that line's 75. Folds between
 * characters, never inside a UTF-8 sequence, so every line stays valid UTF-8.
 */
export function foldContentLine(line: string): string {
  if (encoder.encode(line).length <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const limit = parts.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/**
 * A text value in a vCard (RFC 6350 section 3.4, RFC 2426 for 3.0) or an iCalendar (RFC 5545 section 3.3.11):
 * backslash, comma, semicolon and line breaks escaped. Every Unicode line break (CR LF, LF, VT, FF, CR, NEL, LS, PS)
 * becomes `\n`: a reader that breaks lines on any of them must never see a property of its own inside a value.
 */
export function escapeContentText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/,/g, "\\,").replace(/;/g, "\\;").replace(/\r\n|[\n\v\f\r\u0085\u2028\u2029]/g, "\\n");
}
