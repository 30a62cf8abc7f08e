import { describe, expect, it } from "vitest";
import { EngramError } from "../../errors/index.js";
import { QdrantHttp } from "./qdrant-http.js";
import { DEFAULT_RETRY_POLICY } from "./retry-policy.js";

type Answer = Response | Error;

/** A transport whose fetch replays canned answers and records what was sent and how long it waited. */
function harness(answers: Answer[], retries = 3) {
  const sent: { url: string; init: RequestInit }[] = [];
  const waits: number[] = [];
  const http = new QdrantHttp({
    url: "http://qdrant.test:6333/",
    apiKey: "secret",
    timeoutMs: 1_000,
    retry: { ...DEFAULT_RETRY_POLICY, retries, baseDelayMs: 100, maxDelayMs: 1_000 },
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    fetch: async (url, init) => {
      sent.push({ url: String(url), init: init ?? {} });
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { http, sent, waits };
}

const ok = (result: unknown) =>
  new Response(JSON.stringify({ result, status: "ok", time: 0 }), { status: 200 });
const error = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ status: { error: message }, time: 0 }), { status, headers });

describe("QdrantHttp", () => {
  it("sends JSON with the api key and returns the result", async () => {
    const { http, sent } = harness([ok({ count: 3 })]);
    expect(
      await http.call("count", "POST", "/collections/c/points/count", { exact: true }, { wait: true }),
    ).toEqual({
      count: 3,
    });
    expect(sent[0]?.url).toBe("http://qdrant.test:6333/collections/c/points/count?wait=true");
    const headers = sent[0]?.init.headers as Record<string, string>;
    expect(headers["api-key"]).toBe("secret");
    expect(sent[0]?.init.body).toBe('{"exact":true}');
  });

  it("honours Retry-After in seconds on 429, then succeeds", async () => {
    const { http, waits } = harness([
      error(429, "Rate limiting exceeded", { "retry-after": "30" }),
      ok(true),
    ]);
    expect(await http.call("upsert", "PUT", "/x")).toBe(true);
    expect(waits).toEqual([30_000]);
  });

  it("backs off exponentially on 503, timeouts and connection errors", async () => {
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    const { http, waits, sent } = harness([
      error(503, "Shard temporarily unavailable"),
      refused,
      error(500, "boom"),
      ok(1),
    ]);
    expect(await http.call("scroll", "POST", "/x", {})).toBe(1);
    expect(sent).toHaveLength(4);
    expect(waits).toEqual([75, 150, 300]);
  });

  it("does not retry a 4xx other than 408 and 429, and carries the server's message", async () => {
    const { http, sent } = harness([
      error(400, "Wrong input: Vector dimension error: expected dim: 4, got 3"),
    ]);
    const err = await http.call("upsert", "PUT", "/collections/c/points").catch((e: unknown) => e);
    expect(sent).toHaveLength(1);
    expect(EngramError.isInstance(err)).toBe(true);
    expect((err as EngramError).code).toBe("STORAGE");
    expect((err as EngramError).message).toContain("Vector dimension error: expected dim: 4, got 3");
    expect((err as EngramError).details).toMatchObject({ status: 400, operation: "upsert" });
  });

  it("reads the plain-text body of an auth failure and names the apiKey", async () => {
    const { http } = harness([new Response("Invalid API key or JWT", { status: 401 })]);
    const err = (await http.call("info", "GET", "/").catch((e: unknown) => e)) as EngramError;
    expect(err.message).toContain("Invalid API key or JWT");
    expect(err.message).toContain("apiKey");
  });

  it("gives up after the configured retries with the last error", async () => {
    const { http, sent } = harness([error(503, "a"), error(503, "b"), error(503, "c")], 2);
    const err = (await http.call("count", "POST", "/x").catch((e: unknown) => e)) as EngramError;
    expect(sent).toHaveLength(3);
    expect(err.message).toContain("HTTP 503: c");
  });

  it("times out a hung request and retries it", async () => {
    let calls = 0;
    const http = new QdrantHttp({
      url: "http://qdrant.test",
      timeoutMs: 20,
      retry: { ...DEFAULT_RETRY_POLICY, retries: 1 },
      sleep: async () => {},
      fetch: (_url, init) => {
        calls++;
        if (calls === 2) return Promise.resolve(ok("late"));
        return new Promise((_, reject) => {
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        });
      },
    });
    expect(await http.call("get", "GET", "/")).toBe("late");
    expect(calls).toBe(2);
  });
});
