import { idString, messageSchema } from "@engram/core/integration";
import type { z } from "zod";
import { InputError } from "./cli-error.js";

// The engine's own message schema, with the session named `session`: a file that passes here is accepted
// by add().
const jsonlLineSchema = messageSchema.omit({ sessionId: true }).extend({ session: idString.optional() });

export type JsonlLine = z.output<typeof jsonlLineSchema> & { readonly line: number };

/** Parses and validates one JSONL line; errors name its 1-based number. */
export function parseJsonlLine(raw: string, line: number): JsonlLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new InputError(`line ${line}: not valid JSON (${(error as Error).message})`);
  }
  return checkLine(value, `line ${line}`, line);
}

/** Validates one message object as a JSONL line holds it; errors start with `where`. */
export function checkLine(value: unknown, where: string, line: number): JsonlLine {
  const result = jsonlLineSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new InputError(`${where}: ${field}${issue?.message ?? "invalid message"}`);
  }
  return { ...result.data, line };
}

/**
 * Parses and validates every line of a JSONL file before anything is stored, so a bad line leaves the
 * store untouched. Blank lines are skipped; errors name the 1-based line.
 */
export function parseJsonl(text: string): JsonlLine[] {
  const lines: JsonlLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() !== "") lines.push(parseJsonlLine(raw, i + 1));
  });
  if (lines.length === 0)
    throw new InputError("the file holds no messages (expected one JSON object per line)");
  return lines;
}
