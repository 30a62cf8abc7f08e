import type { SearchCounts } from "./search-bench.js";

/** Sizes of one benchmark run. `quick` keeps every measurement but at smaller sizes. */
export interface BenchConfig {
  readonly mode: "full" | "quick";
  /** Dialogue turns embedded once with USE-lite; every corpus reuses them. */
  readonly poolSize: number;
  /** Questions embedded once; each query of the search figures is one of them. */
  readonly questions: number;
  readonly ingest: { single: number; batched: number; maxSeconds: number };
  /** Turns of one user whose queued tier processing is timed (flush). */
  readonly tierTurns: number;
  /** One user each, with this many memories. */
  readonly scopeSizes: readonly number[];
  /** Many users in one store, `perUser` memories each; `queried` of them are searched. */
  readonly manyUsers: { users: number; perUser: number; queried: number };
  readonly counts: SearchCounts;
  /** Noise added to reused pool vectors (relative to their unit length). */
  readonly sigma: number;
}

export const FULL: BenchConfig = {
  mode: "full",
  poolSize: 2000,
  questions: 500,
  ingest: { single: 5000, batched: 30_000, maxSeconds: 15 },
  tierTurns: 2000,
  scopeSizes: [1000, 10_000, 100_000],
  manyUsers: { users: 1000, perUser: 100, queried: 100 },
  counts: { excluding: 500, including: 150, agreement: 100, adds: 30, maxSeconds: 20 },
  sigma: 0.5,
};

export const QUICK: BenchConfig = {
  mode: "quick",
  poolSize: 300,
  questions: 150,
  ingest: { single: 1000, batched: 10_000, maxSeconds: 5 },
  tierTurns: 500,
  scopeSizes: [1000, 10_000],
  manyUsers: { users: 100, perUser: 100, queried: 50 },
  counts: { excluding: 150, including: 40, agreement: 50, adds: 20, maxSeconds: 5 },
  sigma: 0.5,
};
