import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "./index.js";

let double: QdrantDouble;

const upsert = (id: number, signal?: AbortSignal) =>
  fetch(`${double.url}/collections/c/points?wait=true`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ points: [{ id, vector: [1, 0] }] }),
    ...(signal ? { signal } : {}),
  });

async function count(): Promise<number> {
  double.clearFaults();
  const response = await fetch(`${double.url}/collections/c/points/count`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  return ((await response.json()) as { result: { count: number } }).result.count;
}

beforeAll(async () => {
  double = await startQdrantDouble();
});
beforeEach(async () => {
  double.clearFaults();
  double.reset();
  await fetch(`${double.url}/collections/c`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ vectors: { size: 2, distance: "Dot" } }),
  });
});
afterAll(async () => {
  await double.close();
});

describe("fault injection", () => {
  it("runs the documented example (docs/qdrant-double.md)", async () => {
    const example = await startQdrantDouble();
    example.injectFaults({
      rate: 0.2,
      kinds: ["429", "503", "timeout"],
      retryAfterSeconds: 1,
      delayMs: 2000,
      seed: 1,
    });
    example.clearFaults();
    expect((await fetch(`${example.url}/collections`)).status).toBe(200);
    expect(example.requests.length).toBe(1);
    example.reset();
    expect(example.requests.length).toBe(0);
    await example.close();
  });

  it("answers 429 with Retry-After and a Qdrant error body, before the write applies", async () => {
    double.injectFaults({ rate: 1, kinds: ["429"], retryAfterSeconds: 30 });
    const response = await upsert(1);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(((await response.json()) as { status: { error: string } }).status.error).toMatch(
      /^Rate limiting exceeded: /,
    );
    expect(await count()).toBe(0);
  });

  it("answers 503 without applying the write", async () => {
    double.injectFaults({ rate: 1, kinds: ["503"] });
    expect((await upsert(1)).status).toBe(503);
    expect(await count()).toBe(0);
  });

  it("holds a timeout longer than the client waits, and drops connections", async () => {
    double.injectFaults({ rate: 1, kinds: ["timeout"], delayMs: 1000 });
    await expect(upsert(1, AbortSignal.timeout(100))).rejects.toThrow();
    double.injectFaults({ rate: 1, kinds: ["drop"] });
    await expect(upsert(2)).rejects.toThrow("fetch failed");
    expect(await count()).toBe(0);
    expect(double.requests.map((request) => request.status).slice(-3)).toEqual([408, 0, 200]);
  });

  it("strikes a seeded fraction of matching paths only, the same way for the same seed", async () => {
    const run = async () => {
      double.injectFaults({ rate: 0.5, kinds: ["429", "503"], seed: 7, paths: /\/points$/ });
      const statuses: number[] = [];
      for (let id = 0; id < 20; id += 1) statuses.push((await upsert(id)).status);
      return statuses;
    };
    const first = await run();
    expect(first.filter((status) => status !== 200).length).toBeGreaterThan(3);
    expect(first.filter((status) => status === 200).length).toBeGreaterThan(3);
    expect(await run()).toEqual(first);
    double.injectFaults({ rate: 1, kinds: ["503"], paths: /\/points$/ });
    expect((await fetch(`${double.url}/collections/c/exists`)).status).toBe(200);
  });
});
