import { z } from "zod";
import { parseInput } from "../model/index.js";

/**
 * Every constant of the tiered engine. Two named presets follow MemoryOS; any field can be overridden.
 * Sources: the MemoryOS paper (arXiv 2506.06326, sections 3-4) and the `memoryos-pypi` library code.
 */
export const policySchema = z.object({
  /** Short-term queue length in pages (user turn + assistant turn). */
  shortTermCapacity: z.number().int().min(1).max(1000),
  /** Pages moved to mid-term per overflow batch (all of them leave together; none is dropped). */
  evictionBatch: z.number().int().min(1).max(1000),
  /** Mid-term capacity in segments; over it, segments are evicted by `eviction`. */
  midTermCapacity: z.number().int().min(1),
  /** `heat`: lowest heat first (paper); `lfu`: fewest retrieval visits first (library). */
  eviction: z.enum(["heat", "lfu"]),
  /** A page joins the best segment when cos(summary) + Jaccard(keywords) >= theta. */
  theta: z.number().min(0).max(2),
  /** heat = a * visits + b * pages + c * recency. */
  heatA: z.number().min(0),
  heatB: z.number().min(0),
  heatC: z.number().min(0),
  /** recency = exp(-dt / mu), dt in seconds. */
  recencyMuSeconds: z.number().positive(),
  /** Segments at or over this heat are promoted to long-term persona memory. */
  heatThreshold: z.number().min(0),
  /** Long-term user knowledge and assistant knowledge capacity, per user. */
  knowledgeCapacity: z.number().int().min(1),
  /** Retrieval: segments in the first stage, pages in the second, facts. */
  retrieveSegments: z.number().int().min(1),
  retrievePages: z.number().int().min(1),
  retrieveFacts: z.number().int().min(1),
  /** Retrieved pages: relevance boost for pages of hot segments, up to this much (relevance is 0..1). */
  heatBoost: z.number().min(0).max(1),
  /** Retrieved pages below this share of the best page's relevance are dropped. */
  relativeThreshold: z.number().min(0).max(1),
  /** MMR trade-off between relevance (1) and diversity (0) among retrieved pages. */
  mmrLambda: z.number().min(0).max(1),
});
export type Policy = z.infer<typeof policySchema>;

export const POLICY_PRESETS = {
  /** The paper: theta 0.6, a = b = c = 1, threshold 5, mu 1e7 s, STM 7, MTM 200, KB 100, k 10. */
  paper: {
    shortTermCapacity: 7,
    evictionBatch: 7,
    midTermCapacity: 200,
    eviction: "heat",
    theta: 0.6,
    heatA: 1,
    heatB: 1,
    heatC: 1,
    recencyMuSeconds: 1e7,
    heatThreshold: 5,
    knowledgeCapacity: 100,
    retrieveSegments: 5,
    retrievePages: 10,
    retrieveFacts: 10,
    heatBoost: 0.1,
    relativeThreshold: 0,
    mmrLambda: 0.7,
  },
  /** memoryos-pypi defaults: STM 10, MTM 2000 (LFU), recency tau 24 h, 5 segments / 7 pages / 20 facts. */
  "memoryos-lib": {
    shortTermCapacity: 10,
    evictionBatch: 10,
    midTermCapacity: 2000,
    eviction: "lfu",
    theta: 0.6,
    heatA: 1,
    heatB: 1,
    heatC: 1,
    recencyMuSeconds: 24 * 3600,
    heatThreshold: 5,
    knowledgeCapacity: 100,
    retrieveSegments: 5,
    retrievePages: 7,
    retrieveFacts: 20,
    heatBoost: 0.1,
    relativeThreshold: 0,
    mmrLambda: 0.7,
  },
} as const satisfies Record<string, Policy>;
export type PolicyPreset = keyof typeof POLICY_PRESETS;

export type PolicyOption = PolicyPreset | (Partial<Policy> & { preset?: PolicyPreset });

/** Resolves a preset name or a partial policy (over a preset, `paper` by default) to a full policy. */
export function resolvePolicy(option: PolicyOption = "paper"): Policy {
  if (typeof option === "string") {
    const preset = POLICY_PRESETS[option];
    if (!preset) parseInput(z.enum(Object.keys(POLICY_PRESETS) as [PolicyPreset]), option, "policy");
    return preset;
  }
  const { preset = "paper", ...overrides } = option;
  return parseInput(policySchema, { ...POLICY_PRESETS[preset], ...overrides }, "policy");
}
