/** A text area's counter as both renderers show it: '12/1000' (a screen reader hears ' characters' after it), red past the limit. */
export function characterCount(length: number, max: number): { text: string; className: string } {
  return { text: `${length}/${max}`, className: `text-xs tabular-nums ${length > max ? "text-red-600" : "text-slate-500"}` };
}
