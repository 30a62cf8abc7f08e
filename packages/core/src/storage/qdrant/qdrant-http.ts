import { StorageError } from "../../errors/index.js";
import { isRetryableStatus, parseRetryAfter, type RetryPolicy, retryDelay } from "./retry-policy.js";

export interface QdrantHttpOptions {
  /** Base URL, e.g. `http://localhost:6333` (used as given: no port is added). */
  readonly url: string;
  readonly apiKey?: string;
  /** Per-attempt timeout in milliseconds. */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Seams for tests. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

type Query = Record<string, string | number | boolean>;

/** What one failed attempt tells the retry loop. */
interface Failure {
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly error: StorageError;
}

/** Qdrant's JSON error text (`{status: {error}}`), or the plain-text body of its auth layer. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { status?: { error?: unknown } | string };
    if (typeof parsed.status === "object" && typeof parsed.status?.error === "string")
      return parsed.status.error;
    if (typeof parsed.status === "string") return parsed.status;
  } catch {
    // Not JSON: the auth layer answers 401/403 in plain text.
  }
  return body.trim().slice(0, 500);
}

function hint(status: number): string {
  if (status === 401 || status === 403) {
    return " (check the apiKey given to qdrantStorage; the CLI reads it from QDRANT_API_KEY)";
  }
  if (status === 429) return " (rate limited; raise the retries or lower the request rate)";
  return "";
}

/**
 * A small JSON-over-HTTP transport for Qdrant's REST API that owns retries: the npm client has none, and
 * reads `Retry-After` wrongly (its first character). Every request is idempotent by construction in this
 * backend (deterministic point ids, writes by id or filter, conditional job updates checked by a re-read),
 * so any request may be resent.
 */
export class QdrantHttp {
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly base: string;
  /** Requests sent, counting resends: what a deployment pays per operation. */
  requests = 0;

  constructor(private readonly options: QdrantHttpOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.base = options.url.replace(/\/+$/, "");
  }

  /** Sends the request, resending on 408/429/5xx, timeouts and connection errors; returns `result`. */
  async call<T>(operation: string, method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    return ((await this.send(operation, method, path, body, query)) as { result: T }).result;
  }

  /** Like `call`, but returns the whole response body (`GET /` has no `result`). */
  async send(
    operation: string,
    method: string,
    path: string,
    body?: unknown,
    query?: Query,
  ): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(operation, method, path, body, query);
      if (!("error" in outcome)) return outcome.body;
      if (!outcome.retryable || attempt >= this.options.retry.retries) throw outcome.error;
      await this.sleep(retryDelay(this.options.retry, attempt, outcome.retryAfterMs, this.random));
    }
  }

  private async attempt(
    operation: string,
    method: string,
    path: string,
    body: unknown,
    query: Query | undefined,
  ): Promise<{ body: unknown } | Failure> {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.options.apiKey) headers["api-key"] = this.options.apiKey;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    this.requests++;
    const where = `qdrant ${operation} (${method} ${url.pathname})`;
    try {
      const response = await this.fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.ok) return { body: JSON.parse(text) as unknown };
      const message = serverMessage(text);
      const details = { status: response.status, serverMessage: message, operation };
      return {
        retryable: isRetryableStatus(response.status),
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
        error: new StorageError(
          `${where} failed with HTTP ${response.status}: ${message}${hint(response.status)}`,
          {
            details,
          },
        ),
      };
    } catch (cause) {
      const timedOut = controller.signal.aborted;
      const reason = timedOut
        ? `timed out after ${this.options.timeoutMs} ms`
        : `could not reach ${this.base}: ${describe(cause)}`;
      return {
        retryable: true,
        retryAfterMs: null,
        error: new StorageError(`${where} ${reason}`, { cause, details: { operation, timedOut } }),
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

function describe(cause: unknown): string {
  const error = cause as { message?: string; cause?: { code?: string; message?: string } };
  return [error.message, error.cause?.code ?? error.cause?.message].filter(Boolean).join(": ");
}
