/** A queued job as events name it; `attempt` counts from 1. */
export interface JobRef {
  readonly id: string;
  readonly type: string;
  readonly userId: string;
  readonly attempt: number;
}

/** What the engine reports as it works, for `onEvent` and the logger. `at` is the engine clock's ISO time. */
export type EngramEvent =
  /** A job failed and runs again at `retryAt` (exponential back-off); what it had stored stays stored. */
  | {
      readonly type: "job.retry";
      readonly at: string;
      readonly job: JobRef;
      readonly error: string;
      readonly retryAt: string;
    }
  /** A job failed its last attempt: it stays in `jobs()` as failed, with this error, until run again. */
  | { readonly type: "job.failed"; readonly at: string; readonly job: JobRef; readonly error: string }
  /**
   * The embedding model failed. `pending`: what was being written is stored without vectors (found by full
   * text) and its embedding queued; `fulltext`: the query was answered by full-text search alone.
   */
  | {
      readonly type: "embedder.unavailable";
      readonly at: string;
      readonly fallback: "pending" | "fulltext";
      readonly error: string;
    }
  /** A background run of the queue failed outside any job (e.g. storage could not be read); it runs again. */
  | { readonly type: "background.error"; readonly at: string; readonly error: string }
  /**
   * The store's facts, summaries and profiles so far were written by another language model than the one
   * this engine extracts with (recorded in the store); what the earlier model wrote stays.
   */
  | {
      readonly type: "model.changed";
      readonly at: string;
      readonly previous: string;
      readonly current: string;
    }
  /** An input used an old name kept for one release (`k` for `limit`); the call ran as if given the new one. */
  | {
      readonly type: "deprecated";
      readonly at: string;
      /** Where, and the old name: `search.k`. */
      readonly name: string;
      /** The name to use instead: `search.limit`. */
      readonly use: string;
    }
  /** An operation took longer than the `slowMs` option. */
  | {
      readonly type: "slow";
      readonly at: string;
      readonly operation: SlowOperation;
      readonly ms: number;
      readonly thresholdMs: number;
      readonly userId: string | null;
    };

export type EngramEventType = EngramEvent["type"];
export type SlowOperation = "add" | "search" | "retrieve" | "flush" | "job";

/** Receives each event as it happens; must not throw (what it throws is logged and dropped). */
export type EventSink = (event: EngramEvent) => void;

/**
 * Where the engine writes what a person should see: `console` fits, as do pino-style and winston-style
 * loggers wrapped to take (message, fields). Only `warn` and `error` are required.
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type EventLevel = "debug" | "info" | "warn" | "error";

/** How loud an event is: a job given up is an error; a retry, a failing embedder or a slow call a warning. */
export function eventLevel(event: EngramEvent): EventLevel {
  return event.type === "job.failed" || event.type === "background.error" ? "error" : "warn";
}

/** One line saying what happened and what the engine did about it. */
export function describeEvent(event: EngramEvent): string {
  switch (event.type) {
    case "job.retry":
      return `engram: ${event.job.type} job for user ${event.job.userId} failed (attempt ${event.job.attempt}), retried at ${event.retryAt}: ${event.error}`;
    case "job.failed":
      return `engram: ${event.job.type} job for user ${event.job.userId} failed for good after ${event.job.attempt} attempts (see jobs()): ${event.error}`;
    case "embedder.unavailable":
      return event.fallback === "pending"
        ? `engram: embedding failed; stored without vectors (found by full text) and queued for embedding: ${event.error}`
        : `engram: embedding the query failed; answered by full-text search alone: ${event.error}`;
    case "background.error":
      return `engram: a background run of queued jobs failed; it runs again: ${event.error}`;
    case "model.changed":
      return `engram: this store's facts and summaries so far were written by ${event.previous}; from now on ${event.current} writes them (what ${event.previous} wrote stays)`;
    case "deprecated":
      return `engram: ${event.name} is deprecated and goes in the next release; use ${event.use}`;
    case "slow":
      return `engram: ${event.operation} took ${Math.round(event.ms)} ms (slowMs ${event.thresholdMs})${event.userId === null ? "" : ` for user ${event.userId}`}`;
  }
}

/**
 * The default logger: warnings and errors to the console (stderr), each distinct line at most once a
 * minute, so a dead embedder behind every search does not flood the output.
 */
export function consoleLogger(now: () => number = Date.now): Logger {
  const lastShown = new Map<string, number>();
  const once = (message: string) => {
    const t = now();
    const last = lastShown.get(message);
    if (last !== undefined && t - last < 60_000) return false;
    if (lastShown.size > 1000) lastShown.clear();
    lastShown.set(message, t);
    return true;
  };
  return {
    warn(message, fields) {
      if (once(message)) console.warn(message, ...(fields ? [fields] : []));
    },
    error(message, fields) {
      if (once(message)) console.error(message, ...(fields ? [fields] : []));
    },
  };
}

/**
 * The engine's one place to report: each event to `onEvent`, then to the logger at its level. A throwing
 * `onEvent` or logger is caught, so reporting never breaks the work it reports on.
 */
export function eventSink(options: { onEvent?: EventSink; logger: Logger | null }): EventSink {
  const { onEvent, logger } = options;
  return (event) => {
    try {
      onEvent?.(event);
    } catch (cause) {
      try {
        logger?.error(`engram: onEvent threw on a ${event.type} event: ${errorMessage(cause)}`);
      } catch {}
    }
    if (!logger) return;
    try {
      const level = eventLevel(event);
      const write = logger[level] ?? logger.warn;
      write.call(logger, describeEvent(event), { event });
    } catch {}
  };
}

/** An error's message, for events and job rows. */
export function errorMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** Reports an operation that ran longer than `slowMs`, when that option is set. */
export function reportSlow(
  options: { readonly clock: () => Date; readonly onEvent?: EventSink; readonly slowMs?: number },
  operation: SlowOperation,
  ms: number,
  userId: string | null,
): void {
  const { slowMs, onEvent } = options;
  if (slowMs === undefined || ms <= slowMs || !onEvent) return;
  onEvent({ type: "slow", at: options.clock().toISOString(), operation, ms, thresholdMs: slowMs, userId });
}
