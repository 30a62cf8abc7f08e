import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./cli-error.js";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command accepts. */
export const COMMON_OPTIONS = {
  db: { type: "string" },
  "qdrant-url": { type: "string" },
  json: { type: "boolean" },
  "no-embed": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies OptionsConfig;

/** `--readonly`, for the commands that only read (and `serve`): open the store read-only. */
export const READONLY_OPTION = { readonly: { type: "boolean" } } as const satisfies OptionsConfig;

type AllOptions<O extends OptionsConfig> = typeof COMMON_OPTIONS & O;

/** Parsed flags (absent ones undefined) and bare arguments. Commands declare no `multiple` flags. */
export interface ParsedArgs<O extends OptionsConfig> {
  readonly values: {
    readonly [K in keyof AllOptions<O>]?: AllOptions<O>[K]["type"] extends "boolean" ? boolean : string;
  };
  readonly positionals: string[];
}

// Node's messages end with advice for scripts ("To specify a positional argument starting with a '-', ...").
function firstSentence(message: string): string {
  return message.split(/\.\s/)[0]?.replace(/\.$/, "") ?? message;
}

/**
 * Parses a command's arguments (after the command name) with util.parseArgs in strict mode, so an unknown
 * flag or a flag without its value is a UsageError that names it. `positionals` is how many bare arguments
 * the command takes.
 */
export function parseCommandArgs<const O extends OptionsConfig>(
  args: readonly string[],
  options: O,
  positionals: { readonly names: readonly string[]; readonly min?: number },
): ParsedArgs<O> {
  let parsed: ParsedArgs<O>;
  try {
    parsed = parseArgs({
      args,
      options: { ...COMMON_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    }) as ParsedArgs<O>;
  } catch (error) {
    throw new UsageError(firstSentence((error as Error).message));
  }
  const min = positionals.min ?? positionals.names.length;
  if (parsed.positionals.length < min) {
    throw new UsageError(`missing ${positionals.names.slice(parsed.positionals.length, min).join(" ")}`);
  }
  if (parsed.positionals.length > positionals.names.length) {
    const extra = parsed.positionals.slice(positionals.names.length);
    throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}${quoteHint(positionals.names)}`);
  }
  return parsed;
}

function quoteHint(names: readonly string[]): string {
  return names.some((n) => n.includes("QUERY") || n.includes("TEXT")) ? " (quote text that has spaces)" : "";
}

/** A required string flag, e.g. `--user U`. */
export function requireFlag(value: string | undefined, flag: string, meaning: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`missing --${flag} ${meaning}`);
  return value;
}

/** An integer flag within bounds; undefined when absent. */
export function integerFlag(
  value: string | undefined,
  flag: string,
  bounds: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < bounds.min || n > bounds.max) {
    throw new UsageError(
      `bad --${flag} ${JSON.stringify(value)}: expected a whole number from ${bounds.min} to ${bounds.max}`,
    );
  }
  return n;
}

/** A flag whose value must be one of `choices`; undefined when absent. */
export function choiceFlag<const C extends readonly string[]>(
  value: string | undefined,
  flag: string,
  choices: C,
): C[number] | undefined {
  if (value === undefined) return undefined;
  if (!choices.includes(value)) {
    throw new UsageError(`bad --${flag} ${JSON.stringify(value)}: expected one of ${choices.join(", ")}`);
  }
  return value as C[number];
}
