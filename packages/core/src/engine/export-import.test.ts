import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import type { Job } from "../storage/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram, type EngramOptions } from "./create-engram.js";
import type { Engram } from "./engram.js";
import type { ExportDump } from "./export-import.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(options: EngramOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-export-"));
  const engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    clock: () => new Date("2026-05-01T12:00:00.000Z"),
    ids: sequentialIds(),
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

const u1 = { userId: "u1" };

/** A user with messages in two sessions, an edited memory (two history rows) and another user beside it. */
async function populated(): Promise<Engram> {
  const engram = await tempEngram();
  await engram.add({
    ...u1,
    sessionId: "s1",
    messages: [
      { role: "user", content: "I am training for the Porto marathon", metadata: { topic: "sport" } },
      { role: "assistant", content: "What is your target time?" },
    ],
  });
  await engram.add({
    ...u1,
    sessionId: "s2",
    messages: [{ role: "user", content: "Under four hours", name: "Rui" }],
  });
  await engram.memories.update({ ...u1, id: "mem_2", text: "What is your target finish time?" });
  await engram.add({ userId: "u2", messages: [{ role: "user", content: "not part of u1's export" }] });
  return engram;
}

function withoutTime(dump: ExportDump) {
  const { exportedAt: _t, ...rest } = dump;
  return rest;
}

describe("export", () => {
  it("holds every record, vector and history row of the user only", async () => {
    const engram = await populated();
    const dump = await engram.export(u1);
    expect(dump).toMatchObject({
      format: "engram.export",
      version: 1,
      userId: "u1",
      embedder: "engram-test/hash-64",
    });
    expect(dump.memories.map((m) => m.id)).toEqual(["mem_1", "mem_2", "mem_3"]);
    expect(dump.memories.every((m) => typeof m.vector === "string")).toBe(true);
    expect(dump.history.map((h) => `${h.memoryId}:${h.version}:${h.event}`)).toEqual([
      "mem_1:1:create",
      "mem_2:1:create",
      "mem_2:2:update",
      "mem_3:1:create",
    ]);
    expect(JSON.parse(JSON.stringify(dump))).toEqual(dump);
  });
});

describe("import", () => {
  it("round-trips records, history and vectors into a fresh store with the same embedder", async () => {
    const source = await populated();
    const dump = await source.export(u1);
    const target = await tempEngram();
    const result = await target.import(JSON.parse(JSON.stringify(dump)));
    expect(result).toEqual({ userId: "u1", memories: 3, reembedded: 0 });

    expect(withoutTime(await target.export(u1))).toEqual(withoutTime(dump));
    const ids = ["mem_1", "mem_2", "mem_3"];
    expect(await storageOf(target).getVectors(u1, ids)).toEqual(await storageOf(source).getVectors(u1, ids));
    expect(await target.users()).toEqual(["u1"]);
    const hits = await target.search({ ...u1, query: "marathon" });
    expect(hits[0]?.id).toBe("mem_1");
    expect(hits[0]?.channels.vector).toBeDefined();
  });

  it("re-embeds with a different embedder", async () => {
    const source = await populated();
    const dump = await source.export(u1);
    const target = await tempEngram({ embedder: hashEmbeddingModel({ dimensions: 32 }) });
    expect(await target.import(dump)).toEqual({ userId: "u1", memories: 3, reembedded: 3 });
    const vectors = await storageOf(target).getVectors(u1, ["mem_1", "mem_2", "mem_3"]);
    expect([...vectors.values()].map((v) => v.length)).toEqual([32, 32, 32]);
    const again = await target.export(u1);
    expect(again.embedder).toBe("engram-test/hash-32");
    expect(again.memories.map(({ vector: _v, ...r }) => r)).toEqual(
      dump.memories.map(({ vector: _v, ...r }) => r),
    );
    expect(again.history).toEqual(dump.history);
  });

  it("re-embeds in groups, telling onProgress after each; a long turn keeps the vector its passages give it", async () => {
    // Every passage embedded, so a long turn's vector is the mean of its passages': they must share a group.
    const embedding = { passages: 8 };
    const turns = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        role: "user" as const,
        content:
          i % 25 === 0
            ? `Long note ${i}: ${"the kayak trip plans, the river, the tents and the maps; ".repeat(14)}`
            : `Short note ${i} about kayaks`,
        at: `2026-04-01T10:${String(i % 60).padStart(2, "0")}:00Z`,
      }));
    const source = await tempEngram({ embedding, ids: sequentialIds() });
    await source.add({ ...u1, sessionId: "a", messages: turns(60) });
    await source.add({ ...u1, sessionId: "b", messages: turns(90).slice(60) });
    const dump = await source.export(u1);
    const direct = await tempEngram({
      embedding,
      embedder: hashEmbeddingModel({ dimensions: 32 }),
      ids: sequentialIds(),
    });
    await direct.add({ ...u1, sessionId: "a", messages: turns(60) });
    await direct.add({ ...u1, sessionId: "b", messages: turns(90).slice(60) });

    const target = await tempEngram({ embedding, embedder: hashEmbeddingModel({ dimensions: 32 }) });
    const heard: { embedded: number; total: number }[] = [];
    const result = await target.import(dump, {
      onProgress: ({ embedded, total }) => heard.push({ embedded, total }),
    });
    const total = dump.memories.length;
    expect(total).toBeGreaterThan(64);
    expect(result).toEqual({ userId: "u1", memories: total, reembedded: total });
    expect(heard.length).toBeGreaterThan(1);
    expect(heard.every((p) => p.total === total)).toBe(true);
    expect(heard.map((p) => p.embedded)).toEqual([...heard.map((p) => p.embedded)].sort((a, b) => a - b));
    expect(heard.at(-1)?.embedded).toBe(total);

    const ids = dump.memories.map((m) => m.id);
    const longIds = dump.memories
      .filter((m) => m.kind === "message" && m.text.startsWith("Long"))
      .map((m) => m.id);
    expect(longIds.length).toBe(4);
    const imported = await storageOf(target).getVectors(u1, ids);
    const expected = await storageOf(direct).getVectors(u1, ids);
    for (const id of longIds) expect(imported.get(id)).toEqual(expected.get(id));
    expect(imported.size).toBe(expected.size);
  });

  it("an embedder failing part-way stores everything and queues the embedding of exactly what is left", async () => {
    const source = await tempEngram({ ids: sequentialIds() });
    await source.add({
      ...u1,
      messages: Array.from({ length: 150 }, (_, i) => ({
        role: "user" as const,
        content: `Note ${i} on boats`,
      })),
    });
    const dump = await source.export(u1);
    const inner = hashEmbeddingModel({ dimensions: 32 });
    let calls = 0;
    const failsAfterOneCall: EmbeddingModelV4 = {
      ...inner,
      async doEmbed(options) {
        if (++calls > 1) throw new Error("the embedding service went away");
        return inner.doEmbed(options);
      },
    };
    const target = await tempEngram({
      logger: false,
      embedder: failsAfterOneCall,
    });
    const result = await target.import(dump);
    expect(result.memories).toBe(150);
    expect(result.reembedded).toBeGreaterThan(0);
    expect(result.reembedded).toBeLessThan(150);
    expect((await target.stats(u1)).memories).toBe(150);
    const jobs = (await target.jobs(u1)).filter((j) => j.type === "embed");
    expect(jobs).toHaveLength(1);
    const queued = (jobs[0] as Job).payload.ids as string[];
    expect(queued).toHaveLength(150 - result.reembedded);
    const vectors = await storageOf(target).getVectors(
      u1,
      dump.memories.map((m) => m.id),
    );
    expect(vectors.size).toBe(result.reembedded);
    expect(queued.some((id) => vectors.has(id))).toBe(false);
  });

  it("refuses an option import does not know", async () => {
    const target = await tempEngram();
    const dump = await (await populated()).export(u1);
    await expect(target.import(dump, { onProgres: () => {} } as never)).rejects.toThrow(
      /import: unknown key "onProgres"/,
    );
  });

  it("replaces memories with the same ids instead of duplicating them", async () => {
    const engram = await populated();
    const dump = await engram.export(u1);
    await engram.import(dump);
    expect((await engram.stats(u1)).memories).toBe(3);
    expect((await engram.stats(u1)).history).toBe(4);
  });

  it("rejects a dump that mixes users, writing nothing", async () => {
    const dump = await (await populated()).export(u1);
    const target = await tempEngram();
    const mixed = { ...dump, memories: dump.memories.map((m, i) => (i === 1 ? { ...m, userId: "u2" } : m)) };
    const error = await target.import(mixed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/dump is for user u1 but holds data of user u2/);
    const badHistory = {
      ...dump,
      history: [...dump.history, { ...(dump.history[0] as ExportDump["history"][number]), userId: "u9" }],
    };
    await expect(target.import(badHistory)).rejects.toBeInstanceOf(ValidationError);
    expect((await target.stats()).memories).toBe(0);
  });

  it("names what is wrong with a malformed dump", async () => {
    const target = await tempEngram();
    const dump = await (await populated()).export(u1);
    const cases: Array<[unknown, string]> = [
      [{ ...dump, format: "other" }, "format"],
      [{ ...dump, version: 2 }, "version"],
      [{ ...dump, memories: [{ ...dump.memories[0], kind: "thought" }] }, "memories.0.kind"],
      [{ ...dump, history: [{ ...dump.history[0], at: "noon" }] }, "history.0.at"],
    ];
    for (const [input, field] of cases) {
      const error = await target.import(input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details.path).toBe(field);
    }
  });

  it("refuses a broken vector with a ValidationError naming it, writing nothing", async () => {
    const target = await tempEngram();
    const dump = await (await populated()).export(u1);
    const [first, second] = dump.memories;
    const withVector = (vector: string, at = 0) => ({
      ...dump,
      memories: dump.memories.map((m, i) => (i === at ? { ...m, vector } : m)),
    });
    const values = new Float32Array(Buffer.from(first?.vector ?? "", "base64").buffer.slice(0));
    values[0] = Number.NaN;
    const nan = Buffer.from(values.buffer).toString("base64");
    const cases: Array<[unknown, RegExp]> = [
      [withVector("AAA="), /memories\.0\.vector: 2 bytes is not a whole number of float32 values/],
      [withVector("!!!!"), /memories\.0\.vector: 0 bytes/],
      [withVector(nan), /not a finite number/],
      [
        withVector(Buffer.alloc(8).toString("base64"), 1),
        /memories\.1\.vector: 2 dimensions where the dump.s other vectors have \d+/,
      ],
    ];
    expect(first?.vector && second?.vector).toBeTruthy();
    for (const [input, message] of cases) {
      const error = await target.import(input).catch((e: unknown) => e);
      expect(error, String(message)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toMatch(message);
    }
    expect((await target.stats()).memories).toBe(0);
  });
});
