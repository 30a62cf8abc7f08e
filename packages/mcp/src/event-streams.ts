import { ValidationError } from "@engram/core";

/**
 * Bounds on the event streams clients open with GET: each holds a socket and its buffers for as long as it
 * stays open, so without bounds a client could exhaust the server's file descriptors and memory.
 */
export interface EventStreamLimits {
  /** At most this many GET streams open at once; more get 503. 0 answers every GET with 405. Default 100. */
  readonly maxStreams?: number | undefined;
  /** At most this many GET streams open per bearer token; more get 429. Default 8. */
  readonly maxStreamsPerToken?: number | undefined;
  /** A GET stream that carries no message for this long is closed (clients reconnect). Default 5 minutes. */
  readonly streamIdleTimeoutMs?: number | undefined;
}

export const DEFAULT_MAX_STREAMS = 100;
export const DEFAULT_MAX_STREAMS_PER_TOKEN = 8;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 5 * 60_000;
const MAX_COUNT = 1_000_000;
/** setTimeout's ceiling; a longer delay would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface StreamSlot {
  /** Restarts the idle timer: a message went out on the stream. */
  touch(): void;
  /** Frees the slot; safe to call more than once. */
  release(): void;
}

export type Admission =
  | { readonly slot: StreamSlot }
  | { readonly status: 405 | 429 | 503; readonly message: string; readonly retryAfterSeconds?: number };

interface Open {
  readonly key: object;
  deadline: number;
}

function count(value: number | undefined, path: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`${path} must be a whole number from ${min} to ${max}; got ${String(value)}`, {
      details: { path },
    });
  }
  return value;
}

/** Checks the limits (a ValidationError names the bad option) and fills in the defaults. */
export function resolveStreamLimits(limits: EventStreamLimits): Required<{
  [K in keyof EventStreamLimits]: number;
}> {
  return {
    maxStreams: count(limits.maxStreams, "maxStreams", DEFAULT_MAX_STREAMS, 0, MAX_COUNT),
    maxStreamsPerToken: count(
      limits.maxStreamsPerToken,
      "maxStreamsPerToken",
      DEFAULT_MAX_STREAMS_PER_TOKEN,
      1,
      MAX_COUNT,
    ),
    streamIdleTimeoutMs: count(
      limits.streamIdleTimeoutMs,
      "streamIdleTimeoutMs",
      DEFAULT_STREAM_IDLE_TIMEOUT_MS,
      1,
      MAX_TIMEOUT_MS,
    ),
  };
}

/**
 * Counts open GET streams overall and per token (`key`: one object per token grant), admits a new one
 * within both bounds, and closes a stream through `onIdle` once it has carried nothing for the idle timeout.
 */
export function createStreamLimiter(limits: EventStreamLimits) {
  const { maxStreams, maxStreamsPerToken, streamIdleTimeoutMs } = resolveStreamLimits(limits);
  const open = new Set<Open>();
  const perKey = new Map<object, number>();

  // When a slot frees at the latest: the earliest idle deadline among the streams that fill the bound.
  const retryAfter = (streams: Iterable<Open>) => {
    let soonest = Number.POSITIVE_INFINITY;
    for (const s of streams) soonest = Math.min(soonest, s.deadline);
    return Math.max(1, Math.ceil((soonest - Date.now()) / 1000));
  };

  return {
    admit(key: object, onIdle: () => void): Admission {
      if (maxStreams === 0) {
        return { status: 405, message: "Method Not Allowed: this server offers no event stream on GET" };
      }
      const mine = perKey.get(key) ?? 0;
      if (mine >= maxStreamsPerToken) {
        return {
          status: 429,
          message:
            `Too Many Requests: this token already holds ${mine} open event streams, the most allowed ` +
            `(maxStreamsPerToken); close one or retry later`,
          retryAfterSeconds: retryAfter([...open].filter((s) => s.key === key)),
        };
      }
      if (open.size >= maxStreams) {
        return {
          status: 503,
          message: `Service Unavailable: ${open.size} event streams are open, the most this server allows (maxStreams); retry later`,
          retryAfterSeconds: retryAfter(open),
        };
      }
      const entry: Open = { key, deadline: Date.now() + streamIdleTimeoutMs };
      open.add(entry);
      perKey.set(key, mine + 1);
      let timer = setTimeout(onIdle, streamIdleTimeoutMs);
      let released = false;
      return {
        slot: {
          touch() {
            if (released) return;
            clearTimeout(timer);
            entry.deadline = Date.now() + streamIdleTimeoutMs;
            timer = setTimeout(onIdle, streamIdleTimeoutMs);
          },
          release() {
            if (released) return;
            released = true;
            clearTimeout(timer);
            open.delete(entry);
            const left = (perKey.get(key) ?? 1) - 1;
            if (left === 0) perKey.delete(key);
            else perKey.set(key, left);
          },
        },
      };
    },
    /** Streams open now, for tests and status. */
    get openStreams(): number {
      return open.size;
    },
  };
}
