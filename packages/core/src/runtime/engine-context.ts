import type { Embedder } from "../ai/index.js";
import type { CacheSet, Clock, EventSink, IdGenerator } from "../model/index.js";
import type { FusionSettings, RetrievalConfig } from "../retrieval/index.js";
import type { StoragePort } from "../storage/index.js";

/** What of a memory is embedded: its first `maxChars` characters; `passages` passages of a long turn. */
export interface EmbeddingPolicy {
  readonly maxChars: number;
  readonly passages: number;
}

/** What every engine operation needs; built once by createEngram(). */
export interface EngineContext {
  readonly storage: StoragePort;
  /** null: full-text only, no vectors. */
  readonly embedder: Embedder | null;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly fusion: FusionSettings;
  /** The stages and sizes of the query path behind `retrieve`. */
  readonly retrieval: RetrievalConfig;
  /** What of a memory is embedded; the defaults (EMBEDDED_CHARS, EMBEDDED_PASSAGES) when absent. */
  readonly embedding?: EmbeddingPolicy;
  /** Index each message together with the turn before it in its session. */
  readonly contextWindow: boolean;
  /** Run the tiers (short-term overflow, segments, promotion to persona memory) after each add. */
  readonly tiers: boolean;
  /** Where failures handled in the background (a failing embedder, a retried job) are reported. */
  readonly events?: EventSink;
  /** The engine's bounded caches, cleared by `forget` and on close. */
  readonly caches: CacheSet;
}
