import { offlineExtractor } from "@engram/english";
import { z } from "zod";
import {
  checkedEmbedder,
  type Embedder,
  type EmbeddingModel,
  embedderFromModel,
  type LanguageModel,
  offlineEmbeddingModel,
} from "../ai/index.js";
import { ValidationError } from "../errors/index.js";
import {
  CacheSet,
  type Clock,
  consoleLogger,
  EMBEDDED_CHARS,
  EMBEDDED_PASSAGES,
  type EngramEvent,
  type EventSink,
  eventSink,
  type IdGenerator,
  type Logger,
  parseInput,
  randomIds,
  systemClock,
  type TracerLike,
} from "../model/index.js";
import {
  fusionConfigSchema,
  type RetrievalOptions,
  resolveRetrieval,
  retrievalOptionsSchema,
} from "../retrieval/index.js";
import {
  type EngineContext,
  type Extractor,
  type PolicyOption,
  resolvePolicy,
  type SkillsOptions,
  skillsConfigSchema,
} from "../runtime/index.js";
import { assertStorageSpecification, type StoragePort } from "../storage/index.js";
import { sqliteStorage } from "../storage/sqlite/index.js";
import { modelExtractor } from "../updating/index.js";
import { Engram } from "./engram.js";
import { recordedEmbedder } from "./recorded-embedder.js";
import { languageModelId, recordLanguageModel } from "./recorded-model.js";
import type { FusionConfig } from "./schemas.js";

// The English rules of @engram/english, typed here as the port: the compiler checks that the package fills it.
const ENGLISH: Extractor = offlineExtractor;

export interface EngramOptions {
  /** A storage backend. Default: the embedded SQLite store at `path`. */
  storage?: StoragePort;
  /** File of the default SQLite store. Default `.engram/engram.db`. */
  path?: string;
  /**
   * Open the default SQLite store read-only: search, retrieve, list, export and stats work; writes raise a
   * ReadOnlyError; no file is created beside the store. Default: read-only only when this process cannot
   * write the file. (For your own `storage`, pass it to `sqliteStorage({ readonly })` instead.)
   */
  readonly?: boolean;
  /**
   * Embedding model: any AI SDK embedding model, or an Embedder. Default: the offline USE-lite model
   * (no network). `null`: no vectors, full-text search only.
   */
  embedder?: EmbeddingModel | Embedder | null;
  /** @deprecated Pass it as `retrieval.fusion`; accepted here until the next release. */
  fusion?: FusionConfig;
  /**
   * The query path behind `search` and `retrieve`: a preset (`conversation`, the default, or `plain` for
   * memories that are not dialogue), any of its priors, stages and sizes, and the channels' `fusion`.
   */
  retrieval?: RetrievalOptions;
  /**
   * What of a memory is embedded: its first `maxChars` characters (default 320, cut at a word; the
   * full-text index holds every word) and `passages` passages of a long turn (default 0: a long turn is
   * found through its passages' full text). The defaults suit the offline model, which costs about a
   * millisecond a token; an embedder with a long window and a low price can take more.
   */
  embedding?: { maxChars?: number; passages?: number };
  /** Search each message together with the turn before it in its session. Default true. */
  contextWindow?: boolean;
  /**
   * Index each user turn together with the facts the offline rules read from it ("The user works as a
   * nurse."), in full text and in its vector. Default false: measured on LoCoMo and LongMemEval, see
   * docs/benchmarks.md "Facts in the index".
   */
  factKeys?: boolean;
  /**
   * The tiered engine: short-term overflow to mid-term segments, heat, promotion to persona memory.
   * Default true. `false` keeps every message as a raw short-term memory (search still works).
   */
  tiers?: boolean;
  /** Tier constants: a preset name (`paper`, `memoryos-lib`) or overrides. Default `paper`. */
  policy?: PolicyOption;
  /**
   * A language model (any AI SDK LanguageModel) for summaries, segment assignment, persona extraction
   * and feedback: one structured call per eviction batch, per promotion, per feedback. Default: none, the
   * offline rule-based extractor does the job.
   */
  llm?: LanguageModel;
  /** Called before every language-model request (e.g. to count calls). */
  onModelCall?: () => void;
  /**
   * Longest wait for one language-model request, in ms (default 120,000). A request not answered by then
   * is abandoned and its job retried later with back-off; the turns it was working on stay stored.
   */
  llmTimeoutMs?: number;
  /**
   * Procedural memory: traces of what the agent did, distilled into skills. On by default; with `llm` one
   * structured call per distillation, else the offline distiller.
   */
  skills?: SkillsOptions;
  /** Replaces the extractor entirely (advanced; `llm` is the usual way). */
  extractor?: Extractor;
  /**
   * What the prompt path and fact keys read, with no model call per turn: the explicit facts of each new
   * user turn are current once the tiers job that sees it has run. Default: the English rules
   * (`offlineExtractor` of `@engram/english`), whatever `extractor` or `llm` is; another language's
   * extractor, or null to leave every fact to promotion (and index no fact keys).
   */
  rules?: Extractor | null;
  /** Process queued work in the background (default true); `flush()` always processes it. */
  background?: boolean;
  /**
   * Hears of what the engine handles without failing a call: a job retried or given up, the embedder
   * failing (writes stored without vectors, queries answered by full text), a background run that failed,
   * and with `slowMs` slow calls. Must not throw.
   */
  onEvent?: (event: EngramEvent) => void;
  /**
   * Where those events are written for people. Default: the console (stderr), warnings and errors, each
   * distinct line at most once a minute. `false`: nowhere (`onEvent` still hears everything).
   */
  logger?: Logger | false;
  /** `slow` events for add, search, retrieve, flush and jobs that take longer than this many ms. Default: none. */
  slowMs?: number;
  /**
   * OpenTelemetry: spans `engram.add`, `engram.search`, `engram.retrieve`, `engram.flush` and one
   * `engram.job` per job run, from `tracer` (e.g. `trace.getTracer("my-app")` from `@opentelemetry/api`),
   * and an `engram.query.<stage>` span per stage of the query path inside search and retrieve.
   * Spans carry the user id and counts, never stored text. Default: no spans.
   */
  telemetry?: { tracer: TracerLike };
  /** Seams for deterministic tests. */
  clock?: Clock;
  ids?: IdGenerator;
}

/** The engine's embedder, every answer checked (checkedEmbedder): a bad vector is never stored. */
function toEmbedder(option: EngramOptions["embedder"]): Embedder | null {
  if (option === null) return null;
  if (option === undefined) return checkedEmbedder(embedderFromModel(offlineEmbeddingModel()));
  return checkedEmbedder(
    "embed" in option && typeof option.embed === "function"
      ? option
      : embedderFromModel(option as EmbeddingModel),
  );
}

/** Options validated where they are used (objects and functions), not by the options schema. */
const CHECKED_WHERE_USED = [
  "storage",
  "embedder",
  "policy",
  "llm",
  "onModelCall",
  "extractor",
  "rules",
  "clock",
  "ids",
  "onEvent",
  "logger",
  "telemetry",
] as const satisfies readonly (keyof EngramOptions)[];

const optionsSchema = z.object({
  path: z.string().min(1).optional(),
  readonly: z.boolean().optional(),
  fusion: fusionConfigSchema.optional(),
  retrieval: retrievalOptionsSchema.optional(),
  embedding: z
    .object({
      maxChars: z.number().int().min(16).max(1_000_000).default(EMBEDDED_CHARS),
      passages: z.number().int().min(0).max(256).default(EMBEDDED_PASSAGES),
    })
    .strict()
    .default({ maxChars: EMBEDDED_CHARS, passages: EMBEDDED_PASSAGES }),
  contextWindow: z.boolean().default(true),
  factKeys: z.boolean().default(false),
  tiers: z.boolean().default(true),
  background: z.boolean().default(true),
  // At most a day: setTimeout fires at once past 2^31 - 1 ms.
  llmTimeoutMs: z.number().int().min(1).max(86_400_000).optional(),
  slowMs: z.number().min(0).max(86_400_000).optional(),
  skills: skillsConfigSchema.default(skillsConfigSchema.parse({})),
  // Checked where they are used (objects and functions); listed so that an unknown key is refused.
  ...Object.fromEntries(CHECKED_WHERE_USED.map((key) => [key, z.unknown().optional()])),
});

// Every option is in the schema or in CHECKED_WHERE_USED: a new option left out of both fails to compile
// here, instead of being refused at run time as an unknown key.
type Unlisted = Exclude<
  keyof EngramOptions,
  keyof typeof optionsSchema.shape | (typeof CHECKED_WHERE_USED)[number]
>;
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyOptionListed;

/** Creates an Engram. With no options: the embedded SQLite store and the offline embedder. */
export async function createEngram(options: EngramOptions = {}): Promise<Engram> {
  const {
    fusion: oldFusion,
    retrieval: retrievalOption,
    embedding,
    contextWindow,
    factKeys,
    path,
    readonly,
    tiers,
    background,
    llmTimeoutMs,
    skills,
    slowMs,
  } = parseInput(optionsSchema, options, "createEngram");
  const events = eventSink(reportingOptions(options));
  const clock = options.clock ?? systemClock;
  if (oldFusion && retrievalOption?.fusion)
    throw new ValidationError(
      "createEngram: pass retrieval.fusion only (fusion is its old place, deprecated), not both",
      { details: { path: "fusion" } },
    );
  if (oldFusion)
    events({
      type: "deprecated",
      at: clock().toISOString(),
      name: "createEngram.fusion",
      use: "createEngram.retrieval.fusion",
    });
  const fusion = retrievalOption?.fusion ?? oldFusion ?? fusionConfigSchema.parse({});
  const retrieval = resolveRetrieval(retrievalOption);
  if (options.storage && (path !== undefined || readonly !== undefined)) {
    throw new ValidationError(
      "createEngram: path and readonly configure the default SQLite store; with your own storage, pass them to sqliteStorage({ path, readonly })",
      { details: { path: path !== undefined ? "path" : "readonly" } },
    );
  }
  if (options.storage) assertStorageSpecification(options.storage, "createEngram");
  const storage =
    options.storage ??
    sqliteStorage({ ...(path ? { path } : {}), ...(readonly === undefined ? {} : { readonly }) });
  const embedder = toEmbedder(options.embedder);
  const rules = options.rules === undefined ? ENGLISH : options.rules;
  if (rules !== null && typeof rules?.persona !== "function") {
    throw new ValidationError(
      "createEngram: rules must be an Extractor (with a persona function), or null to turn the prompt path off",
      { details: { path: "rules" } },
    );
  }
  const modelCalls = options.llm
    ? {
        model: options.llm,
        ...(options.onModelCall ? { onCall: options.onModelCall } : {}),
        ...(llmTimeoutMs !== undefined ? { timeoutMs: llmTimeoutMs } : {}),
      }
    : null;
  const ctx: EngineContext = {
    storage,
    // Bound to the store: a store whose vectors another embedder made is refused, never mixed.
    embedder: embedder && recordedEmbedder(storage, embedder),
    clock,
    ids: options.ids ?? randomIds,
    fusion,
    retrieval,
    embedding,
    contextWindow,
    factKeys,
    tiers,
    policy: resolvePolicy(options.policy),
    rules,
    extractor: options.extractor ?? (modelCalls ? modelExtractor(modelCalls.model, modelCalls) : ENGLISH),
    skills,
    skillModel: modelCalls,
    events,
    caches: new CacheSet(),
    ...telemetryOption(options.telemetry),
  };
  if (options.llm) {
    const report = { events, at: () => clock().toISOString() };
    await recordLanguageModel(storage, languageModelId(options.llm), report).catch(async (error) => {
      // The store this call opened is closed again; a store the caller gave stays theirs to close.
      if (!options.storage) await storage.close().catch(() => {});
      throw error;
    });
  }
  return new Engram(ctx, {
    background,
    moveEmbedder: embedder,
    ...(slowMs === undefined ? {} : { slowMs }),
  });
}

/** `onEvent` and `logger` checked (functions are not in the options schema) and the default logger set. */
function reportingOptions(options: EngramOptions): { onEvent?: EventSink; logger: Logger | null } {
  const { onEvent, logger } = options;
  if (onEvent !== undefined && typeof onEvent !== "function") {
    throw new ValidationError(`createEngram: onEvent must be a function, got ${typeof onEvent}`, {
      details: { onEvent: typeof onEvent },
    });
  }
  const isLogger = (x: unknown): x is Logger =>
    typeof x === "object" &&
    x !== null &&
    typeof (x as Logger).warn === "function" &&
    typeof (x as Logger).error === "function";
  if (logger !== undefined && logger !== false && !isLogger(logger)) {
    throw new ValidationError(
      "createEngram: logger must be an object with warn and error methods (console fits), or false",
      { details: { logger: typeof logger } },
    );
  }
  return {
    ...(onEvent ? { onEvent } : {}),
    logger: logger === false ? null : (logger ?? consoleLogger()),
  };
}

function telemetryOption(telemetry: EngramOptions["telemetry"]): { tracer?: TracerLike } {
  if (telemetry === undefined) return {};
  const tracer = (telemetry as { tracer?: unknown } | null)?.tracer;
  if (typeof (tracer as TracerLike | undefined)?.startActiveSpan !== "function") {
    throw new ValidationError(
      "createEngram: telemetry.tracer must be an OpenTelemetry Tracer (e.g. trace.getTracer(name) from @opentelemetry/api)",
      { details: { telemetry: "tracer" } },
    );
  }
  return { tracer: tracer as TracerLike };
}
