import { setImmediate as nextTurn } from "node:timers/promises";
import type { Embedder, Engram } from "@engram/core";

/** Shell convention: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/** A command stopped by SIGINT or SIGTERM; what it had not committed was rolled back. */
export class InterruptedError extends Error {
  override readonly name = "InterruptedError";
  readonly exitCode: number;

  /** `state`: what the interrupted command leaves stored (by default, nothing of the batch in progress). */
  constructor(
    readonly signal: StopSignal,
    state = "the batch in progress was not stored",
  ) {
    super(`interrupted by ${signal}; ${state}`);
    this.exitCode = SIGNAL_EXIT_CODES[signal];
  }
}

/** Throws the InterruptedError once the signal has fired; called between units of bounded work. */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/**
 * Lets the event loop take a turn, then checks the signal. Work chained only through promises never
 * reaches the loop's poll phase, where a signal is delivered, so a check alone would never see it.
 */
async function checkpoint(signal: AbortSignal): Promise<void> {
  await nextTurn();
  throwIfInterrupted(signal);
}

/**
 * Runs `run` with SIGINT and SIGTERM turned into an abort of the signal it is given, so the command stops
 * at its next check and rolls back what it had not committed. A second signal exits at once.
 */
export async function withInterrupts<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]).map((name) => {
    const handler = () => {
      if (controller.signal.aborted) process.exit(SIGNAL_EXIT_CODES[name]);
      controller.abort(new InterruptedError(name));
    };
    process.on(name, handler);
    return () => process.off(name, handler);
  });
  try {
    return await run(controller.signal);
  } finally {
    for (const remove of handlers) remove();
  }
}

/** Texts and characters embedded per check: about a second of the offline model's work. */
const GROUP_TEXTS = 16;
const GROUP_CHARS = 16_000;

/**
 * An embedder that checks the signal before each group of texts, so an `add` stops within about a second
 * of an interrupt instead of after the whole batch. Its error is not a model error: the add fails and
 * stores nothing, rather than storing the turns without vectors.
 */
export function interruptibleEmbedder(inner: Embedder, signal: AbortSignal): Embedder {
  return {
    id: inner.id,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; ) {
        await checkpoint(signal);
        let end = start + 1;
        let chars = (texts[start] as string).length;
        while (
          end < texts.length &&
          end - start < GROUP_TEXTS &&
          chars + (texts[end] as string).length <= GROUP_CHARS
        ) {
          chars += (texts[end] as string).length;
          end++;
        }
        out.push(...(await inner.embed(texts.slice(start, end))));
        start = end;
      }
      return out;
    },
  };
}

/**
 * The engine with a checkpoint before each `add` and `flush`: a batch loop (ingest) stops between batches
 * even with no embedder, and its own error handling removes what it had written.
 */
export function interruptibleEngram(engram: Engram, signal: AbortSignal | undefined): Engram {
  if (signal === undefined) return engram;
  return new Proxy(engram, {
    get(target, property) {
      if (property === "add" || property === "flush") {
        return async (...args: unknown[]) => {
          await checkpoint(signal);
          return (target[property] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
