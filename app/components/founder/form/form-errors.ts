import { flushSync } from "react-dom";
import { FORM_SLOT, slotDomId } from "~/components/ui/use-schema-form";

/**
 * Where the project form shows a message the schema keys by path (`title`, `metrics.0.label`, `tiers.1.rangeMax`,
 * `tiers.0.perks.2`): a list row the server saw at another index (`readProjectForm` drops blank rows) is shown at
 * its index on screen, and a perk's message under its tier's perks.
 */
const TIER_FIELDS = new Set(["rangeLabel", "rangeMin", "rangeMax", "perks"]);

/** For each list, the on-screen index of every row the server kept (`readProjectForm` drops blank rows). */
export type KeptRows = { metrics: readonly number[]; problemPoints: readonly number[]; solutionPoints: readonly number[] };

const isIndex = (part: string | undefined): part is string => part !== undefined && /^\d+$/.test(part);

export function errorSlot(path: string, kept: KeptRows): string {
  const [head = "", index, field] = path.split(".");
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
  return index === undefined ? head : FORM_SLOT;
}

/** The project form's field ids: `tiers.1.rangeMax` → `project-tiers-1-rangeMax`. */
export const PROJECT_FORM_ID = "project";
export const fieldDomId = (slot: string) => slotDomId(PROJECT_FORM_ID, slot);

/** Focuses an element by id (call after `flushSync`, so the element is in the document). */
export function focusNow(id: string) {
  document.getElementById(id)?.focus();
}

/** Adds or removes a list's row at once (so the row to focus is on the page), tells the form, then focuses `focusId`. */
export function reshapeList(change: () => void, onReshape: () => void, focusId: string) {
  flushSync(() => {
    change();
    onReshape();
  });
  focusNow(focusId);
}
