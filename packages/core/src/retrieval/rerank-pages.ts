import type { MemoryRecord, Scope } from "../model/index.js";
import type { RetrievePorts, SearchResult } from "./query-ports.js";
import { rerank } from "./rerank.js";

/** The segment a turn belongs to: the one it was found through, else the one its metadata names. */
export function segmentOf(memory: MemoryRecord, owner: ReadonlyMap<string, string>): string | null {
  const s = owner.get(memory.id) ?? memory.metadata.segment;
  return typeof s === "string" ? s : null;
}

/**
 * Stage 6, rerank: heat boost (turns of hot segments), relative threshold and MMR over the retrieved
 * turns. The returned scores encode the new order, which is what the context assembly ranks by.
 */
export async function rerankPages(
  ports: RetrievePorts,
  scope: Scope,
  pages: readonly SearchResult[],
  owner: ReadonlyMap<string, string>,
): Promise<SearchResult[]> {
  if (pages.length === 0) return [];
  const { policy, storage } = ports;
  const segmentIds = [
    ...new Set(pages.map((p) => segmentOf(p.memory, owner)).filter((s): s is string => s !== null)),
  ];
  const now = ports.clock();
  const heat = new Map((await storage.get(scope, segmentIds)).map((s) => [s.id, ports.segmentHeat(s, now)]));
  const vectors = await storage.getVectors(
    scope,
    pages.map((p) => p.id),
  );
  const boost = (p: SearchResult) => {
    const h = heat.get(segmentOf(p.memory, owner) ?? "") ?? 0;
    return policy.heatBoost * Math.min(1, h / Math.max(policy.heatThreshold, 1e-9));
  };
  const order = rerank(
    pages.map((p) => ({ id: p.id, score: p.score, vector: vectors.get(p.id) ?? null, boost: boost(p) })),
    { k: pages.length, lambda: policy.mmrLambda, relativeThreshold: policy.relativeThreshold },
  );
  const byId = new Map(pages.map((p) => [p.id, p]));
  return order.map((id, i) => ({ ...(byId.get(id) as SearchResult), score: order.length - i }));
}
