import type { core } from "zod/mini";

/** The HTML attributes an input takes from its schema field, so a component never repeats a limit. */
export type InputConstraints = { required?: true; maxLength?: number; minLength?: number };

type AnySchema = core.$ZodType;

/** The schema behind wrappers that do not change what a field accepts as text. */
function unwrap(schema: AnySchema): AnySchema {
  const def = schema._zod.def as unknown as { type: string; innerType?: AnySchema; in?: AnySchema; element?: AnySchema };
  if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) return unwrap(def.innerType);
  if (def.type === "pipe" && def.in) return unwrap(def.in);
  return schema;
}

/** The field at `path`; a list field stands for its items (one input per item). */
function fieldOf(schema: AnySchema, path: string | undefined): AnySchema {
  let current = schema;
  for (const key of path ? path.split(".") : []) {
    current = unwrap(current);
    const def = current._zod.def as unknown as { type: string; shape?: Record<string, AnySchema>; element?: AnySchema };
    if (def.type === "array" && def.element) current = unwrap(def.element);
    const shape = (current._zod.def as unknown as { shape?: Record<string, AnySchema> }).shape;
    const next = shape?.[key];
    if (!next) throw new Error(`The form schema has no field ${path ?? ""}`);
    current = next;
  }
  current = unwrap(current);
  const def = current._zod.def as unknown as { type: string; element?: AnySchema };
  return def.type === "array" && def.element ? unwrap(def.element) : current;
}

/**
 * `required`, `minLength` and `maxLength` of a field, read from its checks (`min_length`, `max_length`): the field
 * schema itself, or the one at `path` in an object schema. A dotted path reaches into lists of objects
 * (`metrics.label`, `tiers.rangeLabel`); a list of text (`problemPoints`) gives its items' constraints.
 */
export function constraintsOf(schema: AnySchema, path?: string): InputConstraints {
  const field = fieldOf(schema, path);
  const checks = ((field._zod.def as unknown as { checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[] }).checks ?? []).map(
    (check) => check._zod.def,
  );
  const constraints: InputConstraints = {};
  for (const check of checks) {
    if (check.check === "min_length" && (check.minimum ?? 0) >= 1) constraints.required = true;
    if (check.check === "min_length" && (check.minimum ?? 0) > 1) constraints.minLength = check.minimum;
    if (check.check === "max_length" && check.maximum !== undefined) constraints.maxLength = check.maximum;
  }
  return constraints;
}

/** The fields of an object schema in the order it declares them: the order its form shows them and its messages. */
export function fieldNamesOf(schema: AnySchema): string[] {
  const shape = (unwrap(schema)._zod.def as unknown as { shape?: Record<string, AnySchema> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** The `maxLength` a field's schema sets; a field without one is a mistake in the form, so it throws. */
export function maxLengthOf(schema: AnySchema, path?: string): number {
  const { maxLength } = constraintsOf(schema, path);
  if (maxLength === undefined) throw new Error(`The form field ${path ?? "schema"} sets no maximum length`);
  return maxLength;
}
