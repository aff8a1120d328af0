/**
 * Puts the schema's messages where the founder sees them. `validate` keys messages by path (`title`,
 * `metrics.0.label`, `tiers.1.rangeMax`, `tiers.0.perks.2`); each path becomes one slot on screen, the
 * field's id is derived from the slot, and the first message per slot wins (schema order = screen order).
 */
const TOP_FIELDS = new Set(["title", "slug", "oneLiner", "summary", "videoUrl", "deckUrl", "calendlyUrl", "status"]);
const TIER_FIELDS = new Set(["rangeLabel", "rangeMin", "rangeMax", "perks"]);

/** For each list, the on-screen index of every row the server kept (`readProjectForm` drops blank rows). */
export type KeptRows = { metrics: readonly number[]; problemPoints: readonly number[]; solutionPoints: readonly number[] };

const isIndex = (part: string | undefined): part is string => part !== undefined && /^\d+$/.test(part);

export function errorSlot(path: string, kept: KeptRows): string {
  const [head = "", index, field] = path.split(".");
  if (TOP_FIELDS.has(head)) return head;
  if (head === "metrics" || head === "problemPoints" || head === "solutionPoints") {
    if (!isIndex(index)) return head;
    const row = kept[head][Number(index)] ?? Number(index);
    if (head !== "metrics") return `${head}.${row}`;
    return `metrics.${row}.${field === "value" ? "value" : "label"}`;
  }
  if (head === "tiers") {
    if (!isIndex(index) || !field || !TIER_FIELDS.has(field)) return "tiers";
    return `tiers.${index}.${field}`;
  }
  return "form";
}

export function screenErrors(fieldErrors: Record<string, string>, kept: KeptRows): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors)) {
    const slot = errorSlot(path, kept);
    if (!(slot in out)) out[slot] = message;
  }
  return out;
}

/** `tiers.1.rangeMax` → `project-tiers-1-rangeMax`. */
export const fieldDomId = (slot: string) => `project-${slot.replaceAll(".", "-")}`;

const FOCUSABLE = "input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled])";

/** Focuses the slot's field; for a list-level slot, the first control in that list (or its checked radio). */
export function focusSlot(slot: string | undefined) {
  if (!slot) return;
  const element = document.getElementById(fieldDomId(slot));
  if (!element) return;
  const target = element.matches(FOCUSABLE)
    ? element
    : (element.querySelector<HTMLElement>("input[type=radio]:checked") ?? element.querySelector<HTMLElement>(FOCUSABLE));
  target?.focus();
}

/** Focuses an element by id (call after `flushSync`, so the element is in the document). */
export function focusNow(id: string) {
  document.getElementById(id)?.focus();
}
