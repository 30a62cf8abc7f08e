/** When and how long the Qdrant backend waits before resending a request. */
export interface RetryPolicy {
  /** Resends after the first attempt (0: never retry). */
  readonly retries: number;
  /** Back-off before the first resend; doubles each time. */
  readonly baseDelayMs: number;
  /** Cap of the exponential back-off. */
  readonly maxDelayMs: number;
  /** Cap of a server's `Retry-After`, so a misconfigured proxy cannot park a call for hours. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 5,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Statuses worth resending: request timeout, rate limiting and server-side failures (Qdrant answers 503
 * while a shard is unavailable). Every other 4xx says the request itself is wrong and will stay wrong.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * `Retry-After` in milliseconds: the header holds delta-seconds (Qdrant sends the ceiling of its rate
 * limiter's wait) or an HTTP date. Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * The wait before resend number `attempt` (0-based). A server's `Retry-After` wins (capped); otherwise
 * exponential back-off with "equal jitter": between half and all of `min(max, base * 2^attempt)`, so
 * clients that failed together do not retry together, and none retries immediately.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}
