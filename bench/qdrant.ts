// The Qdrant adapter's overhead per engine operation, against the in-process protocol double: HTTP
// requests and bytes per call (transferable to a real server) and wall latency (the double's, not a server's).
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { type QdrantDouble, startQdrantDouble } from "../test/qdrant-double/index.js";
import { hookedQdrantClient, type RequestHook } from "../test/support/hooked-qdrant-client.js";
import type { PoolTurn } from "./bench-data.js";
import { gaussian, type Latency, seededRandom, summarize } from "./stats.js";

export const QDRANT_METHOD =
  "One user, turns added through engram.add on a Qdrant-backed engine (qdrantStorage, default options) whose server is the in-process protocol double (test/qdrant-double): the first turns one per add, the rest in batches, each add followed by flush() (the tier work the background worker would do); then, per query (LoCoMo turns not stored): a search (k 10) right after the previous flush wrote, a second search with no write in between, a retrieve (context block) and a flush of the visits they queued. " +
  "The embedder returns a pseudo-random dense 512-dimension unit vector per text (USE-lite's size, so request bytes are realistic; instant, so the figures are the adapter's). " +
  "Requests per call are counted from the double's request log and bytes at the adapter's fetch (request bodies sent, response bodies received); they are what a real server would receive, apart from retries. " +
  "Wall latency is against the double, an in-memory brute-force server sharing this process and its CPU: it is not a real server's latency (a Qdrant server answers these requests from indexes, over a network): use the request counts to reason about a deployment, multiplied by your round-trip time.";

export interface QdrantOperationFigures {
  readonly operation: string;
  readonly calls: number;
  /** Mean HTTP requests per call, and the smallest and largest count seen. */
  readonly requests: { readonly mean: number; readonly min: number; readonly max: number };
  /** Requests per call by endpoint (`METHOD /collections/{c}/...`), mean over calls. */
  readonly byEndpoint: Readonly<Record<string, number>>;
  readonly bytesSentMean: number;
  readonly bytesReceivedMean: number;
  /** Wall time per call against the in-process double, ms. */
  readonly wallMs: Latency;
}

export interface QdrantFigures {
  readonly workload: string;
  readonly serverVersion: string;
  /** Requests of the first connect: version check, collections and payload indexes. */
  readonly connectRequests: number;
  readonly operations: readonly QdrantOperationFigures[];
}

export interface QdrantBenchOptions {
  readonly turns: readonly PoolTurn[];
  /** Turns added in all (default 500): `singleAdds` one per call, the rest in batches of `batchSize`. */
  readonly count?: number;
  readonly singleAdds?: number;
  readonly batchSize?: number;
  /** Searches and retrieves measured (default 50 each). */
  readonly queries?: number;
}

/** Dense pseudo-random unit vectors, one fixed vector per text. */
function denseModel(dimensions: number): EmbeddingModelV4 {
  const seed = (text: string): number => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h >>> 0;
  };
  return {
    specificationVersion: "v4",
    provider: "bench",
    modelId: `dense-${dimensions}`,
    maxEmbeddingsPerCall: 256,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      const embeddings = values.map((text) => {
        const normal = gaussian(seededRandom(seed(text)));
        const v = Array.from({ length: dimensions }, normal);
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      });
      return { embeddings, warnings: [] };
    },
  };
}

/** Counts body bytes both ways at the adapter's fetch. */
function countingHook(bytes: { sent: number; received: number }): RequestHook {
  return async (input, init, send) => {
    if (typeof init.body === "string") bytes.sent += Buffer.byteLength(init.body);
    const response = await send(input, init);
    const body = await response.arrayBuffer();
    bytes.received += body.byteLength;
    const { status, statusText, headers } = response;
    return new Response(status === 204 ? null : body, { status, statusText, headers });
  };
}

const endpoint = (method: string, path: string): string =>
  `${method} ${path.replace(/^\/collections\/[^/]+/, "/collections/{c}")}`;

interface Samples {
  ms: number[];
  requests: number[];
  sent: number;
  received: number;
  endpoints: Map<string, number>;
}

class Recorder {
  private readonly samples = new Map<string, Samples>();
  constructor(
    private readonly double: QdrantDouble,
    private readonly bytes: { sent: number; received: number },
  ) {}

  async measure<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    const at = this.double.requests.length;
    const { sent, received } = this.bytes;
    const start = performance.now();
    const value = await fn();
    const ms = performance.now() - start;
    const requests = this.double.requests.slice(at);
    const empty: Samples = { ms: [], requests: [], sent: 0, received: 0, endpoints: new Map() };
    const s = this.samples.get(operation) ?? empty;
    s.ms.push(ms);
    s.requests.push(requests.length);
    s.sent += this.bytes.sent - sent;
    s.received += this.bytes.received - received;
    for (const r of requests) {
      const key = endpoint(r.method, r.path);
      s.endpoints.set(key, (s.endpoints.get(key) ?? 0) + 1);
    }
    this.samples.set(operation, s);
    return value;
  }

  figures(): QdrantOperationFigures[] {
    return [...this.samples].map(([operation, s]) => {
      const calls = s.ms.length;
      const mean = (x: number) => Number((x / calls).toFixed(2));
      return {
        operation,
        calls,
        requests: {
          mean: mean(s.requests.reduce((a, b) => a + b, 0)),
          min: Math.min(...s.requests),
          max: Math.max(...s.requests),
        },
        byEndpoint: Object.fromEntries(
          [...s.endpoints].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, mean(n)]),
        ),
        bytesSentMean: Math.round(s.sent / calls),
        bytesReceivedMean: Math.round(s.received / calls),
        wallMs: summarize(s.ms),
      };
    });
  }
}

async function ingest(
  engram: Engram,
  rec: Recorder,
  texts: readonly string[],
  o: Required<Omit<QdrantBenchOptions, "turns">>,
) {
  const userId = "bench-user";
  for (let i = 0; i < texts.length; ) {
    const size = i < o.singleAdds ? 1 : o.batchSize;
    const messages = texts.slice(i, i + size).map((content, j) => ({
      role: (i + j) % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content,
    }));
    const label = size === 1 ? "add, 1 turn" : `add, batch of ${size} turns`;
    await rec.measure(label, () => engram.add({ userId, sessionId: `s${Math.floor(i / 100)}`, messages }));
    await rec.measure("flush after an add (tier work)", () => engram.flush());
    i += size;
  }
}

export async function qdrantBench(options: QdrantBenchOptions): Promise<QdrantFigures> {
  const o = { count: 500, singleAdds: 50, batchSize: 25, queries: 50, ...options };
  const texts = o.turns.slice(0, o.count).map((t) => t.text);
  const double = await startQdrantDouble();
  const bytes = { sent: 0, received: 0 };
  const storage = qdrantStorage({
    client: hookedQdrantClient(double.url, countingHook(bytes)),
    collectionPrefix: "bench_",
  });
  const engram = await createEngram({ storage, embedder: denseModel(512), background: false });
  try {
    const serverVersion = await storage.connect();
    const connectRequests = double.requests.length;
    const rec = new Recorder(double, bytes);
    await ingest(engram, rec, texts, o);
    const userId = "bench-user";
    const queries = o.turns.slice(o.count, o.count + o.queries).map((t) => t.text);
    for (const query of queries) {
      // The first search after a write refreshes the vector statistics' cached copy of the user's vectors.
      await rec.measure("search, k 10 (first after a write)", () =>
        engram.search({ userId, query, limit: 10 }),
      );
      await rec.measure("search, k 10 (no write since the last)", () =>
        engram.search({ userId, query: `${query} ?`, limit: 10 }),
      );
      await rec.measure("retrieve (context block)", () => engram.retrieve({ userId, query }));
      await rec.measure("flush after a retrieve (visits)", () => engram.flush());
    }
    return {
      workload: `1 user, ${texts.length} LoCoMo turns (${o.singleAdds} added one per call, the rest ${o.batchSize} per call), ${queries.length} queries`,
      serverVersion: String(serverVersion),
      connectRequests,
      operations: rec.figures(),
    };
  } finally {
    await engram.close();
    await double.close();
  }
}
