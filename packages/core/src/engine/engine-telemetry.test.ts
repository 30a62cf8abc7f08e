import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { failingEmbeddingModel, hashEmbeddingModel } from "../testing/index.js";
import { createEngram, type EngramOptions } from "./create-engram.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** An engine tracing into an OpenTelemetry in-memory exporter. */
async function traced(options: EngramOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-otel-"));
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const engram = await createEngram({
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    ids: sequentialIds(),
    logger: false,
    telemetry: { tracer: provider.getTracer("engram-test") },
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    await provider.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { engram, spans: () => exporter.getFinishedSpans() };
}

const u1 = { userId: "u1" };

describe("OpenTelemetry spans", () => {
  it("traces add, search, retrieve, flush and each job, with the user and counts, never the text", async () => {
    const { engram, spans } = await traced();
    await engram.add({ ...u1, messages: [{ role: "user", content: "I moved to Leeds last spring." }] });
    await engram.flush();
    const found = await engram.search({ ...u1, query: "Leeds" });
    await engram.retrieve({ ...u1, query: "where do I live?" });
    const byName = new Map(spans().map((s) => [s.name, s]));
    const calls = [...byName.keys()].filter((name) => !name.startsWith("engram.query."));
    expect(calls.sort()).toEqual(
      ["engram.add", "engram.flush", "engram.job", "engram.retrieve", "engram.search"].sort(),
    );
    expect(byName.get("engram.add")?.attributes).toEqual({
      "engram.user_id": "u1",
      "engram.memories": 1,
      "engram.status": "pending",
    });
    expect(byName.get("engram.search")?.attributes).toMatchObject({
      "engram.user_id": "u1",
      "engram.results": found.length,
    });
    expect(byName.get("engram.retrieve")?.attributes["engram.context.tokens"]).toBeGreaterThan(0);
    expect(byName.get("engram.job")?.attributes).toEqual({
      "engram.job.type": "tiers",
      "engram.job.attempt": 1,
      "engram.user_id": "u1",
      "engram.job.outcome": "completed",
    });
    expect(byName.get("engram.flush")?.attributes).toMatchObject({ "engram.jobs.completed": 1 });
    const everything = JSON.stringify(spans().map((s) => s.attributes));
    expect(everything).not.toMatch(/Leeds/);
  });

  it("traces each stage of the query path inside search and retrieve, with counts", async () => {
    const { engram, spans } = await traced();
    await engram.add({
      ...u1,
      messages: [
        { role: "user", content: "I moved to Leeds last spring." },
        { role: "user", content: "My sister Ana lives in Porto and works as a midwife." },
      ],
    });
    await engram.flush();
    const spansSince = (from: number) => spans().slice(from);
    let from = spans().length;
    await engram.search({ ...u1, query: "Where did I move last spring?" });
    const search = spansSince(from);
    // Finished spans come in the order they end: every stage inside the call's span, which ends last.
    expect(search.at(-1)?.name).toBe("engram.search");
    const stages = search.slice(0, -1).map((s) => s.name);
    expect(stages).toEqual(
      expect.arrayContaining([
        "engram.query.speaker",
        "engram.query.channels",
        "engram.query.time_channel",
        "engram.query.records",
        "engram.query.priors",
        "engram.query.relevance",
      ]),
    );
    expect(stages.every((name) => name.startsWith("engram.query."))).toBe(true);
    const channels = search.find((s) => s.name === "engram.query.channels");
    expect(channels?.attributes["engram.query.candidates"]).toBeGreaterThan(0);
    const records = search.find((s) => s.name === "engram.query.records");
    expect(records?.attributes["engram.query.records"]).toBeGreaterThan(0);
    // retrieve searches facts, segments and turns: one channels stage each, at least.
    from = spans().length;
    await engram.retrieve({ ...u1, query: "Where does my sister live?" });
    const retrieve = spansSince(from);
    expect(retrieve.at(-1)?.name).toBe("engram.retrieve");
    expect(retrieve.filter((s) => s.name === "engram.query.channels").length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify([...search, ...retrieve].map((s) => s.attributes))).not.toMatch(
      /Leeds|Porto|sister/,
    );
  });

  it("marks a failed job's span and a failed call's span as errors", async () => {
    const { engram, spans } = await traced({ embedder: failingEmbeddingModel(10), tiers: false });
    await engram.add({ ...u1, messages: [{ role: "user", content: "The plumber comes on Thursday" }] });
    await engram.flush();
    const job = spans().find((s) => s.name === "engram.job");
    expect(job?.attributes).toMatchObject({ "engram.job.type": "embed", "engram.job.outcome": "retried" });
    expect(job?.status.code).toBe(SpanStatusCode.ERROR);
    expect(job?.status.message).toMatch(/simulated embedding failure/);

    await expect(engram.search({ userId: "", query: "x" })).rejects.toThrow(ValidationError);
    const search = spans().find((s) => s.name === "engram.search");
    expect(search?.status.code).toBe(SpanStatusCode.ERROR);
    expect(search?.events.map((e) => e.name)).toEqual(["exception"]);
  });

  it("refuses a tracer that is not one", async () => {
    await expect(createEngram({ embedder: null, telemetry: { tracer: {} as never } })).rejects.toThrow(
      /telemetry.tracer must be an OpenTelemetry Tracer/,
    );
  });
});
