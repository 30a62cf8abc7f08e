import { z } from "zod";
import { FUSION_METHODS } from "./fuse-rankings.js";

/** How the search channels are fused: the method, each channel's weight and the candidates each lists. */
export const fusionConfigSchema = z
  .object({
    method: z.enum(FUSION_METHODS).default("zscore"),
    weights: z
      .object({ fulltext: z.number().min(0).default(1), vector: z.number().min(0).default(1) })
      .strict()
      .default({ fulltext: 1, vector: 1 }),
    /**
     * Candidates taken from each channel before fusion. Score normalisation is estimated over them, so more
     * is better up to a point (docs/decisions/0001-hybrid-search-fusion.md has the figures).
     */
    candidates: z.number().int().min(1).max(10_000).default(1000),
    /**
     * Full-text hits listed for fusion when the backend describes its scores over all `candidates`
     * matches (SQLite's textStats); otherwise `candidates` hits are listed. With the statistics and the
     * floor taken over 1,000 matches, listing 100 or 1,000 gave the same LoCoMo dev recall.
     */
    textCandidates: z.number().int().min(1).max(10_000).default(100),
    /**
     * Candidates from the vector channel. Kept within what an approximate index answers quickly (HNSW costs
     * about ef = k), so large scopes stay fast; see docs/decisions/0001-hybrid-search-fusion.md.
     */
    vectorCandidates: z.number().int().min(1).max(10_000).default(256),
    /**
     * Candidates from the vector channel when the backend answers from an approximate index (SQLite's HNSW
     * graph, from 5,000 vectors of a kind), whose search costs about as many as it lists; the channel's
     * statistics are then estimated from them. With the graph forced on LoCoMo dev, 64, 128 and 256 gave
     * the same recall; see docs/decisions/0001-hybrid-search-fusion.md.
     */
    approximateCandidates: z.number().int().min(1).max(10_000).default(128),
  })
  .strict();
export type FusionConfig = z.input<typeof fusionConfigSchema>;

/**
 * The switches, priors and sizes of the query path behind `retrieve`, every field given (a preset fills
 * what the caller leaves out). Each stage can be turned off, which is how the ablation in `pnpm bench`
 * measures what it is worth.
 */
export const retrievalConfigSchema = z
  .object({
    /** Dialogue turns searched to fill the context, taken in rank order while the budget lasts. */
    contextTurns: z.number().int().min(1).max(1000),
    /**
     * Show the turn a retrieved turn answers before it: `question` when that turn asks something (the
     * evidence is often the answer), `always`, or `off`.
     */
    neighbours: z.enum(["question", "always", "off"]),
    /**
     * The newest short-term turns shown as the recent conversation, before retrieved turns claim the
     * rest of the budget. An agent usually sends the current conversation itself; these give continuity
     * across sessions without crowding out what the query needs.
     */
    recentTurns: z.number().int().min(0).max(1000),
    /** The share of the context's budget the recent turns may spend at most. */
    recentShare: z.number().min(0).max(1),
    /**
     * Turns older than this many hours before now are not the recent conversation: they are found by
     * search like any other (a question asked days after a chat is not that chat). 0: no limit.
     */
    recentHours: z.number().min(0).max(1_000_000),
    /**
     * Score taken from a hit whose own text holds no content words (acknowledgements), less as it holds
     * more (up to four); 0 turns the prior off. In units of the fused score.
     */
    contentPrior: z.number().min(0).max(100),
    /** Score taken from a hit whose own text ends with a question: the reply holds the answer. */
    questionPrior: z.number().min(0).max(100),
    /** Score given to turns said by a speaker the query names (0 turns the prior off). Fused-score units. */
    speakerPrior: z.number().min(0).max(100),
    /**
     * Score given to the user's turns when the query is in the first person ("What did I buy?", "Any
     * tips for my camera?"), and to the assistant's when it asks what the assistant said or suggested;
     * not when the query names a speaker (the speaker prior decides then). 0 turns the prior off.
     */
    rolePrior: z.number().min(0).max(100),
    /**
     * Score given to the user's turns that say what they like, use, own or avoid, when the query asks for
     * suggestions or advice ("Any tips for my camera?"). 0 turns the prior off.
     */
    preferencePrior: z.number().min(0).max(100),
    /**
     * A user turn that restates something an earlier one said (most of its content words shared) ranks
     * just above it: the later value is the current one ("I now do 5k in 24 minutes").
     */
    updatePrior: z.boolean(),
    /**
     * When the query names one speaker ("What does Melanie paint?"), the channels search it as that
     * speaker would say it: in the first person for the vector channel, without the name for full-text.
     * Needs the speaker prior, which then lifts that speaker's turns.
     */
    speakerQuery: z.boolean(),
    /**
     * Score given to hits that carry a dated expression ("yesterday", "last May") when the query asks
     * "when": that turn dates the event, its paraphrases do not. 0 turns the prior off.
     */
    whenPrior: z.number().min(0).max(100),
    /** Score given to hits said in, or mentioning a date in, a span the query names ("in May 2023"). */
    rangePrior: z.number().min(0).max(100),
    /** Retrieved turns show what their relative dates resolve to: `(yesterday = 7 May 2023)`. */
    timeNotes: z.boolean(),
    /** The turns a retrieved fact was extracted from join the retrieved turns. */
    factEvidence: z.boolean(),
    /**
     * Pseudo-relevance feedback for the turns `retrieve` searches: weight of the best three hits' mean
     * vector added to the query vector before the vector channel runs again; 0 turns it off.
     */
    feedback: z.number().min(0).max(10),
    /** Second stage: turns inside the best mid-term segments, searched among their members. */
    segments: z.boolean(),
    /** Heat boost, relative threshold and MMR over the retrieved turns. */
    rerank: z.boolean(),
  })
  .strict();
export type RetrievalConfig = z.infer<typeof retrievalConfigSchema>;

/**
 * Named starting points for the query path. `conversation` (the default) is tuned on dialogue (LoCoMo,
 * LongMemEval's tuning half): turns that only acknowledge or ask rank lower, the speaker or role a query
 * names and dated turns for "when" rank higher, a restated value above the one it replaces. `plain` turns
 * those conversation priors off, for memories that are notes or documents rather than turns.
 */
const CONVERSATION = {
  contextTurns: 40,
  neighbours: "off",
  recentTurns: 6,
  recentShare: 0.25,
  recentHours: 24,
  contentPrior: 1,
  questionPrior: 2,
  speakerPrior: 5,
  rolePrior: 2,
  preferencePrior: 0,
  updatePrior: true,
  speakerQuery: true,
  whenPrior: 2,
  rangePrior: 3,
  timeNotes: true,
  factEvidence: false,
  feedback: 1,
  segments: true,
  rerank: true,
} as const satisfies RetrievalConfig;

export const RETRIEVAL_PRESETS = {
  conversation: CONVERSATION,
  plain: {
    ...CONVERSATION,
    contentPrior: 0,
    questionPrior: 0,
    speakerPrior: 0,
    rolePrior: 0,
    updatePrior: false,
    speakerQuery: false,
    whenPrior: 0,
    rangePrior: 0,
  },
} as const satisfies Record<string, RetrievalConfig>;
export type RetrievalPreset = keyof typeof RETRIEVAL_PRESETS;

/**
 * The `retrieval` option of `createEngram`: a preset (default `conversation`), any of its fields to
 * override, and the channels' fusion.
 */
export const retrievalOptionsSchema = retrievalConfigSchema.partial().extend({
  preset: z.enum(Object.keys(RETRIEVAL_PRESETS) as [RetrievalPreset, ...RetrievalPreset[]]).optional(),
  fusion: fusionConfigSchema.optional(),
});
export type RetrievalOptions = z.input<typeof retrievalOptionsSchema>;

/** The full query configuration from the option: the preset's fields under the caller's. */
export function resolveRetrieval(options: z.output<typeof retrievalOptionsSchema> = {}): RetrievalConfig {
  const { preset = "conversation", fusion: _fusion, ...given } = options;
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ...RETRIEVAL_PRESETS[preset], ...defined } as RetrievalConfig;
}
