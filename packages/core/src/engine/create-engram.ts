import { z } from "zod";
import { ClosedError, ValidationError } from "../errors/index.js";
import { forgetRememberedTexts } from "../generation/build-candidates.js";
import {
  type Clock,
  EMBEDDED_CHARS,
  EMBEDDED_PASSAGES,
  type IdGenerator,
  parseInput,
  randomIds,
  systemClock,
} from "../model/index.js";
import {
  type Embedder,
  type EmbeddingModel,
  embedderFromModel,
  type LanguageModel,
  offlineEmbeddingModel,
} from "../models/index.js";
import { type RetrievalOptions, retrievalConfigSchema } from "../retrieval/index.js";
import {
  type FlushOptions,
  type RunControl,
  type RunJobsReport,
  runDueJobs,
  Worker,
} from "../scheduler/index.js";
import {
  distillSkills,
  isAgentTenant,
  type SkillContext,
  type SkillsApi,
  type SkillsOptions,
  skillsApi,
  skillsConfigSchema,
  type TracesApi,
  tracesApi,
} from "../skills/index.js";
import {
  assertWritable,
  type Erasure,
  type ForgetReport,
  JOB_STATUSES,
  type Job,
  type JobStatus,
  type StoragePort,
  type StorageStats,
  sqliteStorage,
} from "../storage/index.js";
import { applyFeedback, type FeedbackResult } from "../updating/apply-feedback.js";
import type { EngineContext } from "../updating/engine-context.js";
import { modelExtractor } from "../updating/model-extractor.js";
import { offlineExtractor } from "../updating/offline-extractor.js";
import { type PolicyOption, resolvePolicy } from "../updating/policy.js";
import { recordVisits } from "../updating/record-visits.js";
import { runTiers } from "../updating/run-tiers.js";
import type { Extractor } from "../updating/tier-context.js";
import { type AddResult, addMessages } from "./add-messages.js";
import { embedJobHandler } from "./embed-job.js";
import { registerBackend } from "./engine-backends.js";
import { type ExportDump, exportUser, type ImportResult, importDump } from "./export-import.js";
import { type ItemsApi, itemsApi } from "./items-api.js";
import { type KvApi, kvApi } from "./kv-api.js";
import { type MemoriesApi, memoriesApi } from "./memories-api.js";
import { type ProfileTrait, readProfile } from "./profile.js";
import { type RetrieveInput, type RetrieveResult, retrieveContext } from "./retrieve-context.js";
import {
  type AddInput,
  erasureInputSchema,
  type FeedbackInput,
  type FusionConfig,
  feedbackInputSchema,
  flushOptionsSchema,
  forgetInputSchema,
  fusionConfigSchema,
  profileInputSchema,
  type SearchInput,
  type UserInput,
  userInputSchema,
} from "./schemas.js";
import { type SearchResult, searchMemories } from "./search-memories.js";
import { VisitLog } from "./visit-log.js";

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
  fusion?: FusionConfig;
  /** The query path behind `retrieve`: turns searched for the context, neighbours, stages on or off. */
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
  /** Process queued work in the background (default true); `flush()` always processes it. */
  background?: boolean;
  /** Seams for deterministic tests. */
  clock?: Clock;
  ids?: IdGenerator;
}

function toEmbedder(option: EngramOptions["embedder"]): Embedder | null {
  if (option === null) return null;
  if (option === undefined) return embedderFromModel(offlineEmbeddingModel());
  return "embed" in option && typeof option.embed === "function"
    ? option
    : embedderFromModel(option as EmbeddingModel);
}

/** The Engram facade: memory for one application, many users, each call scoped by userId. */
export class Engram {
  readonly memories: MemoriesApi;
  /** What the agent did: runs of tasks with their tool calls (`traces.add`), the raw material of skills. */
  readonly traces: TracesApi;
  /** Procedures distilled from recurring traces: list, read, edit, correct, share. */
  readonly skills: SkillsApi;
  /** The user's key-value space (checkpoints, integration registries), scoped on every call. */
  readonly kv: KvApi;
  /** Keyed JSON items in the user's cubes (the LangGraph store), with history and embeddings. */
  readonly items: ItemsApi;
  private closed = false;
  private readonly worker: Worker;
  private readonly background: boolean;
  private readonly visits: VisitLog;

  constructor(
    private readonly ctx: SkillContext,
    background = true,
  ) {
    registerBackend(this, ctx.storage);
    this.memories = memoriesApi(ctx);
    this.traces = tracesApi(ctx, () => {
      if (this.background) this.worker.kick();
    });
    this.skills = skillsApi(ctx);
    this.kv = kvApi(ctx.storage, () => this.open());
    this.items = itemsApi(ctx, () => this.open());
    // A read-only store runs no jobs and records no visits: both write.
    this.background = background && !ctx.storage.readOnly;
    this.worker = new Worker((control) => this.runJobs(control), this.background ? 2000 : 0);
    this.visits = new VisitLog(async (userId, segmentIds) => {
      const now = this.ctx.clock().toISOString();
      const job = { id: `job_${this.ctx.ids()}`, type: "visit", payload: { segmentIds }, runAt: now };
      await this.ctx.storage.write({ userId }, { jobs: [job] });
      if (this.background) this.worker.kick();
    });
  }

  get embedder(): Embedder | null {
    return this.ctx.embedder;
  }

  /** Why the store is read-only (writes raise a ReadOnlyError), or null when it takes writes. */
  get readOnly(): string | null {
    return this.ctx.storage.readOnly ?? null;
  }

  /** The effective configuration, e.g. for reports: backend, embedder, fusion, context window. */
  get config(): {
    backend: string;
    embedder: string | null;
    fusion: EngineContext["fusion"];
    retrieval: EngineContext["retrieval"];
    embedding: EngineContext["embedding"];
    contextWindow: boolean;
  } {
    return {
      backend: this.ctx.storage.backend,
      embedder: this.ctx.embedder?.id ?? null,
      fusion: this.ctx.fusion,
      retrieval: this.ctx.retrieval,
      embedding: this.ctx.embedding,
      contextWindow: this.ctx.contextWindow,
    };
  }

  /** Stores dialogue turns. They are searchable when this resolves (read-your-writes). */
  async add(input: AddInput): Promise<AddResult> {
    this.open();
    assertWritable(this.ctx.storage, "add");
    const result = await addMessages(this.ctx, input);
    if (result.status === "pending" && this.background) this.worker.kick();
    return result;
  }

  /**
   * The memory context for a query within a token budget: profile, facts, retrieved pages, recent turns;
   * structured and rendered as a fenced block that marks stored text as data.
   */
  async retrieve(input: RetrieveInput): Promise<RetrieveResult> {
    this.open();
    return retrieveContext(this.ctx, input, async (userId, segmentIds) => {
      if (!this.readOnly) this.visits.record(userId, segmentIds);
    });
  }

  /** The user's structured profile (current user facts), or as it was at a point in time. */
  async profile(input: UserInput & { at?: string | Date }): Promise<ProfileTrait[]> {
    this.open();
    // The time is checked like every other: an invalid one is a ValidationError, not a RangeError.
    const { userId, at } = parseInput(profileInputSchema, input, "profile");
    return readProfile(this.ctx.storage, { userId }, at);
  }

  /** Applies a natural-language correction; superseded facts stay in history. */
  async feedback(input: FeedbackInput): Promise<FeedbackResult> {
    this.open();
    assertWritable(this.ctx.storage, "feedback");
    const { userId, text, at } = parseInput(feedbackInputSchema, input, "feedback");
    return applyFeedback(this.ctx, { userId }, text, at ?? this.ctx.clock().toISOString());
  }

  /** Hybrid full-text + vector search over the user's memories; each result says which channels found it. */
  async search(input: SearchInput): Promise<SearchResult[]> {
    this.open();
    return searchMemories(this.ctx, input);
  }

  /** Removes every record, vector, history row, job and checkpoint of the user, and their bytes on disk. */
  async forget(input: UserInput): Promise<ForgetReport> {
    this.open();
    assertWritable(this.ctx.storage, "forget");
    const { userId } = parseInput(forgetInputSchema, input, "forget");
    // No job may be mid-way for this user while it is erased, or it could write the user back.
    return this.worker.exclusive(async () => {
      this.visits.drop(userId);
      await this.visits.flush();
      const report = await this.ctx.storage.forgetUser({ userId });
      forgetRememberedTexts();
      return report;
    });
  }

  /**
   * Completes what earlier forgets left on disk, waiting up to `waitMs` (default 2,000) for readers of
   * older pages, and says whether the forgotten users' bytes are gone from the store's files.
   */
  async erasure(input: { waitMs?: number } = {}): Promise<Erasure> {
    this.open();
    const { waitMs } = parseInput(erasureInputSchema, input, "erasure");
    const storage = this.ctx.storage;
    if (!storage.completeErasure)
      return { state: "delegated", reason: `${storage.backend} frees deleted data itself` };
    return storage.completeErasure(waitMs ?? 2000);
  }

  async export(input: UserInput): Promise<ExportDump> {
    this.open();
    const { userId } = parseInput(userInputSchema, input, "export");
    return exportUser(this.ctx, userId);
  }

  async import(dump: unknown): Promise<ImportResult> {
    this.open();
    assertWritable(this.ctx.storage, "import");
    return importDump(this.ctx, dump);
  }

  /** Counts for one user, or for the whole store. */
  async stats(input?: UserInput): Promise<StorageStats> {
    this.open();
    if (input === undefined) return this.ctx.storage.stats();
    const { userId } = parseInput(userInputSchema, input, "stats");
    return this.ctx.storage.stats({ userId });
  }

  /** The user's durable jobs (tiers, embeddings, visits) with state, attempts and last error. */
  async jobs(input: UserInput & { status?: JobStatus }): Promise<Job[]> {
    this.open();
    const { userId, status } = parseInput(jobsInputSchema, input, "jobs");
    return this.ctx.storage.jobs({ userId }, status);
  }

  /** Users with stored memory (not the tenants that hold agents' shared skills). */
  async users(): Promise<string[]> {
    this.open();
    return (await this.ctx.storage.users()).filter((id) => !isAgentTenant(id));
  }

  /**
   * Runs queued work (tier work, embeddings that failed earlier) until nothing is due. Long tier work
   * runs in bounded steps, each one atomic write: `signal` stops it after the current step (it rejects
   * with the signal's reason, and the rest runs the next time jobs run), and `onProgress` hears of each.
   */
  async flush(options: FlushOptions = {}): Promise<RunJobsReport> {
    this.open();
    assertWritable(this.ctx.storage, "flush");
    const { signal, onProgress } = parseInput(flushOptionsSchema, options, "flush");
    await this.visits.flush();
    return this.worker.flush({ signal, onProgress });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.visits.close();
    await this.worker.stop();
    await this.ctx.storage.close();
  }

  private runJobs(control: RunControl): Promise<RunJobsReport> {
    const ctx = this.ctx;
    return runDueJobs({
      storage: ctx.storage,
      clock: ctx.clock,
      signal: control.signal,
      ...(control.onProgress ? { onProgress: control.onProgress } : {}),
      handlers: {
        embed: embedJobHandler(ctx),
        tiers: (job, steps) => runTiers(ctx, { userId: job.userId }, steps),
        skills: async (job) => {
          await distillSkills(ctx, { userId: job.userId });
        },
        // Visits only count; promotion runs in the (deduplicated) tiers job, so a retry never counts twice.
        visit: async (job) => {
          const scope = { userId: job.userId };
          await recordVisits(ctx, scope, (job.payload.segmentIds as string[] | undefined) ?? [], {
            id: `job_${ctx.ids()}`,
            type: "tiers",
            payload: {},
            dedupeKey: "tiers",
            runAt: ctx.clock().toISOString(),
          });
        },
      },
    });
  }

  private open(): void {
    if (this.closed) throw new ClosedError("this Engram instance");
  }
}

const jobsInputSchema = userInputSchema.extend({ status: z.enum(JOB_STATUSES).optional() });

const optionsSchema = z.object({
  path: z.string().min(1).optional(),
  readonly: z.boolean().optional(),
  fusion: fusionConfigSchema.default(fusionConfigSchema.parse({})),
  retrieval: retrievalConfigSchema.default(retrievalConfigSchema.parse({})),
  embedding: z
    .object({
      maxChars: z.number().int().min(16).max(1_000_000).default(EMBEDDED_CHARS),
      passages: z.number().int().min(0).max(256).default(EMBEDDED_PASSAGES),
    })
    .strict()
    .default({ maxChars: EMBEDDED_CHARS, passages: EMBEDDED_PASSAGES }),
  contextWindow: z.boolean().default(true),
  tiers: z.boolean().default(true),
  background: z.boolean().default(true),
  // At most a day: setTimeout fires at once past 2^31 - 1 ms.
  llmTimeoutMs: z.number().int().min(1).max(86_400_000).optional(),
  skills: skillsConfigSchema.default(skillsConfigSchema.parse({})),
});

/** Creates an Engram. With no options: the embedded SQLite store and the offline embedder. */
export async function createEngram(options: EngramOptions = {}): Promise<Engram> {
  const {
    fusion,
    retrieval,
    embedding,
    contextWindow,
    path,
    readonly,
    tiers,
    background,
    llmTimeoutMs,
    skills,
  } = parseInput(optionsSchema, options, "createEngram");
  if (options.storage && (path !== undefined || readonly !== undefined)) {
    throw new ValidationError(
      "createEngram: path and readonly configure the default SQLite store; with your own storage, pass them to sqliteStorage({ path, readonly })",
      { details: { path: path !== undefined ? "path" : "readonly" } },
    );
  }
  const ctx: SkillContext = {
    storage:
      options.storage ??
      sqliteStorage({ ...(path ? { path } : {}), ...(readonly === undefined ? {} : { readonly }) }),
    embedder: toEmbedder(options.embedder),
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    fusion,
    retrieval,
    embedding,
    contextWindow,
    tiers,
    policy: resolvePolicy(options.policy),
    extractor:
      options.extractor ??
      (options.llm
        ? modelExtractor(options.llm, {
            ...(options.onModelCall ? { onCall: options.onModelCall } : {}),
            ...(llmTimeoutMs !== undefined ? { timeoutMs: llmTimeoutMs } : {}),
          })
        : offlineExtractor),
    skills,
    skillModel: options.llm
      ? {
          model: options.llm,
          ...(options.onModelCall ? { onCall: options.onModelCall } : {}),
          ...(llmTimeoutMs !== undefined ? { timeoutMs: llmTimeoutMs } : {}),
        }
      : null,
  };
  return new Engram(ctx, background);
}
