// Faults at every seam the engine has to the outside: the embedding model, the language model, the SQLite
// file and the Qdrant server. Each case ends in a typed error or a retried job, is reported (a thrown
// EngramError or an event), and leaves the store intact: what was stored before is stored after, and
// once the fault is gone the same work completes.
import { join } from "node:path";
import { APICallError, type EmbeddingModelV4 } from "@ai-sdk/provider";
import {
  createEngram,
  type Engram,
  EngramError,
  type EngramEvent,
  type EngramOptions,
  embedderFromModel,
  type StoragePort,
} from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { SqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { integrityCheck, queryRow } from "../support/raw-sqlite.js";
import { StoreDigest } from "../support/store-digest.js";
import { makeTempDir } from "../support/temp-dir.js";

const dir = makeTempDir("engram-faults-");
afterAll(() => dir.remove());
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

let stores = 0;
async function engine(options: EngramOptions = {}) {
  const path = join(dir.path, `store-${++stores}.db`);
  let now = Date.parse("2026-06-01T08:00:00.000Z");
  const events: EngramEvent[] = [];
  const engram = await createEngram({
    ...(options.storage ? {} : { path }),
    background: false,
    embedder: hashEmbeddingModel(),
    clock: () => new Date(now),
    onEvent: (event) => events.push(event),
    logger: false,
    ...options,
  });
  cleanups.push(() => engram.close());
  return { engram, events, path, advance: (ms: number) => (now += ms) };
}

const said = (content: string, userId = "u1") => ({ userId, messages: [{ role: "user" as const, content }] });
const ofType = <T extends EngramEvent["type"]>(events: EngramEvent[], type: T) =>
  events.filter((e): e is Extract<EngramEvent, { type: T }> => e.type === type);

async function failure(call: Promise<unknown>): Promise<EngramError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(EngramError.isInstance(error), String(error)).toBe(true);
  return error as EngramError;
}

/** A SQLite store file is intact: SQLite's integrity check (b-trees, indexes, the full-text index). */
function assertIntact(path: string): void {
  expect(integrityCheck(path)).toBe("ok");
}

/** An embedding model that hangs (never answers) while `hang.on`, and otherwise answers as the hash model. */
function hangingEmbeddingModel(hang: { on: boolean }): EmbeddingModelV4 {
  const inner = hashEmbeddingModel();
  return {
    ...inner,
    doEmbed: (options) => (hang.on ? new Promise(() => {}) : inner.doEmbed(options)),
  } as EmbeddingModelV4;
}

const TURNS = Array.from(
  { length: 16 },
  (_, i) => `I moved to Leeds in ${2000 + i} and I love hiking on the moors.`,
);

describe("the embedding model", () => {
  it("hangs: the call times out, the turn is stored (found by full text) and its embedding retried", async () => {
    const hang = { on: true };
    const { engram, events, path } = await engine({
      embedder: embedderFromModel(hangingEmbeddingModel(hang), { timeoutMs: 50 }),
    });
    const added = await engram.add(said("The plumber comes on Thursday"));
    expect(added.status).toBe("pending");
    expect(ofType(events, "embedder.unavailable")[0]?.error).toMatch(/no answer from the model within 50 ms/);
    expect((await engram.search({ userId: "u1", query: "plumber" }))[0]?.text).toContain("plumber");
    assertIntact(path);
    hang.on = false;
    await engram.flush();
    expect(queryRow<{ n: number }>(path, "SELECT count(*) AS n FROM vectors").n).toBeGreaterThan(0);
    expect(await engram.jobs({ userId: "u1", status: "queued" })).toEqual([]);
  });

  it("answers NaN: nothing of it is stored, the turn waits for a good answer", async () => {
    const bad = { on: true };
    const inner = hashEmbeddingModel();
    const model = {
      ...inner,
      doEmbed: async (options: Parameters<EmbeddingModelV4["doEmbed"]>[0]) => {
        const result = await inner.doEmbed(options);
        return bad.on
          ? { ...result, embeddings: result.embeddings.map((e) => e.map(() => Number.NaN)) }
          : result;
      },
    } as EmbeddingModelV4;
    const { engram, events, path } = await engine({ embedder: model });
    expect((await engram.add(said("My sister lives in Porto"))).status).toBe("pending");
    expect(ofType(events, "embedder.unavailable")[0]?.error).toMatch(/not a finite number/);
    expect(queryRow<{ n: number }>(path, "SELECT count(*) AS n FROM vectors").n).toBe(0);
    bad.on = false;
    await engram.flush();
    expect(queryRow<{ n: number }>(path, "SELECT count(*) AS n FROM vectors").n).toBeGreaterThan(0);
    assertIntact(path);
  });
});

// Garbage JSON, a provider timeout and a model that hangs are in test/model-faults.test.ts.
describe("the language model", () => {
  async function withModel(doGenerate: MockLanguageModelV4["doGenerate"], extra: EngramOptions = {}) {
    const setup = await engine({ llm: new MockLanguageModelV4({ doGenerate }), llmTimeoutMs: 50, ...extra });
    for (const turn of TURNS) await setup.engram.add(said(turn));
    return setup;
  }

  it("answers 429 with Retry-After: the job waits at least that long before its next attempt", async () => {
    const { engram, events, path } = await withModel(async () => {
      throw new APICallError({
        message: "Rate limit reached",
        url: "https://api.example.com/v1/chat/completions",
        requestBodyValues: {},
        statusCode: 429,
        responseHeaders: { "retry-after": "120" },
        isRetryable: true,
      });
    });
    await engram.flush();
    const [retry] = ofType(events, "job.retry");
    expect(retry?.error).toContain("HTTP 429");
    const waited = Date.parse(retry?.retryAt ?? "") - Date.parse(retry?.at ?? "");
    expect(waited).toBeGreaterThanOrEqual(120_000);
    expect((await engram.jobs({ userId: "u1", status: "queued" })).some((j) => j.type === "tiers")).toBe(
      true,
    );
    assertIntact(path);
  });
});

describe("the SQLite file", () => {
  it("is full (SQLITE_FULL): the add fails whole with a StorageError and the store is as it was", async () => {
    const { engram, path } = await engine({ tiers: false });
    await engram.add(said("The first thing I told you"));
    const db = storageDb(engram);
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 2}`);
    const digest = new StoreDigest(path);
    const before = digest.digest();
    const big = Array.from({ length: 200 }, (_, i) => ({
      role: "user" as const,
      content: `A long message number ${i} ${"about the garden and the weather ".repeat(40)}`,
    }));
    const error = await failure(engram.add({ userId: "u1", messages: big }));
    expect(error.code).toBe("STORAGE");
    expect(error.message).toMatch(/full/i);
    expect(digest.digest()).toBe(before);
    digest.close();
    assertIntact(path);
    db.pragma("max_page_count = 1073741823");
    expect((await engram.add({ userId: "u1", messages: big })).ids).toHaveLength(200);
    assertIntact(path);
  });

  it("fails to write (SQLITE_IOERR) under a job: the job is retried and reported, the store unchanged by it", async () => {
    const path = join(dir.path, `store-${++stores}.db`);
    const real = new SqliteStorage({ path });
    const failing = { on: true };
    const storage = new Proxy(real, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== "write" || typeof value !== "function") {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return async (...args: Parameters<StoragePort["write"]>) => {
          // Only the tier job's writes fail (they move pages), not the adds that queue it.
          if (failing.on && args[1].upsert?.some((u) => u.record.kind === "segment")) {
            const cause = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
            throw Object.assign(new Error(`sqlite.write failed on ${path}: disk I/O error`), { cause });
          }
          return target.write(...args);
        };
      },
    }) as StoragePort;
    const { engram, events } = await engine({ storage });
    for (const turn of TURNS) await engram.add(said(turn));
    const digest = new StoreDigest(path);
    const before = digest.digest();
    const report = await engram.flush();
    expect(report.retried).toBeGreaterThan(0);
    expect(ofType(events, "job.retry")[0]?.error).toMatch(/disk I\/O error/);
    // The job's failed attempt changed nothing but its own state (attempts, last error).
    expect(queryRow<{ n: number }>(path, "SELECT count(*) AS n FROM memories WHERE kind = 'segment'").n).toBe(
      0,
    );
    digest.close();
    assertIntact(path);
    expect(before).not.toBe("");
    failing.on = false;
    for (let i = 0; i < 4; i++) {
      await engram.flush();
      if ((await engram.jobs({ userId: "u1", status: "queued" })).length === 0) break;
    }
    expect(queryRow<{ n: number }>(path, "SELECT count(*) AS n FROM memories WHERE kind = 'message'").n).toBe(
      TURNS.length,
    );
  });
});

/** The better-sqlite3 connection of an engine's SQLite store (white-box: to set a page limit on it). */
function storageDb(engram: Engram): { pragma(source: string, options?: { simple: boolean }): unknown } {
  const storage = storageOf(engram) as unknown as { db: unknown };
  return storage.db as { pragma(source: string, options?: { simple: boolean }): unknown };
}

describe("the Qdrant server", () => {
  let double: QdrantDouble;
  afterEach(async () => {
    await double?.close();
  });

  async function qdrantEngine(prefix: string) {
    const storage = qdrantStorage({
      url: double.url,
      collectionPrefix: prefix,
      timeoutMs: 250,
      retries: 2,
      baseDelayMs: 5,
      maxDelayMs: 20,
    });
    return engine({ storage, tiers: false });
  }

  for (const kind of ["503", "drop"] as const) {
    it(`answers ${kind === "503" ? "503" : "by dropping the connection"} mid-batch: a typed error, and the retried add converges`, async () => {
      double = await startQdrantDouble();
      const { engram } = await qdrantEngine(`f${kind}_`);
      await engram.add(said("Before the outage"));
      // The records are written, then every request to a vector collection fails: half of the batch lands.
      double.injectFaults({ rate: 1, kinds: [kind], paths: /vectors_\d+\/points/ });
      // With its time, a turn has a content identity: resending it after a failure cannot store it twice.
      const turn = {
        ...said("During the outage I adopted a beagle named Waffles"),
        at: "2026-06-01T08:00:00Z",
      };
      const error = await failure(engram.add(turn));
      expect(error.code).toBe("STORAGE");
      double.clearFaults();
      // Resent, the same turn (same message id) lands once, with its vector.
      await engram.add(turn);
      const list = await engram.memories.list({ userId: "u1" });
      expect(
        list
          .filter((m) => m.kind === "message")
          .map((m) => m.text)
          .sort(),
      ).toEqual(["Before the outage", "During the outage I adopted a beagle named Waffles"]);
      const found = await engram.search({ userId: "u1", query: "beagle named Waffles", limit: 5 });
      expect(found.find((r) => r.text.includes("Waffles"))?.channels.vector).toBeDefined();
    });
  }
});
