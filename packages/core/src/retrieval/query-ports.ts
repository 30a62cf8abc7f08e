import type { z } from "zod";
import type { Embedder } from "../ai/index.js";
import {
  type CacheSet,
  type Clock,
  type EventSink,
  inSpan,
  type MemoryRecord,
  type SpanLike,
  type TracerLike,
} from "../model/index.js";
import type { StoragePort } from "../storage/index.js";
import type { Channel, ChannelScore } from "./fuse-rankings.js";
import type { fusionConfigSchema, RetrievalConfig } from "./retrieval-config.js";

/** How the channels are fused and how many candidates each lists. */
export type FusionSettings = Readonly<z.output<typeof fusionConfigSchema>>;

/**
 * What the query path reads through: storage answers channel queries (full-text, vector, their statistics)
 * and lookups by id or edge, nothing more; ranking happens here, in `retrieval/`.
 */
export interface QueryPorts {
  readonly storage: Pick<
    StoragePort,
    "textSearch" | "textStats" | "vectorSearch" | "vectorStats" | "get" | "getVectors" | "edges" | "scan"
  >;
  /** null: full-text only. */
  readonly embedder: Embedder | null;
  readonly fusion: FusionSettings;
  readonly retrieval: RetrievalConfig;
  readonly clock: Clock;
  /** Where a query answered without its vector (the embedder failing) is reported. */
  readonly events?: EventSink;
  /** The engine's caches (parsed time spans, statements' stems); without them nothing is kept. */
  readonly caches?: CacheSet;
  /** With a tracer, each stage of a query is an `engram.query.<stage>` span. */
  readonly tracer?: TracerLike;
}

/**
 * Runs one stage of a query in an `engram.query.<stage>` span when the ports have a tracer (else just
 * runs it): where a slow search or retrieve spends its time, with counts, never text.
 */
export function inStage<T>(
  ports: Pick<QueryPorts, "tracer">,
  stage: string,
  fn: (span: SpanLike | null) => Promise<T>,
): Promise<T> {
  return inSpan(ports.tracer, `engram.query.${stage}`, {}, fn);
}

/** The sizes and rerank constants of the tier policy that `retrieve` reads. */
export interface RetrievePolicy {
  readonly retrievePages: number;
  readonly retrieveFacts: number;
  readonly retrieveSegments: number;
  readonly heatBoost: number;
  readonly heatThreshold: number;
  readonly mmrLambda: number;
  readonly relativeThreshold: number;
}

/** `retrieve` reads through the query ports, the policy, and the tiers' heat of a segment at a time. */
export interface RetrievePorts extends QueryPorts {
  readonly policy: RetrievePolicy;
  segmentHeat(segment: MemoryRecord, now: Date): number;
}

/** The passage a turn was found by (or, found whole, the one that best matches the query). */
export interface FoundPassage {
  readonly text: string;
  /** Its span in the turn's text. */
  readonly start: number;
  readonly end: number;
}

/** A memory the query path ranked, with why: the channels that listed it, and its score after every stage. */
export interface SearchResult {
  readonly id: string;
  readonly text: string;
  /** Fused score after the priors; comparable within one result list only. */
  readonly score: number;
  readonly kind: MemoryRecord["kind"];
  readonly tier: MemoryRecord["tier"];
  /** Event time of the memory (ISO), or null. */
  readonly at: string | null;
  /**
   * Set by `engram.search`: how relevant the memory is, in [0, 1], comparable across queries (the better
   * of the cosine similarity with the query and the share of the query's words the text holds); what
   * `minScore` is compared with. `score` orders one list and means nothing outside it.
   */
  readonly relevance?: number;
  /** Why it was found: each channel that returned it, with its rank and raw score. */
  readonly channels: Partial<Record<Channel, ChannelScore>>;
  readonly memory: MemoryRecord;
  /**
   * For a long turn (searched by its passages): the passage it was found by, or the one that best matches
   * the query; its span in `text`. Absent for anything else.
   */
  readonly passage?: FoundPassage;
}

/** A memory as a result of the query path, at `score`. */
export function asResult(
  memory: MemoryRecord,
  score: number,
  channels: SearchResult["channels"] = {},
  passage: FoundPassage | null = null,
): SearchResult {
  return {
    id: memory.id,
    text: memory.text,
    score,
    kind: memory.kind,
    tier: memory.tier,
    at: memory.validFrom,
    channels,
    memory,
    ...(passage ? { passage } : {}),
  };
}

/** Hits with the scores `scoreOf` gives them, best first; ties keep their order. */
export function rescored<T extends { score: number }>(hits: readonly T[], scoreOf: (hit: T) => number): T[] {
  return hits
    .map((hit, rank) => {
      const score = scoreOf(hit);
      return { hit: score === hit.score ? hit : { ...hit, score }, rank };
    })
    .sort((a, b) => b.hit.score - a.hit.score || a.rank - b.rank)
    .map((x) => x.hit);
}
