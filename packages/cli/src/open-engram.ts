import { existsSync } from "node:fs";
import {
  createEngram,
  type Embedder,
  type Engram,
  EngramError,
  type EngramOptions,
  embedderFromModel,
  offlineEmbeddingModel,
  type StoragePort,
} from "@engram/core";
import { type EmbedderSpec, embedderFromSpec, parseEmbedderSpec } from "@engram/core/integration";
import { DEFAULT_DB_PATH } from "@engram/core/sqlite";
import { InputError, UsageError } from "./cli-error.js";
import { failingJobsWarning } from "./failing-jobs.js";
import { interruptibleEmbedder } from "./interrupt.js";

export interface StoreFlags {
  readonly db?: string | undefined;
  readonly "qdrant-url"?: string | undefined;
  readonly "no-embed"?: boolean | undefined;
  /** `offline` (default), `none`, `openai:MODEL` or `onnx:DIR`; else ENGRAM_EMBEDDER. */
  readonly embedder?: string | undefined;
  /** The OpenAI-compatible API of an `openai:` embedder; else ENGRAM_EMBEDDER_URL. */
  readonly "embedder-url"?: string | undefined;
  /** Open the SQLite store read-only (reading commands and serve). */
  readonly readonly?: boolean | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The database file: --db, else ENGRAM_DB, else `.engram/engram.db`. */
export function dbPath(flags: StoreFlags, env: Env): string {
  return flags.db ?? (env.ENGRAM_DB || DEFAULT_DB_PATH);
}

/** Where the memories live: a SQLite file, or a Qdrant server. */
export type StoreTarget =
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "qdrant"; readonly url: string; readonly apiKey?: string; readonly prefix?: string };

/**
 * --qdrant-url, else --db, else QDRANT_URL, else ENGRAM_DB, else the default file: a flag beats the
 * environment, and naming both stores on the command line is a usage error. The Qdrant API key comes from
 * QDRANT_API_KEY only (a key on the command line would end up in shell history); ENGRAM_QDRANT_PREFIX
 * names the collections' prefix (default `engram_`).
 */
export function storeTarget(flags: StoreFlags, env: Env): StoreTarget {
  const flagUrl = flags["qdrant-url"];
  if (flagUrl !== undefined && flags.db !== undefined) {
    throw new UsageError("pass either --db PATH or --qdrant-url URL, not both");
  }
  const url = flagUrl ?? (flags.db === undefined ? env.QDRANT_URL || undefined : undefined);
  if (url === undefined) return { kind: "sqlite", path: dbPath(flags, env) };
  if (!/^https?:\/\/\S+$/.test(url)) {
    throw new UsageError(
      `bad Qdrant URL ${JSON.stringify(url)}: expected http(s)://host:port, e.g. http://localhost:6333`,
    );
  }
  return {
    kind: "qdrant",
    url,
    ...(env.QDRANT_API_KEY ? { apiKey: env.QDRANT_API_KEY } : {}),
    ...(env.ENGRAM_QDRANT_PREFIX ? { prefix: env.ENGRAM_QDRANT_PREFIX } : {}),
  };
}

/** The Qdrant store of a target, connected now: an unreachable server or a bad key fails before any work. */
export async function connectQdrant(target: Extract<StoreTarget, { kind: "qdrant" }>): Promise<StoragePort> {
  // Loaded only for a Qdrant target: SQLite commands start without it.
  const { qdrantStorage } = await import("@engram/core/qdrant");
  const storage = qdrantStorage({
    url: target.url,
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    ...(target.prefix ? { collectionPrefix: target.prefix } : {}),
  });
  await storage.connect();
  return storage;
}

/**
 * The embedder the flags name: `none` with --no-embed, else --embedder, else ENGRAM_EMBEDDER, else the
 * offline model. A bad spec is a usage error listing the accepted forms.
 */
export function embedderSpecOf(flags: StoreFlags, env: Env): EmbedderSpec {
  if (flags["no-embed"]) {
    if (flags.embedder !== undefined && flags.embedder !== "none") {
      throw new UsageError(`pass either --no-embed or --embedder ${flags.embedder}, not both`);
    }
    return { kind: "none" };
  }
  const [text, source] =
    flags.embedder !== undefined
      ? [flags.embedder, "--embedder"]
      : env.ENGRAM_EMBEDDER
        ? [env.ENGRAM_EMBEDDER, "ENGRAM_EMBEDDER"]
        : ["offline", "--embedder"];
  try {
    return parseEmbedderSpec(text, source);
  } catch (error) {
    throw EngramError.isInstance(error) ? new UsageError(error.message) : error;
  }
}

export interface OpenOptions {
  /** Refuse to create a store: reading commands pointed at a wrong path should say so, not make a file. */
  readonly mustExist: boolean;
  /** Process queued work (tiers, promotion) before closing: for commands that write. */
  readonly flush?: boolean;
  /** Stops embedding at the next group of texts once aborted (SIGINT/SIGTERM during ingest). */
  readonly signal?: AbortSignal | undefined;
  /** `false`: no job runs by itself while the command works; it runs queued work when it chooses. */
  readonly background?: boolean;
  /** After the command, one warning line on `stderr` when this user has failing background jobs. */
  readonly warnFailing?: { readonly userId: string; readonly stderr: { write(chunk: string): unknown } };
}

/**
 * The engine's embedder option. An `openai:` embedder calls --embedder-url (else ENGRAM_EMBEDDER_URL, else
 * OpenAI's API) with the key in OPENAI_API_KEY; a key on the command line would end up in shell history.
 * An `onnx:` one loads the model in the folder named.
 */
async function embedderOption(
  flags: StoreFlags,
  env: Env,
  signal: AbortSignal | undefined,
): Promise<EngramOptions> {
  const spec = embedderSpecOf(flags, env);
  if (flags["embedder-url"] !== undefined && spec.kind !== "openai") {
    throw new UsageError("--embedder-url applies to an openai:MODEL embedder (--embedder openai:MODEL)");
  }
  if (spec.kind === "none") return { embedder: null };
  if (spec.kind === "offline") {
    if (signal === undefined) return {};
    return { embedder: interruptibleEmbedder(embedderFromModel(offlineEmbeddingModel()), signal) };
  }
  const url = flags["embedder-url"] ?? (env.ENGRAM_EMBEDDER_URL || undefined);
  const model = await embedderFromSpec(spec, { url, apiKey: env.OPENAI_API_KEY || undefined });
  const embedder = embedderFromModel(model as NonNullable<typeof model>);
  return { embedder: signal ? interruptibleEmbedder(embedder, signal) : embedder };
}

/** The embedder the flags name, as the benchmarks take it: the offline model and `none` by name. */
export async function evalEmbedder(flags: StoreFlags, env: Env): Promise<"offline" | "none" | Embedder> {
  const spec = embedderSpecOf(flags, env);
  if (spec.kind === "offline" || spec.kind === "none") {
    if (flags["embedder-url"] !== undefined) {
      throw new UsageError("--embedder-url applies to an openai:MODEL embedder (--embedder openai:MODEL)");
    }
    return spec.kind;
  }
  return (await embedderOption(flags, env, undefined)).embedder as Embedder;
}

const background = (options: OpenOptions) =>
  options.background === undefined ? {} : { background: options.background };

/** Opens the store named by the flags. The offline model loads only when something is embedded. */
export async function openEngram(flags: StoreFlags, env: Env, options: OpenOptions): Promise<Engram> {
  const target = storeTarget(flags, env);
  const embedder = await embedderOption(flags, env, options.signal);
  if (target.kind === "qdrant") {
    if (flags.readonly) throw new UsageError("--readonly applies to a SQLite store (--db), not to Qdrant");
    return createEngram({ storage: await connectQdrant(target), ...embedder, ...background(options) });
  }
  if (options.mustExist && !existsSync(target.path)) {
    throw new InputError(
      `no store at ${target.path}; pass --db PATH (or set ENGRAM_DB), or ingest something first`,
    );
  }
  // Without --readonly a file this process cannot write still opens read-only (the engine decides).
  return createEngram({
    path: target.path,
    ...(flags.readonly ? { readonly: true } : {}),
    ...embedder,
    ...background(options),
  });
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
    // A read-only store keeps no queued work to process (and processing it would write).
    if (options.flush && !engram.readOnly) await engram.flush();
    if (options.warnFailing) {
      const warning = await failingJobsWarning(engram, options.warnFailing.userId);
      if (warning) options.warnFailing.stderr.write(`${warning}\n`);
    }
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
