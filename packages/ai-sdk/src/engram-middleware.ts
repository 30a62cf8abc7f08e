import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { EngramError } from "@engram/core";
import { parseInput, WriteBehind } from "@engram/core/integration";
import {
  callScope,
  type EngramErrorInfo,
  type EngramMiddlewareOptions,
  middlewareOptionsSchema,
  type ResolvedOptions,
} from "./call-scope.js";
import { injectMemory } from "./prompt-turn.js";
import { memoryRecaller } from "./recall-memory.js";
import { rememberTurn, type StepOutcome } from "./remember-turn.js";

/** The middleware, plus control over its write-back queue. */
export type EngramMiddleware = LanguageModelV4Middleware & {
  /** Resolves when every turn waiting for a retry has been written (or given up after its retries). */
  flush(): Promise<void>;
  /** Stops taking turns, tries the waiting ones once more, then resolves. Call before `engram.close()`. */
  close(): Promise<void>;
  /** Turns being written or waiting for a retry. */
  readonly pendingWrites: number;
};

function warn(error: unknown, info: EngramErrorInfo): void {
  const message = error instanceof Error ? error.message : String(error);
  const retry = info.willRetry === undefined ? "" : info.willRetry ? ", will retry" : ", given up";
  console.warn(`[engram] ${info.stage} for user ${info.userId} failed${retry}: ${message}`);
}

const textOfContent = (content: readonly LanguageModelV4Content[]): string =>
  content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");

/**
 * Collects a stream's text and finish reason as it passes; once the stream has ended cleanly, awaits
 * `done`, so the reader sees the end only after the turn is written.
 */
function tapStream(done: (outcome: StepOutcome) => Promise<void>) {
  let text = "";
  let finishReason: string | undefined;
  let failed = false;
  return new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
    transform(part, controller) {
      if (part.type === "text-delta") text += part.delta;
      else if (part.type === "finish") finishReason = part.finishReason.unified;
      else if (part.type === "error") failed = true;
      controller.enqueue(part);
    },
    async flush() {
      // A failed or unfinished stream gives no complete answer to remember.
      if (!failed && finishReason !== undefined) await done({ text, finishReason });
    },
  });
}

/**
 * Language-model middleware for `wrapLanguageModel`: before each call it injects the user's memory
 * context (a fenced system message after the caller's own system messages); after the call it writes the
 * turn (the user's latest message and the final answer) to the database before returning (a few
 * milliseconds: the embedding is a queued durable job), and never fails the response: a failed write is
 * retried in the background.
 * @throws ValidationError for invalid options; a call without any userId fails with a ScopeError.
 */
export function engramMiddleware(input: EngramMiddlewareOptions): EngramMiddleware {
  const options: ResolvedOptions = parseInput(middlewareOptionsSchema, input, "engramMiddleware");
  const engram = input.engram;
  const onError = input.onError ?? warn;
  const queue = new WriteBehind({
    ...options.writeBehind,
    group: engram,
    onError: (error, failure) =>
      onError(error, {
        stage: "remember",
        userId: failure.label,
        attempt: failure.attempt,
        willRetry: failure.willRetry,
      }),
  });
  const recall = memoryRecaller(engram);
  const remember = async (params: LanguageModelV4CallOptions, outcome: StepOutcome): Promise<void> => {
    let userId = options.userId ?? "(unknown)";
    const report = (error: unknown) => onError(error, { stage: "remember", userId });
    try {
      const scope = callScope(options, params.providerOptions);
      userId = scope.userId;
      await rememberTurn({ engram, queue, options, report }, scope, params.prompt, outcome);
    } catch (error) {
      report(error);
    }
  };

  return {
    specificationVersion: "v4",
    async transformParams({ params }) {
      const scope = callScope(options, params.providerOptions);
      if (!scope.recall) return params;
      // Turns queued for this engine by any wrapper instance: recall should see the previous turn.
      if (options.waitForWritesMs > 0) await WriteBehind.settle(engram, options.waitForWritesMs);
      let memory: string;
      try {
        memory = await recall(scope, params.prompt);
      } catch (error) {
        const permanent = EngramError.isInstance(error) && error.code === "INVALID_INPUT";
        if (permanent || options.recallErrors === "throw") throw error;
        onError(error, { stage: "recall", userId: scope.userId });
        return params;
      }
      return memory === "" ? params : { ...params, prompt: injectMemory(params.prompt, memory) };
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      // The raw turn is in the database before the caller sees the answer; embedding it may lag.
      await remember(params, {
        text: textOfContent(result.content),
        finishReason: result.finishReason.unified,
      });
      return result;
    },
    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      return { ...rest, stream: stream.pipeThrough(tapStream((outcome) => remember(params, outcome))) };
    },
    flush: async () => {
      await queue.idle();
    },
    close: () => queue.close(),
    get pendingWrites() {
      return queue.pending;
    },
  };
}
