import { z } from "zod";

/**
 * Inputs for any route, made from its zod schemas: a valid one (the smallest that passes) and
 * one that breaks a rule. Used by the access matrix and the hostile-input fuzz, so that a new
 * route gets its rows without a line of test.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export type Zod = z.ZodType;
export const isZod = (s: unknown): s is Zod => s instanceof z.ZodType;

export function jsonSchemaOf(schema: Zod): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** A uuid that names nothing (valid, never stored). */
const NO_SUCH_ID = "0190a0a0-0000-7000-8000-00000000dead";

/** Values for path parameters by name (their schemas are small and some have patterns). */
export const PARAM_EXAMPLES: Record<string, string> = {
  id: NO_SUCH_ID,
  courseId: NO_SUCH_ID,
  lessonId: NO_SUCH_ID,
  feedId: NO_SUCH_ID,
  key: "matrix.key",
  name: "cover.png",
  provider: "google",
  token: "matrix-token-0123456789",
  page: "legal-notice",
  code: "ABCD-2345",
};

/** Strings that pass a few well-known patterns of the contract. */
const PATTERN_EXAMPLES = ["matrix-value", "MATRIX_ROLE", "matrix.key", "es", "A1", "#336699", "12:30"];

function oneOf(schema: JsonSchema): JsonSchema | undefined {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return undefined;
  return options.find((o) => o.type !== "null") ?? options[0];
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") ?? schema.type[0];
  return schema.type;
}

function sampleString(schema: JsonSchema): string {
  switch (schema.format) {
    case "email":
      return "matrix@test.local";
    case "uuid":
      return NO_SUCH_ID;
    case "uri":
    case "url":
      return "https://example.com/matrix";
    case "date-time":
      return new Date(Date.now() + 7 * 86_400_000).toISOString();
    case "date":
      return "2030-01-07";
  }
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? Math.max(min, 32);
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    const hit = PATTERN_EXAMPLES.find((s) => re.test(s) && s.length >= min && s.length <= max);
    if (hit) return hit;
  }
  // a password-like value passes the contract's rules (length, special character) and is plain text elsewhere
  const base = "Matrix-value-1!";
  return base.repeat(Math.ceil(min / base.length) + 1).slice(0, Math.max(min, Math.min(max, base.length)));
}

function sampleNumber(schema: JsonSchema, integer: boolean): number {
  let n = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  if (schema.maximum !== undefined) n = Math.min(n, schema.maximum);
  if (schema.exclusiveMaximum !== undefined && n >= schema.exclusiveMaximum) n = schema.exclusiveMaximum - 1;
  return integer ? Math.ceil(n) : n;
}

/** The smallest value the schema accepts, as far as JSON Schema can say (refinements are not seen). */
export function sampleValid(schema: JsonSchema, depth = 0): unknown {
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const option = oneOf(schema);
  if (option) return sampleValid(option, depth + 1);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleValid(s, depth + 1)));
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        const prop = schema.properties?.[key];
        if (prop) out[key] = sampleValid(prop, depth + 1);
      }
      return out;
    }
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleValid(schema.items ?? {}, depth + 1));
    case "string":
      return sampleString(schema);
    case "integer":
      return sampleNumber(schema, true);
    case "number":
      return sampleNumber(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return {};
  }
}

/** A value of the wrong kind for this schema (a number for a string, a word for a number...). */
function wrongFor(schema: JsonSchema): unknown {
  const option = oneOf(schema);
  const t = typeOf(option ?? schema);
  if (schema.enum || schema.const !== undefined) return "NOT-ONE-OF-THEM";
  switch (t) {
    case "string":
      if (schema.format === "uuid" || schema.format === "email") return "not-valid";
      return schema.maxLength !== undefined ? "x".repeat(schema.maxLength + 1) : 12345;
    case "integer":
    case "number":
      return "not-a-number";
    case "boolean":
      return "maybe";
    case "array":
      return "not-a-list";
    default:
      return 12345;
  }
}

/** Query strings and path parameters travel as text. */
export const asText = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === "string" ? v : JSON.stringify(v),
    ]),
  );

/**
 * A variant of `valid` the schema refuses: one property of the wrong kind (required ones first),
 * else a list where an object is expected. Undefined when the schema takes anything.
 */
export function sampleInvalid(
  zod: Zod,
  valid: Record<string, unknown>,
  opts: { text?: boolean; keep?: string[] } = {},
): Record<string, unknown> | unknown[] | undefined {
  const schema = jsonSchemaOf(zod);
  const props = Object.keys(schema.properties ?? {}).filter((k) => !opts.keep?.includes(k));
  const required = new Set(schema.required ?? []);
  props.sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const refused = (candidate: unknown) => !zod.safeParse(opts.text ? asText(candidate) : candidate).success;
  for (const key of props) {
    const prop = schema.properties?.[key];
    if (!prop) continue;
    const candidate = { ...valid, [key]: wrongFor(prop) };
    if (refused(candidate)) return candidate;
  }
  if (!opts.text && refused([valid])) return [valid];
  return undefined;
}
