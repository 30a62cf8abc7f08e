// The LoCoMo part of `pnpm bench`: the peer table (FTS5 BM25, LangGraph's InMemoryStore, mem0 OSS and
// Engram, one process, one embedder) and the ablation of Engram's query path on the dev split. Engram's
// store is ingested once and shared by its peer row and every variant. Alone:
//   pnpm tsx --conditions=@engram/source bench/locomo-bench.ts [--data FILE] [--out DIR] [--store DIR]
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseLocomo } from "@engram/cli/locomo";
import { DEFAULT_CONTEXT_BUDGET } from "@engram/core";
import { toText } from "./bench-report.js";
import { rememberingEmbedder } from "./locomo-embedder.js";
import { eligibleQuestions, measurePeer, type PeerFigures } from "./locomo-peers.js";
import { ingestOnce, measureVariant, QUALITY_VARIANTS, type QualityRow } from "./locomo-quality.js";
import { locomoTables, writeLocomoPlot } from "./locomo-report.js";
import { engramPeer } from "./peer-engram.js";
import { fts5Peer } from "./peer-fts5.js";
import { langgraphStorePeer } from "./peer-langgraph-store.js";
import { mem0Peer } from "./peer-mem0.js";
import type { PeerSystem } from "./peer-system.js";
import { peerDocument } from "./peer-system.js";

export interface LocomoBenchResults {
  readonly data: string;
  readonly conversations: number;
  readonly budgetTokens: number;
  readonly embedder: string;
  /** Seconds to ingest Engram's store (embedding and tier work), 0 when an existing store was reused. */
  readonly engramIngestSeconds: number;
  readonly peers: readonly PeerFigures[];
  /** URLs mem0 tried to fetch during the run (each refused); empty when it stayed offline. */
  readonly mem0NetworkAttempts: readonly string[];
  readonly ablation: readonly QualityRow[];
  readonly seconds: number;
}

export interface LocomoBenchOptions {
  readonly data: string;
  /** Where Engram's ingested store lives; an existing `tiers.db` there is reused. Default: a temporary one. */
  readonly store?: string;
  readonly log?: (message: string) => void;
}

export async function locomoBench(options: LocomoBenchOptions): Promise<LocomoBenchResults> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const conversations = parseLocomo(JSON.parse(await readFile(options.data, "utf8")));
  const dir = options.store ?? mkdtempSync(join(tmpdir(), "engram-locomo-"));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "tiers.db");
  const embedder = rememberingEmbedder();
  const systems: PeerSystem[] = [];
  try {
    log("LoCoMo: ingesting Engram's store (embedding, tiers flushed per session)");
    const ingestStart = performance.now();
    await ingestOnce(path, conversations, embedder);
    const engramIngestSeconds = Math.round((performance.now() - ingestStart) / 1000);
    log("LoCoMo: embedding the peers' turn texts once (the stores then read them from memory)");
    const dims = ((await embedder.embed(["dimensions"]))[0] as Float32Array).length;
    await embedder.embed(conversations.flatMap((c) => c.turns.map(peerDocument)));
    systems.push(fts5Peer(conversations));
    systems.push(await langgraphStorePeer(conversations, embedder, dims));
    const mem0 = await mem0Peer(conversations, embedder, dims, dir);
    systems.push(mem0, await engramPeer(path, embedder));
    const questions = eligibleQuestions(conversations);
    const peers: PeerFigures[] = [];
    for (const system of systems) {
      log(`LoCoMo peers: ${system.name}, ${questions.length} questions`);
      const figures = await measurePeer(system, questions, embedder, DEFAULT_CONTEXT_BUDGET);
      peers.push(figures);
      log(`  recall@10 ${figures.recall["10"]}, context ${figures.context_evidence_recall}`);
    }
    for (const system of systems.splice(0)) await system.close();
    const ablation: QualityRow[] = [];
    for (const variant of QUALITY_VARIANTS) {
      log(`LoCoMo ablation: ${variant.name}`);
      ablation.push(
        ...(await measureVariant(path, conversations, embedder, variant, DEFAULT_CONTEXT_BUDGET)),
      );
    }
    return {
      data: options.data,
      conversations: conversations.length,
      budgetTokens: DEFAULT_CONTEXT_BUDGET,
      embedder: embedder.id,
      engramIngestSeconds,
      peers,
      mem0NetworkAttempts: [...mem0.networkAttempts],
      ablation,
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    for (const system of systems) await system.close();
    if (!options.store) rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes locomo.json and the recall@k plot to `out`; returns the file names. */
export async function writeLocomoResults(results: LocomoBenchResults, out: string): Promise<string[]> {
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "locomo.json"), `${JSON.stringify(results, null, 2)}\n`);
  return ["locomo.json", await writeLocomoPlot(results, out)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: {
      data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
      out: { type: "string", default: "docs/benchmarks" },
      store: { type: "string" },
    },
  });
  const log = (message: string) => console.error(`[bench] ${message}`);
  const results = await locomoBench({ data: values.data as string, store: values.store, log });
  const files = await writeLocomoResults(results, values.out as string);
  console.log(toText(locomoTables(results)));
  log(`wrote ${files.join(", ")} to ${values.out} in ${results.seconds} s`);
}
