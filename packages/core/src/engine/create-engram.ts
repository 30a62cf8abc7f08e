import { z } from "zod";
import { ClosedError } from "../errors/index.js";
import { type Clock, type IdGenerator, parseInput, randomIds, systemClock } from "../model/index.js";
import {
  type Embedder,
  type EmbeddingModel,
  embedderFromModel,
  offlineEmbeddingModel,
} from "../models/index.js";
import { type RunJobsReport, runDueJobs } from "../scheduler/index.js";
import { type ForgetReport, type StoragePort, type StorageStats, sqliteStorage } from "../storage/index.js";
import { type AddResult, addMessages } from "./add-messages.js";
import { embedJobHandler } from "./embed-job.js";
import type { EngineContext } from "./engine-context.js";
import { type ExportDump, exportUser, type ImportResult, importDump } from "./export-import.js";
import { type MemoriesApi, memoriesApi } from "./memories-api.js";
import {
  type AddInput,
  type FusionConfig,
  fusionConfigSchema,
  type SearchInput,
  type UserInput,
  userInputSchema,
} from "./schemas.js";
import { type SearchResult, searchMemories } from "./search-memories.js";

export interface EngramOptions {
  /** A storage backend. Default: the embedded SQLite store at `path`. */
  storage?: StoragePort;
  /** File of the default SQLite store. Default `.engram/engram.db`. */
  path?: string;
  /**
   * Embedding model: any AI SDK embedding model, or an Embedder. Default: the offline USE-lite model
   * (no network). `null`: no vectors, full-text search only.
   */
  embedder?: EmbeddingModel | Embedder | null;
  fusion?: FusionConfig;
  /** Search each message together with the turn before it in its session. Default true. */
  contextWindow?: boolean;
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
  private closed = false;

  constructor(private readonly ctx: EngineContext) {
    this.memories = memoriesApi(ctx);
  }

  get storage(): StoragePort {
    return this.ctx.storage;
  }

  get embedder(): Embedder | null {
    return this.ctx.embedder;
  }

  /** The effective configuration, e.g. for reports: backend, embedder, fusion, context window. */
  get config(): {
    backend: string;
    embedder: string | null;
    fusion: EngineContext["fusion"];
    contextWindow: boolean;
  } {
    return {
      backend: this.ctx.storage.backend,
      embedder: this.ctx.embedder?.id ?? null,
      fusion: this.ctx.fusion,
      contextWindow: this.ctx.contextWindow,
    };
  }

  /** Stores dialogue turns. They are searchable when this resolves (read-your-writes). */
  async add(input: AddInput): Promise<AddResult> {
    this.open();
    return addMessages(this.ctx, input);
  }

  /** Hybrid full-text + vector search over the user's memories; each result says which channels found it. */
  async search(input: SearchInput): Promise<SearchResult[]> {
    this.open();
    return searchMemories(this.ctx, input);
  }

  /** Removes every record, vector, history row, job and checkpoint of the user, and their bytes on disk. */
  async forget(input: UserInput): Promise<ForgetReport> {
    this.open();
    const { userId } = parseInput(userInputSchema, input, "forget");
    return this.ctx.storage.forgetUser({ userId });
  }

  async export(input: UserInput): Promise<ExportDump> {
    this.open();
    const { userId } = parseInput(userInputSchema, input, "export");
    return exportUser(this.ctx, userId);
  }

  async import(dump: unknown): Promise<ImportResult> {
    this.open();
    return importDump(this.ctx, dump);
  }

  /** Counts for one user, or for the whole store. */
  async stats(input?: UserInput): Promise<StorageStats> {
    this.open();
    if (input === undefined) return this.ctx.storage.stats();
    const { userId } = parseInput(userInputSchema, input, "stats");
    return this.ctx.storage.stats({ userId });
  }

  /** Users with stored memory. */
  async users(): Promise<string[]> {
    this.open();
    return this.ctx.storage.users();
  }

  /** Runs queued work (e.g. embeddings that failed earlier) until nothing is due. */
  async flush(): Promise<RunJobsReport> {
    this.open();
    return runDueJobs({
      storage: this.ctx.storage,
      clock: this.ctx.clock,
      handlers: { embed: embedJobHandler(this.ctx) },
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ctx.storage.close();
  }

  private open(): void {
    if (this.closed) throw new ClosedError("this Engram instance");
  }
}

const optionsSchema = z.object({
  path: z.string().min(1).optional(),
  fusion: fusionConfigSchema.default(fusionConfigSchema.parse({})),
  contextWindow: z.boolean().default(true),
});

/** Creates an Engram. With no options: the embedded SQLite store and the offline embedder. */
export async function createEngram(options: EngramOptions = {}): Promise<Engram> {
  const { fusion, contextWindow, path } = parseInput(optionsSchema, options, "createEngram");
  const ctx: EngineContext = {
    storage: options.storage ?? sqliteStorage(path ? { path } : {}),
    embedder: toEmbedder(options.embedder),
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    fusion,
    contextWindow,
  };
  return new Engram(ctx);
}
