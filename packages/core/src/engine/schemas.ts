import { z } from "zod";
import {
  cubeSchema,
  idString,
  MEMORY_KINDS,
  ROLES,
  storedIdString,
  TIERS,
  timeSchema,
  withinTextLimit,
} from "../model/index.js";
import { CHANNELS } from "../retrieval/index.js";
import type { JobProgress } from "../scheduler/index.js";
import { type MetadataFilter, metadataConditions } from "../storage/index.js";
import type { ImportProgress } from "./export-import.js";
import { fromFrameworkMessage, type LangChainMessageLike, type PartsMessage } from "./framework-messages.js";

export { timeSchema };

const metadataSchema = z.record(z.string(), z.unknown());

/**
 * Conditions on top-level metadata fields (`MetadataFilter`), read by the same code the backends use, so
 * a filter refused here is one no backend would have understood.
 */
export const metadataFilterSchema = z.custom<MetadataFilter>().superRefine((value, ctx) => {
  try {
    metadataConditions(value, "filter");
  } catch (error) {
    const details = (error as { details?: { at?: readonly string[]; problem?: string } }).details;
    ctx.addIssue({
      code: "custom",
      message: details?.problem ?? String(error),
      path: [...(details?.at ?? []).slice(1)],
    });
  }
});

export const messageSchema = z.object(
  {
    role: z.enum(ROLES, { error: `expected role to be one of ${ROLES.join(", ")}` }),
    content: z
      .string({ error: "expected content to be a string" })
      .superRefine(withinTextLimit)
      .trim()
      .min(1, "content must not be empty"),
    name: z.string().trim().min(1).max(256).optional(),
    at: timeSchema.optional(),
    metadata: metadataSchema.optional(),
    /** The message's stable id; default: derived from its content and time (see messageId). */
    id: idString.optional(),
    /** The session of this message, when one call carries several (an import); default: the call's. */
    sessionId: idString.optional(),
  },
  { error: 'expected a message object such as {"role": "user", "content": "..."}' },
);

export const addInputSchema = z.object({
  userId: idString,
  agentId: idString.optional(),
  sessionId: idString.optional(),
  cube: cubeSchema.optional(),
  // AI SDK and LangChain messages are read as Engram's first (framework-messages.ts).
  messages: z
    .array(z.transform(fromFrameworkMessage).pipe(messageSchema))
    .min(1, "pass at least one message"),
  /** Default event time for messages without their own `at`. */
  at: timeSchema.optional(),
  /**
   * `now` (default): embed before storing. `later`: store the raw turns at once (status pending, full-text
   * searchable) and queue their embedding as a durable job, so a slow embedder never delays the write.
   */
  embed: z.enum(["now", "later"]).default("now"),
});
/** One message of `add`: Engram's own shape, or an AI SDK `ModelMessage`, or a LangChain `BaseMessage`. */
export type MessageInput = z.input<typeof messageSchema> | PartsMessage | LangChainMessageLike;

export type AddInput = Omit<z.input<typeof addInputSchema>, "messages"> & {
  readonly messages: readonly MessageInput[];
};

const kindsSchema = z.array(z.enum(MEMORY_KINDS)).min(1);
const tiersSchema = z.array(z.enum(TIERS)).min(1);

export const searchInputSchema = z.object({
  userId: idString,
  query: z.string({ error: "expected query to be a string" }).trim().min(1, "query must not be empty"),
  /** How many results at most (default 10), as `limit` is named in list, mem0 and LangGraph's stores. */
  limit: z.number().int().min(1).max(1000).optional(),
  /** @deprecated The old name of `limit`, accepted until the next release. */
  k: z.number().int().min(1).max(1000).optional(),
  kinds: kindsSchema.optional(),
  tiers: tiersSchema.optional(),
  cubes: z.array(cubeSchema).min(1).optional(),
  agentId: idString.optional(),
  sessionId: idString.optional(),
  from: timeSchema.optional(),
  to: timeSchema.optional(),
  at: timeSchema.optional(),
  channels: z.array(z.enum(CHANNELS)).min(1).optional(),
  /** Search only among these memories. */
  ids: z.array(idString).optional(),
  /** Leave out results whose `relevance` (in [0, 1], comparable across queries) is below this. */
  minScore: z.number().min(0).max(1).optional(),
  /** Only memories whose metadata passes these conditions (equality, $ne, $in, $nin, numeric ranges). */
  filter: metadataFilterSchema.optional(),
  /** A precomputed query embedding (skips embedding the query). */
  queryVector: z
    .custom<Float32Array>((v) => v instanceof Float32Array, { message: "expected a Float32Array" })
    .optional(),
});
export type SearchInput = z.input<typeof searchInputSchema>;

export const memoryRefSchema = z.object({ userId: idString, id: idString });
export type MemoryRef = z.input<typeof memoryRefSchema>;

export const listInputSchema = z.object({
  userId: idString,
  kinds: kindsSchema.optional(),
  tiers: tiersSchema.optional(),
  sessionId: idString.optional(),
  limit: z.number().int().min(1).max(100_000).default(100),
  offset: z.number().int().min(0).default(0),
  order: z.enum(["asc", "desc"]).default("desc"),
  includeExpired: z.boolean().default(true),
});
export type ListInput = z.input<typeof listInputSchema>;

export const updateInputSchema = z
  .object({
    userId: idString,
    id: idString,
    text: z.string().superRefine(withinTextLimit).trim().min(1, "text must not be empty").optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((v) => v.text !== undefined || v.metadata !== undefined, {
    message: "pass text or metadata to change",
    path: ["text"],
  });
export type UpdateInput = z.input<typeof updateInputSchema>;

export const userInputSchema = z.object({ userId: idString });

/** An optional progress callback (only its type is checked). */
const onProgress = <P>() =>
  z.custom<(progress: P) => void>((v) => typeof v === "function", "expected a function").optional();

export const flushOptionsSchema = z
  .object({
    // z.custom, not z.instanceof: the declaration names no type that zod versions before 4.3 lack.
    signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, "expected an AbortSignal").optional(),
    onProgress: onProgress<JobProgress>(),
  })
  .strict();
export const reembedInputSchema = z
  .object({
    onProgress: onProgress<unknown>(),
    batchSize: z.number().int().min(1).max(4096).default(64),
  })
  .strict();

export const importOptionsSchema = z.object({ onProgress: onProgress<ImportProgress>() }).strict();

export const erasureInputSchema = z
  .object({ waitMs: z.number().int().min(0).max(600_000).optional() })
  .strict();
/**
 * `forget` takes any id a store may hold, one with a control character too (stored before ids were checked
 * for them), so that such a user can be erased.
 */
export const forgetInputSchema = z.object({ userId: storedIdString });
export const profileInputSchema = userInputSchema.extend({ at: timeSchema.optional() });

export const feedbackInputSchema = z.object({
  userId: idString,
  text: z
    .string({ error: "expected text to be a string" })
    .superRefine(withinTextLimit)
    .trim()
    .min(1, "text must not be empty"),
  at: timeSchema.optional(),
});
export type FeedbackInput = z.input<typeof feedbackInputSchema>;
export type UserInput = z.input<typeof userInputSchema>;

export { type FusionConfig, fusionConfigSchema } from "../retrieval/index.js";
