import { type ParseArgsConfig, parseArgs } from "node:util";
import type { MetadataFilter } from "@engram/core";
import { UsageError } from "./cli-error.js";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command accepts. */
export const COMMON_OPTIONS = {
  db: { type: "string" },
  "qdrant-url": { type: "string" },
  json: { type: "boolean" },
  "no-embed": { type: "boolean" },
  embedder: { type: "string" },
  "embedder-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies OptionsConfig;

/**
 * Splits a command line into the command name and its arguments, with the flags every command accepts
 * allowed before the name too: `engram --db x.db users` is `engram users --db x.db`.
 */
export function splitCommandLine(argv: readonly string[]): { name: string | undefined; args: string[] } {
  const leading: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    const flag = /^--([^=]+)/.exec(arg)?.[1];
    const option = flag === undefined ? undefined : GLOBAL_OPTIONS[flag as keyof typeof GLOBAL_OPTIONS];
    if (option === undefined) break;
    leading.push(arg);
    if (option.type === "string" && !arg.includes("=") && i + 1 < argv.length)
      leading.push(argv[++i] as string);
  }
  const [name, ...rest] = argv.slice(i);
  return { name, args: [...leading, ...rest] };
}

/** `--readonly`, for the commands that only read (and `serve`): open the store read-only. */
export const READONLY_OPTION = { readonly: { type: "boolean" } } as const satisfies OptionsConfig;

/** Flags that may come before the command name (`--help` there means the overview). */
const GLOBAL_OPTIONS = {
  db: COMMON_OPTIONS.db,
  "qdrant-url": COMMON_OPTIONS["qdrant-url"],
  json: COMMON_OPTIONS.json,
  "no-embed": COMMON_OPTIONS["no-embed"],
  embedder: COMMON_OPTIONS.embedder,
  "embedder-url": COMMON_OPTIONS["embedder-url"],
  readonly: READONLY_OPTION.readonly,
} as const;

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
  const all: OptionsConfig = { ...COMMON_OPTIONS, ...options };
  try {
    parsed = parseArgs({
      args: attachNegativeNumbers(args, all),
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

/**
 * `--k -1` as `--k=-1`: the parser takes a value starting with "-" for a flag, and says only that the
 * argument is ambiguous; attached, the value reaches the flag's own check, which says what is allowed.
 */
function attachNegativeNumbers(args: readonly string[], options: OptionsConfig): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const name = arg.startsWith("--") ? arg.slice(2) : undefined;
    if (
      name !== undefined &&
      options[name]?.type === "string" &&
      next !== undefined &&
      /^-\.?\d/.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
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

/**
 * `--filter JSON`: conditions on metadata, as `search` and `retrieve` take them; the engine checks the
 * fields and operators. Undefined when absent.
 */
export function filterFlag(value: string | undefined): MetadataFilter | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(
      `bad --filter ${JSON.stringify(value)}: expected a JSON object such as '{"project":"apollo","priority":{"$gte":2}}'`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError(
      `bad --filter ${JSON.stringify(value)}: expected a JSON object of metadata conditions`,
    );
  return parsed as MetadataFilter;
}

/** A number from 0 to 1; undefined when absent. */
export function fractionFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`bad --${flag} ${JSON.stringify(value)}: expected a number from 0 to 1`);
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
