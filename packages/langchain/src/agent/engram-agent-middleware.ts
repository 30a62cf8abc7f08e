import { type Engram, ScopeError } from "@engram/core";
import { idString, parseInput, type WriteBehindOptions } from "@engram/core/integration";
import { SystemMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { engramSchema } from "../engram-schema.js";
import { type OnError, TurnWriter, type WriteErrorInfo, warn } from "../turn-writer.js";
import {
  agentAnswer,
  continuesTurn,
  lastHumanId,
  lastHumanText,
  messageTexts,
  withMemory,
} from "./agent-turn.js";

export interface EngramAgentMiddlewareOptions {
  engram: Engram;
  /** Whose memory; or per invocation as `context: { userId }`. */
  userId?: string;
  agentId?: string;
  budgetTokens?: number;
  /** Tool calls of a turn: left out of memory (`skip`, default) or kept as one line each (`summarize`). */
  toolResults?: "skip" | "summarize";
  /** Before recalling, wait up to this long for the previous turn's write. Default 500 ms. */
  waitForWritesMs?: number;
  /**
   * How long the write-back of a turn may hold the caller until the raw turn is committed; a slower write
   * goes on in the background with retries. Default 5,000 ms; 0 never waits (a turn can then be lost if the
   * process exits before it is written).
   */
  writeTimeoutMs?: number;
  writeBehind?: WriteBehindOptions;
  /** Told of every failed write-back try. Default: a one-line `console.warn`. */
  onError?: (error: unknown, info: WriteErrorInfo) => void;
}

const optionsSchema = z.object({
  engram: engramSchema,
  userId: idString.optional(),
  agentId: idString.optional(),
  budgetTokens: z.number().int().min(0).max(1_000_000).optional(),
  toolResults: z.enum(["skip", "summarize"]).default("skip"),
  waitForWritesMs: z.number().int().min(0).max(60_000).default(500),
  writeTimeoutMs: z.number().int().min(0).max(600_000).default(5000),
  // Used as given (the write-behind queue and its error callback); checked for their shape here.
  writeBehind: z.custom<WriteBehindOptions>((v) => typeof v === "object" && v !== null).optional(),
  onError: z.custom<OnError>((v) => typeof v === "function", { message: "expected a function" }).optional(),
});

/** What an invocation may pass as `context` to choose the user and the conversation. */
export const engramContextSchema = z.object({
  userId: idString.optional(),
  sessionId: idString.optional(),
});
export type EngramAgentContext = z.input<typeof engramContextSchema>;

const SUMMARY_CHARS = 300;
const CACHED_TURNS = 64;

function scopeOf(
  options: z.output<typeof optionsSchema>,
  context: EngramAgentContext | undefined,
  threadId: unknown,
) {
  const userId = context?.userId ?? options.userId;
  if (userId === undefined) {
    throw new ScopeError(
      "engramAgentMiddleware: no userId; pass engramAgentMiddleware({ engram, userId }) or invoke the agent with { context: { userId } }",
    );
  }
  const sessionId = context?.sessionId ?? (typeof threadId === "string" ? threadId : undefined);
  return { userId, ...(sessionId ? { sessionId } : {}) };
}

/**
 * Middleware for langchain v1 agents (`createAgent({ middleware: [...] })`): before each model call it
 * adds the user's memory context to the system message (after the caller's prompt, fenced as data);
 * after the agent finishes it writes the turn (the user's message and the final answer) and waits until it
 * is committed (at most `writeTimeoutMs`; a failed write is retried behind the agent).
 */
export function engramAgentMiddleware(input: EngramAgentMiddlewareOptions) {
  const options = parseInput(optionsSchema, input, "engramAgentMiddleware");
  const writer = new TurnWriter(
    options.engram,
    input.onError ?? warn,
    input.writeBehind,
    options.waitForWritesMs,
    options.writeTimeoutMs,
  );
  const recent = new Map<string, string>();
  const recall = async (userId: string, messages: Parameters<typeof lastHumanText>[0]) => {
    const query = lastHumanText(messages);
    if (query === "") return "";
    const key = `${userId}\u0000${query}`;
    const cached = continuesTurn(messages) ? recent.get(key) : undefined;
    if (cached !== undefined) return cached;
    await writer.settle();
    const { budgetTokens } = options;
    const { text } = await options.engram.retrieve({
      userId,
      query,
      ...(budgetTokens === undefined ? {} : { budgetTokens }),
      // The agent sends these messages to the model: the context leaves them out of its recent turns.
      conversation: messageTexts(messages),
    });
    recent.delete(key);
    recent.set(key, text);
    if (recent.size > CACHED_TURNS) recent.delete(recent.keys().next().value as string);
    return text;
  };
  const middleware = createMiddleware({
    name: "EngramMemory",
    contextSchema: engramContextSchema,
    wrapModelCall: async (request, handler) => {
      const { userId } = scopeOf(options, request.runtime.context, request.runtime.configurable?.thread_id);
      const memory = await recall(userId, request.messages);
      if (memory === "") return handler(request);
      return handler({
        ...request,
        systemMessage: new SystemMessage({ content: withMemory(request.systemMessage, memory) }),
      });
    },
    afterAgent: async (state, runtime) => {
      const scope = scopeOf(options, runtime.context, runtime.configurable?.thread_id);
      const user = lastHumanText(state.messages);
      if (user === "") return undefined;
      const answer = agentAnswer(state.messages, options.toolResults === "summarize", SUMMARY_CHARS);
      // Identified by its user message, so the hook run again on the same state stores the turn once.
      const turnId = lastHumanId(state.messages);
      await writer.write({
        ...scope,
        ...(options.agentId ? { agentId: options.agentId } : {}),
        ...(turnId ? { turnId } : {}),
        messages: [
          { role: "user", content: user },
          ...(answer === "" ? [] : [{ role: "assistant" as const, content: answer }]),
        ],
      });
      return undefined;
    },
  });
  return Object.assign(middleware, {
    /** Resolves when every queued turn is written (or given up). */
    flush: () => writer.flush(),
    /** Stops taking turns, tries the waiting ones once more. Call before `engram.close()`. */
    close: () => writer.close(),
  });
}
