import { type Engram, ScopeError } from "@engram/core";
import { idString, parseInput, type WriteBehindOptions } from "@engram/core/integration";
import { z } from "zod";

/** What a call may set through `providerOptions.engram`; each overrides the middleware's option. */
export const callOptionsSchema = z.strictObject({
  userId: idString.optional(),
  agentId: idString.optional(),
  sessionId: idString.optional(),
  budgetTokens: z.number().int().min(0).max(1_000_000).optional(),
  recall: z.boolean().optional(),
  remember: z.boolean().optional(),
});
export type EngramCallOptions = z.input<typeof callOptionsSchema>;

const TOOL_RESULTS = ["skip", "summarize"] as const;

export const middlewareOptionsSchema = z.object({
  engram: z.custom<Engram>(
    (v) => typeof v === "object" && v !== null && typeof (v as Engram).retrieve === "function",
    { message: "expected an Engram instance from createEngram()" },
  ),
  userId: idString.optional(),
  agentId: idString.optional(),
  sessionId: idString.optional(),
  budgetTokens: z.number().int().min(0).max(1_000_000).optional(),
  recall: z.boolean().default(true),
  remember: z.boolean().default(true),
  toolResults: z
    .enum(TOOL_RESULTS, { error: `expected toolResults to be one of ${TOOL_RESULTS.join(", ")}` })
    .default("skip"),
  recallErrors: z.enum(["continue", "throw"]).default("continue"),
  traces: z.boolean().default(true),
  summaryChars: z.number().int().min(20).max(10_000).default(300),
  waitForWritesMs: z.number().int().min(0).max(60_000).default(500),
  writeTimeoutMs: z.number().int().min(0).max(600_000).default(5000),
  writeBehind: z.custom<WriteBehindOptions>((v) => typeof v === "object" && v !== null).optional(),
  onError: z
    .custom<(error: unknown, info: EngramErrorInfo) => void>((v) => typeof v === "function")
    .optional(),
});

export interface EngramMiddlewareOptions {
  /** The memory engine (`createEngram()`). */
  engram: Engram;
  /** Whose memory: set here for a per-user model, or per call as `providerOptions.engram.userId`. */
  userId?: string;
  agentId?: string;
  /** Stored with the written turns; groups them into one conversation. */
  sessionId?: string;
  /** Tokens of memory context injected per call. Default: the engine's (1,500). */
  budgetTokens?: number;
  /** Inject memory before each call. Default true. */
  recall?: boolean;
  /** Write each finished turn back. Default true. */
  remember?: boolean;
  /** Tool calls of a multi-step turn: left out of memory (`skip`, default) or kept as one line each (`summarize`). */
  toolResults?: "skip" | "summarize";
  /**
   * Record each finished turn that used tools as a trace (the request, every tool call with its arguments
   * and result or error, the answer): the engine distils recurring traces into skills, which recall then
   * injects for matching requests. Default true; only while `remember` is on.
   */
  traces?: boolean;
  /** When recall fails (storage or embedding model down): answer without memory (`continue`, default) or fail the call. */
  recallErrors?: "continue" | "throw";
  /** Characters kept of each summarised tool call. Default 300. */
  summaryChars?: number;
  /**
   * Before recalling, wait up to this long for turns still being written, so a call right after another
   * sees the previous turn (read-your-writes). Default 500 ms; 0 never waits.
   */
  waitForWritesMs?: number;
  /**
   * Longest a call waits for its turn to be written before returning the answer. The write stores the raw
   * turn and queues its embedding (milliseconds), so the turn survives the process exiting right after the
   * call. Past this (a locked or failing store) the write goes on in the background, retried, and is lost
   * if the process exits first. Default 5,000 ms; 0 never waits.
   */
  writeTimeoutMs?: number;
  /** Retries and limits of the write-back queue. */
  writeBehind?: WriteBehindOptions;
  /** Told of every recall failure and failed write-back try. Default: a one-line `console.warn`. */
  onError?: (error: unknown, info: EngramErrorInfo) => void;
}

export interface EngramErrorInfo {
  readonly stage: "recall" | "remember";
  readonly userId: string;
  /** For `remember`: which try failed, and whether it will be tried again. */
  readonly attempt?: number;
  readonly willRetry?: boolean;
}

export type ResolvedOptions = z.output<typeof middlewareOptionsSchema>;

export interface CallScope {
  readonly userId: string;
  readonly agentId?: string;
  readonly sessionId?: string;
  readonly budgetTokens?: number;
  readonly recall: boolean;
  readonly remember: boolean;
}

/** The scope of one model call: per-call `providerOptions.engram` over the middleware's options. */
export function callScope(options: ResolvedOptions, providerOptions: unknown): CallScope {
  const raw = (providerOptions as Record<string, unknown> | undefined)?.engram;
  const call = raw === undefined ? {} : parseInput(callOptionsSchema, raw, "providerOptions.engram");
  const userId = call.userId ?? options.userId;
  if (userId === undefined) {
    throw new ScopeError(
      "engramMiddleware: no userId for this call; pass engramMiddleware({ engram, userId }) or, per call, providerOptions: { engram: { userId } }",
    );
  }
  const agentId = call.agentId ?? options.agentId;
  const sessionId = call.sessionId ?? options.sessionId;
  const budgetTokens = call.budgetTokens ?? options.budgetTokens;
  return {
    userId,
    ...(agentId === undefined ? {} : { agentId }),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(budgetTokens === undefined ? {} : { budgetTokens }),
    recall: call.recall ?? options.recall,
    remember: call.remember ?? options.remember,
  };
}
