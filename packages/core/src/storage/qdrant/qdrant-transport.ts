import type { QdrantClient } from "@qdrant/js-client-rest";
import { StorageError } from "../../errors/index.js";
import { isRetryableStatus, parseRetryAfter, type RetryPolicy, retryDelay } from "./retry-policy.js";

export interface QdrantTransportOptions {
  /** The official client every request goes through: the user's own, or one made on first use. */
  readonly client: () => Promise<QdrantClient>;
  /** Where the server is, for messages: its URL, or "the given QdrantClient". */
  readonly where: string;
  readonly retry: RetryPolicy;
  /** Seams for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** What one failed attempt tells the retry loop. */
interface Failure {
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  /** The wait is only known to be at least `retryAfterMs` (the client cut the header to its first digit). */
  readonly retryAfterAtLeast?: boolean;
  readonly error: StorageError;
}

/** Qdrant's JSON error text (`{status: {error}}`), or the plain-text body of its auth layer. */
function serverMessage(data: unknown): string {
  if (typeof data === "string") return data.trim().slice(0, 500);
  const status = (data as { status?: { error?: unknown } | string } | null | undefined)?.status;
  if (typeof status === "object" && typeof status?.error === "string") return status.error;
  if (typeof status === "string") return status;
  return "";
}

function hint(status: number): string {
  if (status === 401 || status === 403) {
    return " (check the apiKey given to qdrantStorage, or your QdrantClient's; the CLI reads it from QDRANT_API_KEY)";
  }
  if (status === 429) return " (rate limited; raise the retries or lower the request rate)";
  return "";
}

/** The client's errors, read by shape: `ApiError` is not exported by the client, and a user's copy may differ. */
interface ApiErrorShape {
  readonly status: number;
  readonly statusText?: string;
  readonly headers?: { get(name: string): string | null };
  readonly data?: unknown;
}

const isApiError = (e: unknown): e is ApiErrorShape =>
  typeof e === "object" && e !== null && typeof (e as { status?: unknown }).status === "number";

const nameOf = (e: unknown) => (e instanceof Error ? e.name : "");

function describe(cause: unknown): string {
  const error = cause as { message?: string; cause?: { code?: string; message?: string } };
  return [error.message, error.cause?.code ?? error.cause?.message].filter(Boolean).join(": ");
}

/**
 * Reads one failure of the official client. Non-2xx answers are its `ApiError` (status, headers, body);
 * a 429 with `Retry-After` becomes `QdrantClientResourceExhaustedError`, whose `retry_after` holds only the
 * header's first character and which loses the status, so it is read as a 429 and its wait as a lower
 * bound of the back-off; an HTTP-date `Retry-After` makes the client throw "Invalid retryAfter value".
 */
export function classify(cause: unknown, operation: string, where: string): Failure {
  const at = `qdrant ${operation} on ${where}`;
  if (isApiError(cause)) {
    const message = serverMessage(cause.data) || cause.statusText || "";
    const details = { status: cause.status, serverMessage: message, operation };
    return {
      retryable: isRetryableStatus(cause.status),
      retryAfterMs: parseRetryAfter(cause.headers?.get("retry-after") ?? null),
      error: new StorageError(`${at} failed with HTTP ${cause.status}: ${message}${hint(cause.status)}`, {
        cause,
        details,
      }),
    };
  }
  const name = nameOf(cause);
  const message = cause instanceof Error ? cause.message : String(cause);
  if (name === "QdrantClientResourceExhaustedError" || message.startsWith("Invalid retryAfter value")) {
    const seconds = Number((cause as { retry_after?: unknown }).retry_after);
    return {
      retryable: true,
      retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null,
      retryAfterAtLeast: true,
      error: new StorageError(`${at} failed with HTTP 429: rate limited${hint(429)}`, {
        cause,
        details: { status: 429, serverMessage: message, operation },
      }),
    };
  }
  if (name === "QdrantClientTimeoutError" || name === "AbortError" || name === "TimeoutError") {
    return {
      retryable: true,
      retryAfterMs: null,
      error: new StorageError(`${at} timed out (the client's timeout)`, {
        cause,
        details: { operation, timedOut: true },
      }),
    };
  }
  if (cause instanceof TypeError && /fetch failed/i.test(message)) {
    return {
      retryable: true,
      retryAfterMs: null,
      error: new StorageError(`${at} could not reach the server: ${describe(cause)}`, {
        cause,
        details: { operation, timedOut: false },
      }),
    };
  }
  return {
    retryable: false,
    retryAfterMs: null,
    error: new StorageError(`${at} failed: ${message}`, { cause, details: { operation } }),
  };
}

/**
 * Every request of the backend goes through the official `@qdrant/js-client-rest` client, wrapped here in
 * the retry policy of docs/decisions/0005 (the client itself never retries). Every request is idempotent
 * by construction in this backend (deterministic point ids, writes by id or filter, conditional job
 * updates checked by a re-read), so any request may be resent.
 */
export class QdrantTransport {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** Requests sent, counting resends: what a deployment pays per operation. */
  requests = 0;

  constructor(private readonly options: QdrantTransportOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** Runs `request` on the client, resending on 408/429/5xx, timeouts and connection errors. */
  async call<T>(operation: string, request: (client: QdrantClient) => Promise<T>): Promise<T> {
    const client = await this.options.client();
    for (let attempt = 0; ; attempt++) {
      this.requests++;
      try {
        return await request(client);
      } catch (cause) {
        const failure = classify(cause, operation, this.options.where);
        if (!failure.retryable || attempt >= this.options.retry.retries) throw failure.error;
        const policy = this.options.retry;
        const told = failure.retryAfterMs;
        if (told === null || failure.retryAfterAtLeast) {
          const backOff = retryDelay(policy, attempt, null, this.random);
          await this.sleep(told === null ? backOff : Math.max(retryDelay(policy, attempt, told), backOff));
        } else await this.sleep(retryDelay(policy, attempt, told));
      }
    }
  }
}

const CLIENT_PACKAGE = "@qdrant/js-client-rest";

/**
 * A client of Qdrant's official package for a URL, which is loaded here, on the first request: an
 * embedded deployment never installs or loads it. The URL is used as given (the client would otherwise add
 * `:6333` to a URL without a port, and drop its path).
 * @throws StorageError naming the package when it is not installed.
 */
export async function officialClient(url: string, apiKey: string | undefined, timeoutMs: number) {
  let loaded: typeof import("@qdrant/js-client-rest");
  try {
    loaded = await import(CLIENT_PACKAGE);
  } catch (cause) {
    throw new StorageError(
      `the Qdrant backend needs ${CLIENT_PACKAGE}, Qdrant's official client and an optional peer dependency of @engram/core that is not installed: npm install ${CLIENT_PACKAGE} (or pass your own QdrantClient as qdrantStorage({ client }))`,
      { cause },
    );
  }
  const parsed = new URL(url);
  const prefix = parsed.pathname.replace(/\/+$/, "");
  return new loaded.QdrantClient({
    url: parsed.origin,
    port: null,
    ...(prefix ? { prefix } : {}),
    // As a header rather than `apiKey`, which would also print a console warning on every plain-http URL.
    ...(apiKey === undefined ? {} : { headers: { "api-key": apiKey } }),
    timeout: timeoutMs,
    // The backend checks the server's version itself on connect, and refuses one too old.
    checkCompatibility: false,
  });
}
