import { z } from "zod";

/**
 * The switches and sizes of the query path behind `retrieve`. Each stage can be turned off, which is how
 * the ablation in `pnpm bench` measures what it is worth.
 */
export const retrievalConfigSchema = z
  .object({
    /** Dialogue turns searched to fill the context, taken in rank order while the budget lasts. */
    contextTurns: z.number().int().min(1).max(1000).default(40),
    /**
     * Show the turn a retrieved turn answers before it: `question` when that turn asks something (the
     * evidence is often the answer), `always`, or `off`.
     */
    neighbours: z.enum(["question", "always", "off"]).default("off"),
    /**
     * The newest short-term turns shown as the recent conversation, before retrieved turns claim the
     * rest of the budget. An agent usually sends the current conversation itself; these give continuity
     * across sessions without crowding out what the query needs.
     */
    recentTurns: z.number().int().min(0).max(1000).default(6),
    /** The share of the context's budget the recent turns may spend at most. */
    recentShare: z.number().min(0).max(1).default(0.25),
    /**
     * Turns older than this many hours before now are not the recent conversation: they are found by
     * search like any other (a question asked days after a chat is not that chat). 0: no limit.
     */
    recentHours: z.number().min(0).max(1_000_000).default(24),
    /**
     * Score taken from a hit whose own text holds no content words (acknowledgements), less as it holds
     * more (up to four); 0 turns the prior off. In units of the fused score.
     */
    contentPrior: z.number().min(0).max(100).default(1),
    /** Score taken from a hit whose own text ends with a question: the reply holds the answer. */
    questionPrior: z.number().min(0).max(100).default(2),
    /** Score given to turns said by a speaker the query names (0 turns the prior off). Fused-score units. */
    speakerPrior: z.number().min(0).max(100).default(5),
    /**
     * Score given to the user's turns when the query is in the first person ("What did I buy?", "Any
     * tips for my camera?"), and to the assistant's when it asks what the assistant said or suggested;
     * not when the query names a speaker (the speaker prior decides then). 0 turns the prior off.
     */
    rolePrior: z.number().min(0).max(100).default(2),
    /**
     * Score given to the user's turns that say what they like, use, own or avoid, when the query asks for
     * suggestions or advice ("Any tips for my camera?"). 0 turns the prior off.
     */
    preferencePrior: z.number().min(0).max(100).default(0),
    /**
     * A user turn that restates something an earlier one said (most of its content words shared) ranks
     * just above it: the later value is the current one ("I now do 5k in 24 minutes").
     */
    updatePrior: z.boolean().default(true),
    /**
     * When the query names one speaker ("What does Melanie paint?"), the channels search it as that
     * speaker would say it: in the first person for the vector channel, without the name for full-text.
     * Needs the speaker prior, which then lifts that speaker's turns.
     */
    speakerQuery: z.boolean().default(true),
    /**
     * Score given to hits that carry a dated expression ("yesterday", "last May") when the query asks
     * "when": that turn dates the event, its paraphrases do not. 0 turns the prior off.
     */
    whenPrior: z.number().min(0).max(100).default(2),
    /** Score given to hits said in, or mentioning a date in, a span the query names ("in May 2023"). */
    rangePrior: z.number().min(0).max(100).default(3),
    /** Retrieved turns show what their relative dates resolve to: `(yesterday = 7 May 2023)`. */
    timeNotes: z.boolean().default(true),
    /** The turns a retrieved fact was extracted from join the retrieved turns. */
    factEvidence: z.boolean().default(false),
    /**
     * Pseudo-relevance feedback for the turns `retrieve` searches: weight of the best three hits' mean
     * vector added to the query vector before the vector channel runs again; 0 turns it off.
     */
    feedback: z.number().min(0).max(10).default(1),
    /** Second stage: turns inside the best mid-term segments, searched among their members. */
    segments: z.boolean().default(true),
    /** Heat boost, relative threshold and MMR over the retrieved turns. */
    rerank: z.boolean().default(true),
  })
  .strict();
export type RetrievalConfig = z.infer<typeof retrievalConfigSchema>;
export type RetrievalOptions = z.input<typeof retrievalConfigSchema>;
