import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { QdrantClient } from "@qdrant/js-client-rest";
import { afterEach, describe, expect, it } from "vitest";
import { StorageError } from "../../errors/index.js";
import { QdrantTransport } from "./qdrant-transport.js";
import { DEFAULT_RETRY_POLICY } from "./retry-policy.js";

/** One canned answer of the stand-in server: a status, a JSON (or text) body and headers. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

const ok = (result: unknown): Answer => ({ status: 200, body: { result, status: "ok", time: 0 } });
const failure = (status: number, error: string, headers: Record<string, string> = {}): Answer => ({
  status,
  body: { status: { error }, time: 0 },
  headers,
});

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/**
 * The real client against a server that replays canned answers, wrapped in the transport whose waits
 * are recorded instead of slept.
 */
async function harness(answers: Answer[], retries = 3) {
  const seen: { method: string; url: string; apiKey: string | undefined; body: string }[] = [];
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const apiKey = req.headers["api-key"];
      seen.push({ method: req.method ?? "", url: req.url ?? "", apiKey: apiKey as string | undefined, body });
      const next = answers.shift() ?? failure(500, "no more answers");
      const text = typeof next.body === "string" ? next.body : JSON.stringify(next.body);
      const type = typeof next.body === "string" ? "text/plain" : "application/json";
      res.writeHead(next.status, { "content-type": type, ...next.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const client = new QdrantClient({
    url: `http://127.0.0.1:${port}`,
    apiKey: "secret",
    checkCompatibility: false,
  });
  const waits: number[] = [];
  const transport = new QdrantTransport({
    client: async () => client,
    where: "http://qdrant.test",
    retry: { ...DEFAULT_RETRY_POLICY, retries, baseDelayMs: 100, maxDelayMs: 1_000 },
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { transport, seen, waits };
}

describe("QdrantTransport over @qdrant/js-client-rest", () => {
  it("sends the request with the client's api key and returns the result", async () => {
    const { transport, seen } = await harness([ok({ count: 3 })]);
    const answer = await transport.call("count", (c) => c.count("memories", { exact: true }));
    expect(answer).toEqual({ count: 3 });
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/collections/memories/points/count",
      apiKey: "secret",
    });
    expect(JSON.parse(seen[0]?.body ?? "")).toEqual({ exact: true });
    expect(transport.requests).toBe(1);
  });

  it("resends on 503 with exponential back-off, counting every attempt", async () => {
    const { transport, waits } = await harness([
      failure(503, "shard unavailable"),
      failure(502, "bad gateway"),
      ok({ count: 1 }),
    ]);
    expect(await transport.call("count", (c) => c.count("m", { exact: true }))).toEqual({ count: 1 });
    // Equal jitter with random 0.5: three quarters of 100, then of 200.
    expect(waits).toEqual([75, 150]);
    expect(transport.requests).toBe(3);
  });

  it("waits at least what a 429's Retry-After says, though the client reads only its first digit", async () => {
    const { transport, waits } = await harness([
      failure(429, "Rate limiting exceeded", { "retry-after": "2" }),
      failure(429, "Rate limiting exceeded", { "retry-after": "30" }),
      ok(true),
    ]);
    expect(await transport.call("upsert", (c) => c.batchUpdate("m", { operations: [] }))).toBe(true);
    // "30" reaches the transport as 3 s (the client's reading): a lower bound, above the back-off.
    expect(waits).toEqual([2_000, 3_000]);
  });

  it("retries a 429 whose Retry-After is a date, which the client cannot read, with back-off", async () => {
    const { transport, waits } = await harness([
      failure(429, "Rate limiting exceeded", { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" }),
      ok(true),
    ]);
    expect(await transport.call("upsert", (c) => c.batchUpdate("m", { operations: [] }))).toBe(true);
    expect(waits).toEqual([75]);
  });

  it("does not resend a request the server refuses, and names the operation, status and server message", async () => {
    const { transport, seen } = await harness([failure(400, "Wrong input: Vector dimension error")]);
    const error = await transport.call("query", (c) => c.query("m", { query: [1, 2] })).catch((e) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe(
      "qdrant query on http://qdrant.test failed with HTTP 400: Wrong input: Vector dimension error",
    );
    expect(error.details).toEqual({
      status: 400,
      serverMessage: "Wrong input: Vector dimension error",
      operation: "query",
    });
    expect(seen).toHaveLength(1);
  });

  it("reads the auth layer's plain-text refusal and says where the key comes from", async () => {
    const { transport } = await harness([{ status: 401, body: "Invalid api-key" }]);
    const error = await transport.call("count", (c) => c.count("m", {})).catch((e) => e);
    expect(error.message).toMatch(/HTTP 401: Invalid api-key \(check the apiKey given to qdrantStorage/);
  });

  it("gives up after the configured resends with the last failure", async () => {
    const { transport, waits } = await harness([failure(503, "a"), failure(503, "b"), failure(503, "c")], 2);
    const error = await transport.call("count", (c) => c.count("m", {})).catch((e) => e);
    expect(error.message).toMatch(/HTTP 503: c$/);
    expect(waits).toHaveLength(2);
  });

  it("resends when the server cannot be reached, and says so when it never can", async () => {
    const waits: number[] = [];
    const client = new QdrantClient({ url: "http://127.0.0.1:9", checkCompatibility: false });
    const transport = new QdrantTransport({
      client: async () => client,
      where: "http://127.0.0.1:9",
      retry: { ...DEFAULT_RETRY_POLICY, retries: 2 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const error = await transport.call("count", (c) => c.count("m", {})).catch((e) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toMatch(
      /^qdrant count on http:\/\/127\.0\.0\.1:9 could not reach the server: fetch failed/,
    );
    expect(waits).toHaveLength(2);
    expect(transport.requests).toBe(3);
  });
});
