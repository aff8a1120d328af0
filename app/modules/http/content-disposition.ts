/**
 * A Content-Disposition header naming a download: an ASCII fallback (quotes, backslashes and anything outside
 * printable ASCII replaced) and the exact name as RFC 5987 `filename*`.
 */
export function contentDisposition(fileName: string, type: "attachment" | "inline" = "attachment"): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const exact = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
