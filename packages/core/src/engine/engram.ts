import { z } from "zod";
import type { Embedder } from "../ai/index.js";
import { ClosedError } from "../errors/index.js";
import {
  errorMessage,
  inSpan,
  parseInput,
  reportSlow,
  type SlowOperation,
  type SpanAttribute,
  type SpanLike,
} from "../model/index.js";
import { type EngineContext, embedJob, jobHandlers } from "../runtime/index.js";
import {
  type FlushOptions,
  type RunControl,
  type RunJobsReport,
  runDueJobs,
  Worker,
} from "../scheduler/index.js";
import {
  isAgentTenant,
  type SkillsApi,
  skillsApi,
  skillsJob,
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
  type StorageStats,
} from "../storage/index.js";
import { applyFeedback, type FeedbackResult, tiersJob, visitJob } from "../updating/index.js";
import { type AddResult, addMessages } from "./add-messages.js";
import { registerBackend } from "./engine-backends.js";
import {
  type ExportDump,
  exportUser,
  type ImportOptions,
  type ImportResult,
  importDump,
} from "./export-import.js";
import { type ItemsApi, itemsApi } from "./items-api.js";
import { type KvApi, kvApi } from "./kv-api.js";
import { type MemoriesApi, memoriesApi } from "./memories-api.js";
import { type ProfileTrait, readProfile } from "./profile.js";
import { type ReembedInput, type ReembedResult, reembedStore } from "./reembed.js";
import { type RetrieveInput, type RetrieveResult, retrieveContext } from "./retrieve-context.js";
import {
  type AddInput,
  erasureInputSchema,
  type FeedbackInput,
  feedbackInputSchema,
  flushOptionsSchema,
  forgetInputSchema,
  importOptionsSchema,
  profileInputSchema,
  type SearchInput,
  type UserInput,
  userInputSchema,
} from "./schemas.js";
import { type SearchResult, searchMemories } from "./search-memories.js";
import { VisitLog } from "./visit-log.js";
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
  private readonly slowMs: number | undefined;
  /** The embedder unbound from the store's record, which only `reembed` uses (to replace that record). */
  private readonly moveEmbedder: Embedder | null;

  constructor(
    private readonly ctx: EngineContext,
    options: {
      readonly background: boolean;
      readonly slowMs?: number;
      readonly moveEmbedder: Embedder | null;
    },
  ) {
    this.moveEmbedder = options.moveEmbedder;
    this.slowMs = options.slowMs;
    registerBackend(this, ctx.storage);
    this.memories = memoriesApi(ctx);
    this.traces = tracesApi(ctx, () => {
      if (this.background) this.worker.kick();
    });
    this.skills = skillsApi(ctx);
    this.kv = kvApi(ctx.storage, () => this.open());
    this.items = itemsApi(ctx, () => this.open());
    // A read-only store runs no jobs and records no visits: both write.
    this.background = options.background && !ctx.storage.readOnly;
    const reportError = (error: unknown) =>
      ctx.events?.({ type: "background.error", at: ctx.clock().toISOString(), error: errorMessage(error) });
    this.worker = new Worker((control) => this.runJobs(control), this.background ? 2000 : 0, reportError);
    this.visits = new VisitLog(async (userId, segmentIds) => {
      const now = this.ctx.clock().toISOString();
      await this.ctx.storage.write({ userId }, { jobs: [visitJob.create(this.ctx, { segmentIds }, now)] });
      if (this.background) this.worker.kick();
    }, reportError);
  }

  /**
   * Runs `fn` in an `engram.<operation>` span when a tracer is set (`describe` adds what the result
   * says), and reports it as a `slow` event when it takes longer than the `slowMs` option.
   */
  private observed<T>(
    operation: SlowOperation,
    userId: string | null,
    fn: () => Promise<T>,
    describe: (result: T) => Record<string, SpanAttribute> = () => ({}),
  ): Promise<T> {
    const attributes: Record<string, SpanAttribute> = userId === null ? {} : { "engram.user_id": userId };
    return inSpan(this.ctx.tracer, `engram.${operation}`, attributes, async (span: SpanLike | null) => {
      const started = performance.now();
      const result = await fn();
      if (span) for (const [key, value] of Object.entries(describe(result))) span.setAttribute(key, value);
      const options = { clock: this.ctx.clock, onEvent: this.ctx.events, slowMs: this.slowMs };
      reportSlow(options, operation, performance.now() - started, userId);
      return result;
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
    const result = await this.observed(
      "add",
      userIdOf(input),
      () => addMessages(this.ctx, input),
      (r) => ({ "engram.memories": r.ids.length, "engram.status": r.status }),
    );
    if (result.status === "pending" && this.background) this.worker.kick();
    return result;
  }

  /**
   * The memory context for a query within a token budget: profile, facts, retrieved pages, recent turns;
   * structured and rendered as a fenced block that marks stored text as data.
   */
  async retrieve(input: RetrieveInput): Promise<RetrieveResult> {
    this.open();
    return this.observed(
      "retrieve",
      userIdOf(input),
      () =>
        retrieveContext(this.ctx, input, async (userId, segmentIds) => {
          if (!this.readOnly) this.visits.record(userId, segmentIds);
        }),
      (r) => ({ "engram.context.tokens": r.context.tokens }),
    );
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
    return this.observed(
      "search",
      userIdOf(input),
      () => searchMemories(this.ctx, input),
      (r) => ({ "engram.results": r.length }),
    );
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
      // None of the user's texts may stay in the engine's memory either.
      this.ctx.caches.clear();
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

  /**
   * Restores an export in one atomic write. A dump made with another embedder (or none) is embedded again
   * first, in groups: `onProgress` hears how many memories are embedded after each.
   */
  async import(dump: unknown, options: ImportOptions = {}): Promise<ImportResult> {
    this.open();
    const parsed = parseInput(importOptionsSchema, options, "import");
    assertWritable(this.ctx.storage, "import");
    return importDump(this.ctx, dump, parsed.onProgress ? { onProgress: parsed.onProgress } : {});
  }

  /**
   * Moves the store to this engine's embedder: a new vector for every memory that has one, then the store
   * records the new embedder. Resumable: after an interruption, run it again. No job runs meanwhile.
   */
  async reembed(input: ReembedInput = {}): Promise<ReembedResult> {
    this.open();
    return this.worker.exclusive(() => reembedStore(this.ctx, this.moveEmbedder, input));
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
    return this.observed(
      "flush",
      null,
      () => this.worker.flush({ signal, onProgress }),
      (r) => ({
        "engram.jobs.completed": r.completed,
        "engram.jobs.retried": r.retried,
        "engram.jobs.failed": r.failed,
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.visits.close();
    await this.worker.stop();
    await this.ctx.storage.close();
    this.ctx.caches.clear();
  }

  private runJobs(control: RunControl): Promise<RunJobsReport> {
    const ctx = this.ctx;
    return runDueJobs({
      storage: ctx.storage,
      clock: ctx.clock,
      signal: control.signal,
      ...(control.onProgress ? { onProgress: control.onProgress } : {}),
      ...(ctx.events ? { onEvent: ctx.events } : {}),
      ...(this.slowMs === undefined ? {} : { slowMs: this.slowMs }),
      ...(this.ctx.tracer ? { tracer: this.ctx.tracer } : {}),
      handlers: jobHandlers(ctx, [embedJob, tiersJob, visitJob, skillsJob]),
    });
  }

  private open(): void {
    if (this.closed) throw new ClosedError("this Engram instance");
  }
}

const jobsInputSchema = userInputSchema.extend({ status: z.enum(JOB_STATUSES).optional() });

/** The user a call names, for a `slow` event (the call itself validates it). */
function userIdOf(input: unknown): string | null {
  const userId = (input as { userId?: unknown } | null)?.userId;
  return typeof userId === "string" ? userId : null;
}
