// The double's public types, apart from index.ts so that its modules can import them without a cycle.
/** One request the double received, in arrival order. */
export interface RecordedRequest {
  readonly method: string;
  /** The URL path without the query string, e.g. `/collections/memories/points/scroll`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The parsed JSON body; `undefined` when the request had none (or it was not valid JSON). */
  readonly body: unknown;
  /** The HTTP status answered; 0 when the connection was dropped by an injected fault. */
  readonly status: number;
}

export type FaultKind = "429" | "503" | "timeout" | "drop";

/**
 * A fraction of matching requests fails before it has any effect, so a retried write is always safe.
 * `timeout` holds the response for `delayMs` (longer than the client's timeout) and then answers 408;
 * `drop` destroys the socket without an answer.
 */
export interface FaultPlan {
  /** Probability (0..1) that a matching request gets a fault. */
  readonly rate: number;
  readonly kinds: readonly FaultKind[];
  /** Sent as `Retry-After` on 429 answers. Default 1. */
  readonly retryAfterSeconds?: number;
  /** How long a `timeout` fault holds the response. Default 2000. */
  readonly delayMs?: number;
  /** Seed of the fault dice, so a failing run can be replayed. Default 1. */
  readonly seed?: number;
  /** Only requests whose path matches get faults. Default: every path. */
  readonly paths?: RegExp;
}

export interface QdrantDoubleOptions {
  /** When set, every request except the service root needs `api-key: <key>` or `Authorization: Bearer <key>`. */
  readonly apiKey?: string;
  /** Reported by `GET /`. Default "1.19.0". */
  readonly version?: string;
  /** Which spec requests are validated against. Default "1.19". */
  readonly spec?: "1.19" | "1.16";
}

export interface QdrantDouble {
  /** `http://127.0.0.1:<random port>` */
  readonly url: string;
  /** `{ method, path, query, body, status }` of every request. */
  readonly requests: readonly RecordedRequest[];
  injectFaults(plan: FaultPlan): void;
  clearFaults(): void;
  /** Drops all collections and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}
