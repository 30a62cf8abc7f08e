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
    expect([...byName.keys()].sort()).toEqual(
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
