import { z } from "zod";

/** How the engine records traces and distils skills (`createEngram({ skills })`). */
export const skillsConfigSchema = z
  .object({
    /** Record traces and distil skills. Default true. */
    enabled: z.boolean().default(true),
    /** Successful traces of one kind of task before a skill appears. Default 3. */
    minTraces: z.number().int().min(1).max(100).default(3),
    /**
     * Cosine between a trace's task and a group's centroid for the trace to join it (its tools must overlap
     * too). Default 0.45: with USE-lite, requests of one kind worded differently score 0.44-0.75 pairwise
     * (p10-p90), and tools tell kinds that read alike apart (bench/skills.ts).
     */
    groupSimilarity: z.number().min(0).max(1).default(0.45),
    /**
     * Cosine between a query and a skill's centroid for the skill to be added to the context. Default 0.6:
     * with USE-lite, requests of other kinds scored at most 0.61 against a centroid, of its own kind 0.72+.
     */
    matchSimilarity: z.number().min(0).max(1).default(0.6),
    /** Skills shown in one context at most. Default 2. */
    maxInContext: z.number().int().min(0).max(20).default(2),
    /** Traces read per distillation (the newest). Default 500. */
    maxTraces: z.number().int().min(10).max(100_000).default(500),
    /**
     * Share distilled skills with every user of the trace's agent, their values replaced by placeholders.
     * Default false: skills stay with the user whose traces they came from.
     */
    shareWithAgent: z.boolean().default(false),
  })
  .strict();
export type SkillsConfig = z.output<typeof skillsConfigSchema>;
export type SkillsOptions = z.input<typeof skillsConfigSchema>;
