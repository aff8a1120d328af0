import { X } from "lucide-react";
import { LIMITS } from "~/modules/projects/project-form";
import { bareInputClass, describedBy, FieldError } from "~/components/ui/form-fields";
import { AddButton, IconButton } from "~/components/ui/icon-buttons";
import type { FieldOf, FieldProps } from "~/components/ui/use-schema-form";
import type { MetricRow, PointRow } from "./form-state";
import { fieldDomId, reshapeList } from "./form-errors";

type ListProps<Row> = {
  rows: Row[];
  onChange: (rows: Row[]) => void;
  /** Called when rows are added or removed, so messages tied to row positions can be dropped. */
  onReshape: () => void;
  field: FieldOf;
  newKey: () => string;
};

/** Traction metrics: rows of label and value, each removable; 'Add Metric' adds an empty row. */
export function MetricsEditor({ rows, onChange, onReshape, field, newKey }: ListProps<MetricRow>) {
  const full = rows.length >= LIMITS.metrics;
  const list = field("metrics");
  const addId = "project-metrics-add";

  function update(index: number, patch: Partial<MetricRow>) {
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  }
  function add() {
    reshape(() => onChange([...rows, { key: newKey(), label: "", value: "" }]), fieldDomId(`metrics.${rows.length}.label`));
  }
  function remove(index: number) {
    reshape(() => onChange(rows.filter((_, i) => i !== index)), addId);
  }
  const reshape = (change: () => void, focusId: string) => reshapeList(change, onReshape, focusId);

  return (
    <div id={fieldDomId("metrics")}>
      {rows.length ? (
        <>
          <div aria-hidden className="mb-1.5 grid grid-cols-[minmax(0,1.35fr)_minmax(0,1fr)_2.5rem] gap-2 text-xs font-medium uppercase tracking-wide text-slate-500">
            <span>Label</span>
            <span>Value</span>
          </div>
          <ul className="space-y-2">
            {rows.map((row, index) => {
              const label = field(`metrics.${index}.label`);
              const value = field(`metrics.${index}.value`);
              return (
                <li key={row.key}>
                  <div className="grid grid-cols-[minmax(0,1.35fr)_minmax(0,1fr)_2.5rem] items-start gap-2">
                    <div>
                      <RowInput
                        field={label}
                        label={`Metric ${index + 1} name`}
                        value={row.label}
                        onValue={(text) => update(index, { label: text })}
                        placeholder="e.g. Monthly revenue"
                      />
                    </div>
                    <div>
                      <RowInput
                        field={value}
                        label={`Metric ${index + 1} value`}
                        value={row.value}
                        onValue={(text) => update(index, { value: text })}
                        placeholder="e.g. $48k"
                      />
                    </div>
                    <IconButton label={`Remove metric ${index + 1}`} tone="danger" onClick={() => remove(index)}>
                      <X aria-hidden className="size-4" />
                    </IconButton>
                  </div>
                  <FieldError id={`${label.id}-error`} message={label.error} />
                  <FieldError id={`${value.id}-error`} message={value.error} />
                </li>
              );
            })}
          </ul>
        </>
      ) : (
        <p className="rounded-xl border border-dashed border-slate-200 px-4 py-3 text-sm text-slate-500">
          No metrics yet. Show traction at a glance: revenue, users, growth, pilots.
        </p>
      )}
      <FieldError id={`${list.id}-error`} message={list.error} />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <AddButton id={addId} onClick={add} disabled={full}>
          Add Metric
        </AddButton>
        {full ? <span className="text-xs text-slate-500">At most {LIMITS.metrics} metrics</span> : null}
      </div>
    </div>
  );
}

/** Problem or solution points: a numbered list of one-line texts with add and remove. */
export function PointsEditor({
  name,
  title,
  noun,
  placeholder,
  rows,
  onChange,
  onReshape,
  field,
  newKey,
}: ListProps<PointRow> & { name: "problemPoints" | "solutionPoints"; title: string; noun: string; placeholder: string }) {
  const full = rows.length >= LIMITS.points;
  const addId = `${fieldDomId(name)}-add`;
  const titleId = `${fieldDomId(name)}-title`;
  const capitalised = noun.replace(/\b\w/g, (letter) => letter.toUpperCase());

  function add() {
    reshape(() => onChange([...rows, { key: newKey(), text: "" }]), fieldDomId(`${name}.${rows.length}`));
  }
  function remove(index: number) {
    reshape(() => onChange(rows.filter((_, i) => i !== index)), addId);
  }
  const reshape = (change: () => void, focusId: string) => reshapeList(change, onReshape, focusId);

  return (
    <div id={fieldDomId(name)} role="group" aria-labelledby={titleId}>
      <h3 id={titleId} className="text-sm font-semibold text-slate-800">
        {title}
      </h3>
      {rows.length ? (
        <ol className="mt-2 space-y-2">
          {rows.map((row, index) => {
            const point = field(`${name}.${index}`);
            return (
              <li key={row.key}>
                <div className="flex items-start gap-2">
                  <span aria-hidden className="mt-2.5 w-5 shrink-0 text-right text-sm font-medium tabular-nums text-slate-500">
                    {index + 1}.
                  </span>
                  <RowInput
                    field={point}
                    label={`${capitalised} ${index + 1}`}
                    value={row.text}
                    onValue={(text) => onChange(rows.map((item, i) => (i === index ? { ...item, text } : item)))}
                    placeholder={placeholder}
                    className={`${bareInputClass} min-w-0 flex-1`}
                  />
                  <IconButton label={`Remove ${noun} ${index + 1}`} tone="danger" onClick={() => remove(index)}>
                    <X aria-hidden className="size-4" />
                  </IconButton>
                </div>
                <div className="pl-7">
                  <FieldError id={`${point.id}-error`} message={point.error} />
                </div>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="mt-2 text-sm text-slate-500">None yet.</p>
      )}
      <FieldError id={`${fieldDomId(name)}-error`} message={field(name).error} />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <AddButton id={addId} onClick={add} disabled={full}>
          Add {capitalised}
        </AddButton>
        {full ? <span className="text-xs text-slate-500">At most {LIMITS.points} points</span> : null}
      </div>
    </div>
  );
}

type RowInputProps = {
  /** The row's field from the form (`metrics.0.label`): id, message, limit. */
  field: FieldProps;
  /** Read by screen readers only: the rows show no visible label. */
  label: string;
  value: string;
  onValue: (value: string) => void;
  placeholder: string;
  className?: string;
};

/** One text input of a list row, with its screen-reader label and its error wiring (no name: the list travels as JSON). */
function RowInput({ field, label, value, onValue, placeholder, className = bareInputClass }: RowInputProps) {
  const { id, error, maxLength } = field;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(event) => onValue(event.target.value)}
        maxLength={maxLength}
        placeholder={placeholder}
        data-error-slot={field["data-error-slot"]}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && `${id}-error`)}
        className={className}
      />
    </>
  );
}
