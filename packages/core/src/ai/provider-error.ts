import { ModelError } from "../errors/index.js";

/** Network failures worth retrying; fetch (undici) reports them as a cause with one of these codes. */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
]);

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  statusCode?: unknown;
  isRetryable?: unknown;
  responseHeaders?: unknown;
  cause?: unknown;
}

/**
 * Wraps a failed model request. `details.retryable` is true for rate limits (429), timeouts (408),
 * conflicts (409), server errors (5xx) and dropped connections, false for bad requests, bad keys and
 * a caller's own abort; back-off itself is the scheduler's job. `details.retryAfterMs` passes on the
 * server's Retry-After when it sent one.
 */
export function providerError(model: string, cause: unknown, signal?: AbortSignal): ModelError {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as ErrorLike;
  const found = failureDetails(cause);
  const aborted = signal?.aborted === true;
  const timedOut = !aborted && (error.name === "TimeoutError" || error.name === "AbortError");
  const retryable = !aborted && found.retryable;
  const message = typeof error.message === "string" ? error.message : String(cause);
  const status = found.statusCode === undefined ? "" : ` (HTTP ${found.statusCode})`;
  const hint = aborted
    ? "the request was aborted by its caller"
    : retryable
      ? "the request may succeed if retried later"
      : "check the model id, API key and request options";
  return new ModelError(`language model ${model} failed${status}: ${message}; ${hint}`, {
    cause,
    details: { kind: aborted ? "aborted" : timedOut ? "timeout" : "provider", ...found, retryable },
  });
}

/** Whether a failed request is worth retrying, its HTTP status and the server's Retry-After, when known. */
export function failureDetails(cause: unknown): {
  retryable: boolean;
  statusCode?: number;
  retryAfterMs?: number;
} {
  const error = (typeof cause === "object" && cause !== null ? cause : {}) as ErrorLike;
  const statusCode = typeof error.statusCode === "number" ? error.statusCode : undefined;
  const retryAfterMs = retryAfter(error.responseHeaders);
  return {
    retryable: isRetryable(error, statusCode),
    ...(statusCode !== undefined ? { statusCode } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

function isRetryable(error: ErrorLike, statusCode: number | undefined): boolean {
  if (statusCode !== undefined) {
    return statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
  }
  if (typeof error.isRetryable === "boolean") return error.isRetryable;
  // Without a status, look for a timeout or a dropped connection anywhere in the cause chain.
  let current: ErrorLike | undefined = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current.name === "TimeoutError" || current.name === "AbortError") return true;
    if (typeof current.code === "string" && TRANSIENT_CODES.has(current.code)) return true;
    current = typeof current.cause === "object" && current.cause !== null ? current.cause : undefined;
  }
  return false;
}

function retryAfter(headers: unknown): number | undefined {
  if (typeof headers !== "object" || headers === null) return undefined;
  const entries = Object.entries(headers as Record<string, unknown>);
  const ms = entries.find(([k]) => k.toLowerCase() === "retry-after-ms")?.[1];
  if (typeof ms === "string" && Number.isFinite(Number(ms))) return Number(ms);
  const value = entries.find(([k]) => k.toLowerCase() === "retry-after")?.[1];
  if (typeof value !== "string") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
