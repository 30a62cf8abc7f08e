import type { z } from "zod";
import { ValidationError } from "../errors/index.js";

/**
 * Validates `value` against `schema` at a public boundary. On failure throws a ValidationError whose
 * message names the offending field and what was expected, e.g. `add: messages.0.content: expected string`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.length ? issue.path.join(".") : "(input)";
  const message = `${where}: ${path}: ${issue?.message ?? "invalid input"}`;
  // A custom check's params (e.g. a size limit and the actual size) become details callers can read.
  const params = issue?.code === "custom" ? issue.params : undefined;
  throw new ValidationError(message, { details: { ...params, path, issues: result.error.issues } });
}
