import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ValidationError } from "../errors/index.js";
import { consoleLogger, type EngramEvent, type Logger, sequentialIds } from "../model/index.js";
import { failingEmbeddingModel, hashEmbeddingModel, proseLanguageModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram, type EngramOptions } from "./create-engram.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  vi.restoreAllMocks();
});

async function engine(options: EngramOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-events-"));
  let now = Date.parse("2026-06-01T08:00:00.000Z");
  const events: EngramEvent[] = [];
  const engram = await createEngram({
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    clock: () => new Date(now),
    ids: sequentialIds(),
    onEvent: (event) => events.push(event),
    logger: false,
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { engram, events, advance: (ms: number) => (now += ms) };
}

const u1 = { userId: "u1" };
const said = (content: string) => ({ ...u1, messages: [{ role: "user" as const, content }] });
const ofType = <T extends EngramEvent["type"]>(events: EngramEvent[], type: T) =>
  events.filter((e): e is Extract<EngramEvent, { type: T }> => e.type === type);

describe("events: nothing fails silently", () => {
  it("records the language model in the store and reports a change of model, never refusing it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-llm-record-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "engram.db");
    const events: EngramEvent[] = [];
    const open = async (options: EngramOptions) => {
      const engram = await createEngram({
        path: file,
        embedder: null,
        background: false,
        logger: false,
        clock: () => new Date("2026-06-01T08:00:00.000Z"),
        onEvent: (e) => events.push(e),
        ...options,
      });
      const recorded = await storageOf(engram).readSetting("language-model");
      await engram.close();
      return recorded;
    };
    const other = { ...proseLanguageModel(), modelId: "other" };
    expect(await open({ llm: proseLanguageModel() })).toBe("engram-test/prose");
    expect(await open({ llm: proseLanguageModel() })).toBe("engram-test/prose");
    // No model configured: nothing recorded or reported.
    expect(await open({})).toBe("engram-test/prose");
    expect(events).toEqual([]);
    expect(await open({ llm: other })).toBe("engram-test/other");
    expect(events).toEqual([
      {
        type: "model.changed",
        at: "2026-06-01T08:00:00.000Z",
        previous: "engram-test/prose",
        current: "engram-test/other",
      },
    ]);
    // A read-only store is only read: the change is reported, the record stays.
    expect(await open({ llm: proseLanguageModel(), readonly: true })).toBe("engram-test/other");
    expect(events.at(-1)).toMatchObject({ type: "model.changed", current: "engram-test/prose" });
  });

  it("reports a language model that answers prose: each retry, then the job given up, in flush() and jobs()", async () => {
    const { engram, events, advance } = await engine({ llm: proseLanguageModel() });
    // Enough turns that the tier work has to ask the model.
    for (let i = 0; i < 20; i++)
      await engram.add(said(`I moved to Leeds in ${2000 + i} and I love hiking there.`));
    const first = await engram.flush();
    expect(first.retried).toBeGreaterThan(0);
    expect(first.errors.length).toBe(first.retried + first.failed);
    const retry = ofType(events, "job.retry");
    expect(retry.length).toBe(first.retried);
    expect(retry[0]).toMatchObject({ job: { type: "tiers", userId: "u1", attempt: 1 } });
    expect(retry[0]?.error).toMatch(/json|schema|parse/i);
    expect(first.errors[0]?.error).toBe(retry[0]?.error);
    // The raw turns are stored all the same.
    expect((await engram.stats(u1)).byKind.message).toBe(20);

    for (let i = 0; i < 6; i++) {
      advance(10 * 60_000);
      await engram.flush();
    }
    const failed = ofType(events, "job.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ job: { type: "tiers", userId: "u1", attempt: 5 } });
    const [job] = await engram.jobs({ ...u1, status: "failed" });
    expect(job?.lastError).toBe(failed[0]?.error);
  });

  it("reports an embedder that fails: writes stored pending, queries answered by full text", async () => {
    const { engram, events } = await engine({ embedder: failingEmbeddingModel(10) });
    const added = await engram.add(said("The plumber comes on Thursday"));
    expect(added.status).toBe("pending");
    expect(ofType(events, "embedder.unavailable")).toEqual([
      expect.objectContaining({
        fallback: "pending",
        error: expect.stringMatching(/simulated embedding failure/),
      }),
    ]);
    const found = await engram.search({ ...u1, query: "plumber" });
    expect(found.map((r) => r.id)).toEqual(added.ids);
    expect(ofType(events, "embedder.unavailable").map((e) => e.fallback)).toEqual(["pending", "fulltext"]);
    // The embed job's failure is reported once, as its retry, not again as the embedder's.
    await engram.flush();
    expect(ofType(events, "embedder.unavailable")).toHaveLength(2);
    expect(ofType(events, "job.retry")).toEqual([
      expect.objectContaining({ job: expect.objectContaining({ type: "embed" }) }),
    ]);
  });

  it("reports a background run that failed outside any job", async () => {
    const { engram, events } = await engine({ background: true, tiers: true });
    const storage = storageOf(engram);
    const claim = vi.spyOn(storage, "claimJobs").mockRejectedValueOnce(new Error("disk unplugged"));
    await engram.add(said("I live in Leeds."));
    await vi.waitFor(() => expect(ofType(events, "background.error")).toHaveLength(1), { timeout: 5000 });
    expect(ofType(events, "background.error")[0]?.error).toBe("disk unplugged");
    expect(claim).toHaveBeenCalled();
    // The next run does the work.
    await engram.flush();
    expect(await engram.jobs({ ...u1, status: "queued" })).toEqual([]);
  });

  it("reports calls slower than slowMs, and none without it", async () => {
    const slow = await engine({ slowMs: 0 });
    await slow.engram.add(said("I live in Leeds."));
    await slow.engram.search({ ...u1, query: "Leeds" });
    await slow.engram.retrieve({ ...u1, query: "Leeds" });
    await slow.engram.flush();
    const operations = new Set(ofType(slow.events, "slow").map((e) => e.operation));
    expect(operations).toEqual(new Set(["add", "search", "retrieve", "flush", "job"]));
    expect(ofType(slow.events, "slow").find((e) => e.operation === "add")).toMatchObject({
      userId: "u1",
      thresholdMs: 0,
    });

    const quiet = await engine();
    await quiet.engram.add(said("I live in Leeds."));
    await quiet.engram.flush();
    expect(quiet.events).toEqual([]);
  });

  it("keeps working when onEvent throws, and says so to the logger", async () => {
    const lines: string[] = [];
    const logger: Logger = { warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
    const { engram } = await engine({
      embedder: failingEmbeddingModel(10),
      logger,
      onEvent: () => {
        throw new Error("listener bug");
      },
    });
    const added = await engram.add(said("The plumber comes on Thursday"));
    expect(added.ids).toHaveLength(1);
    expect(lines[0]).toMatch(/^error engram: onEvent threw on a embedder.unavailable event: listener bug/);
    expect(lines[1]).toMatch(/^warn engram: embedding failed; stored without vectors/);
  });

  it("validates onEvent, logger and slowMs", async () => {
    await expect(createEngram({ onEvent: 3 as never, embedder: null })).rejects.toThrow(ValidationError);
    await expect(createEngram({ logger: { warn() {} } as never, embedder: null })).rejects.toThrow(
      /logger must be an object with warn and error methods/,
    );
    await expect(createEngram({ slowMs: -1, embedder: null })).rejects.toThrow(/slowMs/);
  });
});

describe("consoleLogger", () => {
  it("writes warnings and errors to the console, each distinct line at most once a minute", () => {
    let now = 0;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const logger = consoleLogger(() => now);
    logger.warn("engram: a");
    logger.warn("engram: a");
    logger.warn("engram: b");
    logger.error("engram: c", { x: 1 });
    expect(warn.mock.calls).toEqual([["engram: a"], ["engram: b"]]);
    expect(error.mock.calls).toEqual([["engram: c", { x: 1 }]]);
    now += 60_000;
    logger.warn("engram: a");
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it("is the default: a failing embedder is written to stderr unless logger is false", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { engram } = await engine({ embedder: failingEmbeddingModel(10), logger: undefined });
    await engram.add(said("The plumber comes on Thursday"));
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^engram: embedding failed/), expect.anything());
    warn.mockClear();
    const quiet = await engine({ embedder: failingEmbeddingModel(10), logger: false });
    await quiet.engram.add(said("The plumber comes on Thursday"));
    expect(warn).not.toHaveBeenCalled();
  });
});
