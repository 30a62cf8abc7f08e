import type { AiSdkFigures } from "./ai-sdk.js";
import type { EmbeddingFigures } from "./embed-bench.js";
import type { EmbedderCheck } from "./embedder-check.js";
import type { IngestFigures, TierFigures } from "./ingest-bench.js";
import type { QdrantFigures } from "./qdrant.js";
import type { SearchFigures } from "./search-bench.js";
import type { MachineInfo } from "./stats.js";

/** Storing a prepared corpus through the storage port, vectors precomputed (one 100-turn session per write, durability normal). */
export interface CorpusBuild {
  readonly scenario: string;
  readonly memories: number;
  readonly seconds: number;
  readonly turnsPerSec: number;
}

export interface Goal {
  readonly name: string;
  readonly target: string;
  readonly actual: string;
  readonly met: boolean;
}

/** The document `pnpm bench` writes to docs/benchmarks/results.json. */
export interface BenchResults {
  readonly machine: MachineInfo;
  readonly mode: "full" | "quick";
  readonly durationSeconds: number;
  readonly method: Readonly<Record<string, string>>;
  readonly embedderCheck: EmbedderCheck;
  readonly embedding: EmbeddingFigures;
  readonly ingest: readonly IngestFigures[];
  readonly tierProcessing: TierFigures;
  readonly corpusBuild: readonly CorpusBuild[];
  readonly search: readonly SearchFigures[];
  /** AI SDK middleware overhead at 10k memories (bench/ai-sdk.ts). */
  readonly aiSdk?: readonly AiSdkFigures[];
  /** The Qdrant adapter's requests, bytes and wall time per operation against the protocol double (bench/qdrant.ts). */
  readonly qdrant?: QdrantFigures;
  readonly goals: readonly Goal[];
}

export function goals(ingest: readonly IngestFigures[], search: readonly SearchFigures[]): Goal[] {
  const out: Goal[] = [];
  const batched = ingest.find((i) => i.durability === "full" && i.messagesPerCall === 100);
  if (batched) {
    out.push({
      name: "raw ingest, 100 turns per add, durability full (default)",
      target: ">= 2,000 turns/s",
      actual: `${batched.turnsPerSec.toLocaleString("en")} turns/s`,
      met: batched.turnsPerSec >= 2000,
    });
  }
  const tenK = search.find((s) => s.users === 1 && s.scopeSize === 10_000);
  if (tenK) {
    const { p50, p95 } = tenK.excludingEmbedding;
    out.push({
      name: "search, 10k memories in one scope, excluding embedding",
      target: "p50 <= 2 ms, p95 <= 10 ms",
      actual: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
      met: p50 <= 2 && p95 <= 10,
    });
  }
  return out;
}
