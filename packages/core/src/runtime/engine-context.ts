import type { Embedder, LanguageModel } from "../ai/index.js";
import type { CacheSet, Clock, EventSink, IdGenerator, TracerLike } from "../model/index.js";
import type { FusionSettings, RetrievalConfig } from "../retrieval/index.js";
import type { StoragePort } from "../storage/index.js";
import type { Extractor } from "./extractor.js";
import type { Policy } from "./policy.js";
import type { SkillsConfig } from "./skills-config.js";

/** What of a memory is embedded: its first `maxChars` characters; `passages` passages of a long turn. */
export interface EmbeddingPolicy {
  readonly maxChars: number;
  readonly passages: number;
}

/** How the engine reaches the model for skills: one structured call (plus one retry) per use. */
export interface SkillModel {
  readonly model: LanguageModel;
  readonly onCall?: () => void;
  readonly timeoutMs?: number;
}

/** What every engine operation needs, in one flat record; built once by createEngram(). */
export interface EngineContext {
  readonly storage: StoragePort;
  /** null: full-text only, no vectors. */
  readonly embedder: Embedder | null;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly fusion: FusionSettings;
  /** The stages and sizes of the query path behind `retrieve`. */
  readonly retrieval: RetrievalConfig;
  /** What of a memory is embedded. */
  readonly embedding: EmbeddingPolicy;
  /** Index each message together with the turn before it in its session. */
  readonly contextWindow: boolean;
  /** Index each user turn with the facts the offline rules read from it (`metadata.factKeys`). */
  readonly factKeys?: boolean;
  /** Run the tiers (short-term overflow, segments, promotion to persona memory) after each add. */
  readonly tiers: boolean;
  /** Where failures handled in the background (a failing embedder, a retried job) are reported. */
  readonly events?: EventSink;
  /** The engine's bounded caches, cleared by `forget` and on close. */
  readonly caches: CacheSet;
  /** OpenTelemetry, when `telemetry.tracer` is set: the query path's stages get spans of their own. */
  readonly tracer?: TracerLike;
  /** The tier constants (capacities, heat weights, thresholds). */
  readonly policy: Policy;
  /** Where tier work gets its judgement: the offline rules or a language model. */
  readonly extractor: Extractor;
  /**
   * The offline rules, read whatever `extractor` is: the explicit facts of new user turns (the prompt
   * path to long-term memory, no model call per turn) and fact keys. null: neither.
   */
  readonly rules: Extractor | null;
  /** Trace recording and skill distillation settings. */
  readonly skills: SkillsConfig;
  /** null: the offline distiller (common tool subsequence) and offline feedback. */
  readonly skillModel: SkillModel | null;
}
