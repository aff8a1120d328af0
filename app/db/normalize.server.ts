import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from "./schema";
import type { Dialect } from "./dialect.server";

/**
 * Smooths over what the two drivers disagree on, so domain code writes and reads plain values:
 * - writes: lists and objects become JSON text (both drivers), booleans become 0/1 (SQLite), dates ISO text;
 * - reads: JSON columns are parsed (SQLite keeps text), boolean columns become booleans (SQLite keeps 0/1),
 *   timestamps become ISO strings (pg returns Date objects).
 */
export class NormalizeValuesPlugin implements KyselyPlugin {
  readonly #transformer: ValueTransformer;

  constructor(dialect: Dialect) {
    this.#transformer = new ValueTransformer(dialect);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) normalizeRow(row);
    return args.result;
  }
}

class ValueTransformer extends OperationNodeTransformer {
  constructor(private readonly dialect: Dialect) {
    super();
  }

  protected override transformValue(node: ValueNode): ValueNode {
    const value = toDriverValue(node.value, this.dialect);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map((value) => toDriverValue(value, this.dialect)) };
  }
}

function toDriverValue(value: unknown, dialect: Dialect): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return dialect === "sqlite" ? (value ? 1 : 0) : value;
  if (Array.isArray(value) || isPlainObject(value)) return JSON.stringify(value);
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function normalizeRow(row: UnknownRow): void {
  for (const key of Object.keys(row)) {
    const value = row[key];
    if (value instanceof Date) row[key] = value.toISOString();
    else if (JSON_COLUMNS.has(key) && typeof value === "string") row[key] = JSON.parse(value);
    else if (BOOLEAN_COLUMNS.has(key) && typeof value === "number") row[key] = value !== 0;
  }
}

/** True when the error is a unique-constraint violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== "object" || !("code" in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * True when the database aborted the transaction because it lost a race with another one, so running it again
 * can succeed: PostgreSQL's deadlock_detected (40P01) and serialization_failure (40001). SQLite has one writer
 * at a time and waits (busy timeout) instead.
 */
export function isRetryableConflict(error: unknown): boolean {
  if (!error || typeof error !== "object" || !("code" in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === "40P01" || code === "40001";
}
