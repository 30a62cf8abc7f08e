import { z } from "zod";
import { ValidationError } from "../errors/index.js";

// Each object schema's strict twin, made once: unknown keys at a public boundary are refused.
const strictTwins = new WeakMap<z.ZodType, z.ZodType>();

function strict(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodObject) || schema.def.catchall !== undefined) return schema;
  let twin = strictTwins.get(schema);
  if (!twin) {
    twin = schema.strict();
    strictTwins.set(schema, twin);
  }
  return twin;
}

/**
 * Validates `value` against `schema` at a public boundary. On failure throws a ValidationError whose
 * message names the offending field and what was expected, e.g. `add: messages.0.content: expected string`.
 * A key the input's object does not know is refused by name (`search: unknown key "filter"; known: ...`):
 * a typo must not be silently dropped.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = strict(schema).safeParse(value);
  if (result.success) return result.data as z.output<S>;
  // An unknown key first: a misspelt key usually explains the field reported missing.
  const issues = result.error.issues;
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0];
  const path = issue?.path.length ? issue.path.join(".") : "(input)";
  const message =
    issue?.code === "unrecognized_keys"
      ? `${where}: ${issue.path.length ? `${path}: ` : ""}${unknownKeys(issue.keys, schema, issue.path)}`
      : `${where}: ${path}: ${issue?.message ?? "invalid input"}`;
  // A custom check's params (e.g. a size limit and the actual size) become details callers can read.
  const params = issue?.code === "custom" ? issue.params : undefined;
  throw new ValidationError(message, { details: { ...params, path, issues: result.error.issues } });
}

function unknownKeys(keys: readonly string[], schema: z.ZodType, path: readonly PropertyKey[]): string {
  const named = keys.map((k) => JSON.stringify(k)).join(", ");
  const known = path.length === 0 && schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  return `unknown key${keys.length > 1 ? "s" : ""} ${named}${known.length ? `; known: ${known.join(", ")}` : ""}`;
}
