import { existsSync } from "node:fs";
import { createEngram, DEFAULT_DB_PATH, type Engram } from "@engram/core";
import { InputError, UsageError } from "./cli-error.js";

export const EMBEDDER_CHOICES = ["offline", "none"] as const;
export type EmbedderChoice = (typeof EMBEDDER_CHOICES)[number];

export interface StoreFlags {
  readonly db?: string | undefined;
  readonly "no-embed"?: boolean | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The database file: --db, else ENGRAM_DB, else `.engram/engram.db`. */
export function dbPath(flags: StoreFlags, env: Env): string {
  return flags.db ?? (env.ENGRAM_DB || DEFAULT_DB_PATH);
}

/** `none` with --no-embed or ENGRAM_EMBEDDER=none (full-text only); else the offline embedder. */
export function embedderChoice(flags: StoreFlags, env: Env): EmbedderChoice {
  if (flags["no-embed"]) return "none";
  const value = env.ENGRAM_EMBEDDER;
  if (value === undefined || value === "") return "offline";
  if (!(EMBEDDER_CHOICES as readonly string[]).includes(value)) {
    throw new UsageError(
      `bad ENGRAM_EMBEDDER ${JSON.stringify(value)}: expected ${EMBEDDER_CHOICES.join(" or ")}`,
    );
  }
  return value as EmbedderChoice;
}

export interface OpenOptions {
  /** Refuse to create a store: reading commands pointed at a wrong path should say so, not make a file. */
  readonly mustExist: boolean;
  /** Process queued work (tiers, promotion) before closing: for commands that write. */
  readonly flush?: boolean;
}

/** Opens the store named by the flags. The offline model loads only when something is embedded. */
export async function openEngram(flags: StoreFlags, env: Env, options: OpenOptions): Promise<Engram> {
  const path = dbPath(flags, env);
  const embedder = embedderChoice(flags, env);
  if (options.mustExist && !existsSync(path)) {
    throw new InputError(`no store at ${path}; pass --db PATH (or set ENGRAM_DB), or ingest something first`);
  }
  return createEngram({ path, ...(embedder === "none" ? { embedder: null } : {}) });
}

/** Runs `use` with an open store and always closes it. */
export async function withEngram<T>(
  flags: StoreFlags,
  env: Env,
  options: OpenOptions,
  use: (engram: Engram) => Promise<T>,
): Promise<T> {
  const engram = await openEngram(flags, env, options);
  try {
    const result = await use(engram);
    if (options.flush) await engram.flush();
    return result;
  } finally {
    await engram.close();
  }
}

/** Fails with a clear line when the user has nothing stored, instead of printing an empty result. */
export async function requireKnownUser(engram: Engram, userId: string): Promise<void> {
  if (!(await engram.users()).includes(userId)) {
    throw new InputError(`unknown user ${JSON.stringify(userId)}: nothing is stored for this user`);
  }
}
