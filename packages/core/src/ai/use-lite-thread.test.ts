import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ModelError } from "../errors/index.js";
import { UseLitePool } from "./offline-embedding-model.js";
import { type UseLiteModules, UseLiteThread } from "./use-lite-thread.js";

const STAND_IN = fileURLToPath(new URL("../test-support/use-lite-stand-in.cjs", import.meta.url));
const standIn: UseLiteModules = { embeddings: STAND_IN, model: STAND_IN };

const handlerCounts = () => [
  process.listenerCount("uncaughtException"),
  process.listenerCount("unhandledRejection"),
];

async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a ModelError, got vectors");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe("UseLiteThread", () => {
  it("answers each text with its own vector, in order", async () => {
    const thread = new UseLiteThread(() => standIn);
    const vectors = await thread.embed(["a", "three", "twelve chars"]);
    expect(vectors.map((v) => [v.length, v[0]])).toEqual([
      [512, 1],
      [512, 5],
      [512, 12],
    ]);
    expect(await thread.embed([])).toEqual([]);
  });

  it("leaves the host's process handlers alone while the model installs its own", async () => {
    const before = handlerCounts();
    await new UseLiteThread(() => standIn).embed(["hello"]);
    expect(handlerCounts()).toEqual(before);
  });

  it("fails with a ModelError when the model cannot load, and tries again on the next call", async () => {
    const missing = { embeddings: "/nowhere/embeddings.cjs", model: STAND_IN };
    let starts = 0;
    const thread = new UseLiteThread(() => {
      starts++;
      return missing;
    });
    const first = await modelError(thread.embed(["hello"]));
    expect(first.message).toMatch(/^cannot load the offline embedder \(USE-lite\): Cannot find module/);
    await modelError(thread.embed(["hello"]));
    expect(starts).toBe(2);
  });

  it("fails with a ModelError when the modules cannot be found", async () => {
    const thread = new UseLiteThread(() => {
      throw new Error("Cannot find module '@energetic-ai/embeddings'");
    });
    const error = await modelError(thread.embed(["hello"]));
    expect(error.message).toBe(
      "cannot load the offline embedder (USE-lite): Cannot find module '@energetic-ai/embeddings'",
    );
  });

  it("fails only the call whose embedding threw", async () => {
    const thread = new UseLiteThread(() => standIn);
    const error = await modelError(thread.embed(["fail"]));
    expect(error.message).toBe("the offline embedder (USE-lite) failed: stand-in failed to embed");
    expect((await thread.embed(["ok"]))[0]?.[0]).toBe(2);
  });

  it("fails with a ModelError when the model answers with too few vectors", async () => {
    const thread = new UseLiteThread(() => standIn);
    const error = await modelError(thread.embed(["one", "lose"]));
    expect(error.message).toBe("the offline embedder (USE-lite) returned 1 vectors for 2 texts");
    expect(await modelError(thread.embed(["lose"]))).toHaveProperty(
      "message",
      "the offline embedder (USE-lite) returned 0 vectors for 1 texts",
    );
  });

  it.each([
    ["crash", /worker thread failed: stand-in crashed$/],
    ["reject", /worker thread failed: stand-in left a rejection unhandled$/],
    ["exit", /worker thread stopped \(exit code 3\)$/],
  ])("fails every pending call when the thread dies (%s), then starts a new one", async (text, message) => {
    const thread = new UseLiteThread(() => standIn);
    const before = handlerCounts();
    const [dying, queued] = await Promise.allSettled([thread.embed([text]), thread.embed(["queued"])]);
    for (const outcome of [dying, queued]) {
      expect(outcome.status).toBe("rejected");
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(ModelError);
      expect((reason as ModelError).message).toMatch(message);
    }
    expect(handlerCounts()).toEqual(before);
    expect((await thread.embed(["again"]))[0]?.[0]).toBe(5);
  });
});

describe("UseLitePool", () => {
  it("shares a batch between its threads in order, and starts a second thread only for a batch", async () => {
    let started = 0;
    const pool = new UseLitePool(() => {
      started++;
      return new UseLiteThread(() => standIn);
    }, 2);
    expect((await pool.embed(["query"])).map((v) => v[0])).toEqual([5]);
    expect(started).toBe(1);
    const texts = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g".repeat(40)];
    expect((await pool.embed(texts)).map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(started).toBe(2);
    await expect(pool.embed(["x", "fail"])).rejects.toBeInstanceOf(ModelError);
  });

  it("embeds a long mixed batch in calls of like-length texts and answers in the caller's order", async () => {
    const calls: number[][] = [];
    const spy = (): UseLiteThread => {
      const thread = new UseLiteThread(() => standIn);
      const embed = thread.embed.bind(thread);
      thread.embed = (texts) => {
        calls.push(texts.map((t) => t.length));
        return embed(texts);
      };
      return thread;
    };
    const pool = new UseLitePool(spy, 2);
    // 32 short and 32 long texts, alternating, so like-length texts are far apart in the caller's order.
    const texts = Array.from({ length: 64 }, (_, i) => "x".repeat(i % 2 ? 400 - i : i + 1));
    expect((await pool.embed(texts)).map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(calls.length).toBe(4);
    for (const call of calls) expect(call.length).toBeLessThanOrEqual(16);
    // Each call holds like lengths: no call mixes a short turn (< 100 characters) with a long one.
    for (const call of calls) expect(Math.max(...call) < 100 || Math.min(...call) >= 100).toBe(true);
  });
});
