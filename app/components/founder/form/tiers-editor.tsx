import { ChevronDown, ChevronUp, Trash2 } from "lucide-react";
import { useState } from "react";
import { flushSync } from "react-dom";
import { bareInputClass, describedBy, FieldError, labelClass } from "~/components/ui/form-fields";
import { AddButton, IconButton } from "~/components/ui/icon-buttons";
import type { FieldOf, FieldProps } from "~/components/ui/use-schema-form";
import { LIMITS } from "~/modules/projects/project-form";
import { formatAmountRange } from "~/modules/formats/amount";
import { fieldDomId, focusNow } from "./form-errors";
import { amountOrNull, moveItem, type TierRow } from "./form-state";

type Props = {
  rows: TierRow[];
  onChange: (rows: TierRow[]) => void;
  onReshape: () => void;
  field: FieldOf;
  newKey: () => string;
};

/** Signal tiers: label, minimum, optional maximum and perks per tier, in the order shown. */
export function TiersEditor({ rows, onChange, onReshape, field, newKey }: Props) {
  const [announcement, setAnnouncement] = useState("");
  const full = rows.length >= LIMITS.tiers;
  const addId = "project-tiers-add";

  function update(index: number, patch: Partial<TierRow>) {
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  }
  /** Applies a change to the list's shape, then moves focus to an element the new render contains. */
  function reshape(next: TierRow[], message: string, focusId: string) {
    flushSync(() => {
      onChange(next);
      onReshape();
      setAnnouncement(message);
    });
    focusNow(focusId);
  }
  function add() {
    const previous = rows.at(-1);
    const next = [...rows, { key: newKey(), rangeLabel: "", rangeMin: previous?.rangeMax ?? "", rangeMax: "", perks: "" }];
    reshape(next, `Added tier ${next.length}`, fieldDomId(`tiers.${rows.length}.rangeLabel`));
  }
  function remove(index: number) {
    const name = rows[index]?.rangeLabel.trim();
    reshape(
      rows.filter((_, i) => i !== index),
      `Removed tier ${name || index + 1}`,
      addId,
    );
  }
  function move(index: number, to: number) {
    const name = rows[index]?.rangeLabel.trim() || `${index + 1}`;
    // Keep focus on the control that was used, or on its twin once the tier reaches an end.
    const direction = to < index ? "up" : "down";
    const atEnd = direction === "up" ? to === 0 : to === rows.length - 1;
    const control = atEnd ? (direction === "up" ? "down" : "up") : direction;
    reshape(moveItem(rows, index, to), `Moved tier ${name} to position ${to + 1} of ${rows.length}`, `${fieldDomId(`tiers.${to}`)}-move-${control}`);
  }

  return (
    <div id={fieldDomId("tiers")}>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {rows.length ? (
        <ol className="space-y-3">
          {rows.map((row, index) => (
            <TierCard
              key={row.key}
              row={row}
              index={index}
              count={rows.length}
              field={field}
              onUpdate={(patch) => update(index, patch)}
              onMove={(to) => move(index, to)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      ) : (
        <p className="rounded-xl border border-dashed border-slate-200 px-4 py-3 text-sm text-slate-500">
          No tiers: visitors can still request an intro or subscribe, but cannot signal an amount.
        </p>
      )}
      <FieldError id={`${fieldDomId("tiers")}-error`} message={field("tiers").error} />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <AddButton id={addId} onClick={add} disabled={full}>
          Add Tier
        </AddButton>
        {full ? <span className="text-xs text-slate-500">At most {LIMITS.tiers} tiers</span> : null}
      </div>
    </div>
  );
}

function TierCard({
  row,
  index,
  count,
  field,
  onUpdate,
  onMove,
  onRemove,
}: {
  row: TierRow;
  index: number;
  count: number;
  field: FieldOf;
  onUpdate: (patch: Partial<TierRow>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const base = `tiers.${index}`;
  const baseId = fieldDomId(base);
  const number = index + 1;
  const min = amountOrNull(row.rangeMin);
  const max = amountOrNull(row.rangeMax);
  const preview = min === null ? null : formatAmountRange(min, max);
  const label = field(`${base}.rangeLabel`);
  const rangeMin = field(`${base}.rangeMin`);
  const rangeMax = field(`${base}.rangeMax`);
  const perks = field(`${base}.perks`);

  return (
    <li className="rounded-xl border border-slate-200 bg-slate-50/70 p-3 sm:p-4">
      <fieldset className="min-w-0">
        <legend className="sr-only">Tier {number}</legend>
        <div className="flex items-center justify-between gap-2">
          <div aria-hidden className="flex min-w-0 items-center gap-2">
            <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-bold text-white">{number}</span>
            <span className="hidden truncate text-sm font-semibold text-slate-900 sm:block">{row.rangeLabel.trim() || "New tier"}</span>
            {preview ? <span className="shrink-0 rounded-full bg-white px-2 py-0.5 text-xs font-medium tabular-nums text-slate-600 ring-1 ring-slate-200">{preview}</span> : null}
          </div>
          <div className="-mr-1.5 flex shrink-0 items-center">
            <IconButton id={`${baseId}-move-up`} label={`Move tier ${number} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
              <ChevronUp aria-hidden className="size-4" />
            </IconButton>
            <IconButton id={`${baseId}-move-down`} label={`Move tier ${number} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
              <ChevronDown aria-hidden className="size-4" />
            </IconButton>
            <IconButton label={`Remove tier ${number}`} tone="danger" onClick={onRemove}>
              <Trash2 aria-hidden className="size-4" />
            </IconButton>
          </div>
        </div>

        <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)_minmax(0,1fr)]">
          <div className="col-span-2 sm:col-span-1">
            <TierLabel htmlFor={label.id} required={label.required}>
              Tier name
            </TierLabel>
            <input
              id={label.id}
              value={row.rangeLabel}
              onChange={(event) => onUpdate({ rangeLabel: event.target.value })}
              required={label.required}
              maxLength={label.maxLength}
              placeholder="e.g. Angel"
              data-error-slot={label["data-error-slot"]}
              aria-invalid={label.error ? true : undefined}
              aria-describedby={describedBy(label.error && `${label.id}-error`)}
              className={`mt-1 ${bareInputClass}`}
            />
            <FieldError id={`${label.id}-error`} message={label.error} />
          </div>
          <AmountInput field={rangeMin} label="Min ($)" required value={row.rangeMin} onChange={(value) => onUpdate({ rangeMin: value })} placeholder="5000" />
          <AmountInput
            field={rangeMax}
            label="Max ($)"
            value={row.rangeMax}
            onChange={(value) => onUpdate({ rangeMax: value })}
            placeholder="No limit"
            optional
          />
          <div className="col-span-2 sm:col-span-3">
            <TierLabel htmlFor={perks.id} hint="one per line">
              Perks
            </TierLabel>
            <textarea
              id={perks.id}
              value={row.perks}
              onChange={(event) => onUpdate({ perks: event.target.value })}
              rows={Math.min(LIMITS.perks, Math.max(2, row.perks.split("\n").length))}
              placeholder={"Quarterly investor update\nEarly product access"}
              data-error-slot={perks["data-error-slot"]}
              aria-invalid={perks.error ? true : undefined}
              aria-describedby={describedBy(perks.error && `${perks.id}-error`, `${perks.id}-hint`)}
              className={`mt-1 ${bareInputClass} resize-y`}
            />
            <FieldError id={`${perks.id}-error`} message={perks.error} />
          </div>
        </div>
      </fieldset>
    </li>
  );
}

function TierLabel({ htmlFor, required, hint, children }: { htmlFor: string; required?: boolean; hint?: string; children: string }) {
  return (
    <div className="flex items-baseline gap-1">
      <label htmlFor={htmlFor} className={labelClass}>
        {children}
      </label>
      {required ? (
        <span aria-hidden className="text-sm text-red-600">
          *
        </span>
      ) : null}
      {hint ? (
        <span id={`${htmlFor}-hint`} className="text-xs text-slate-500">
          ({hint})
        </span>
      ) : null}
    </div>
  );
}

/** A whole-dollar amount; amounts are numbers in the schema, so `required` is the form's word, not a text check. */
function AmountInput({
  field,
  label,
  required,
  value,
  onChange,
  placeholder,
  optional,
}: {
  field: FieldProps;
  label: string;
  required?: boolean;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  optional?: boolean;
}) {
  const { id, error } = field;
  return (
    <div className="min-w-0">
      <TierLabel htmlFor={id} required={required} hint={optional ? "optional" : undefined}>
        {label}
      </TierLabel>
      <div className="relative mt-1">
        <span aria-hidden className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">
          $
        </span>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          required={required}
          placeholder={placeholder}
          data-error-slot={field["data-error-slot"]}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error && `${id}-error`)}
          className={`${bareInputClass} pl-7 tabular-nums`}
        />
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
