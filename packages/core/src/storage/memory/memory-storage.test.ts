import { describe, expect, it } from "vitest";
import { createEngram } from "../../engine/create-engram.js";
import { EngramError } from "../../errors/index.js";
import { hashEmbeddingModel } from "../../testing/index.js";
import type { StoragePort } from "../storage-port.js";
import { memoryStorage } from "./memory-storage.js";

// The port's behaviour is the conformance suite's (test/conformance, on every backend); these are the
// engine on the in-memory backend and what is particular to it.
describe("the in-memory backend", () => {
  it("runs the whole engine: add, tier work, search, retrieve, export, forget", async () => {
    const engram = await createEngram({ storage: memoryStorage(), embedder: hashEmbeddingModel() });
    const maya = { userId: "maya" };
    try {
      await engram.add({
        ...maya,
        messages: [
          { role: "user", content: "I moved to Lisbon last spring with my greyhound Biscuit." },
          { role: "assistant", content: "Lisbon is lovely in spring." },
        ],
      });
      expect(await engram.flush()).toMatchObject({ failed: 0 });
      const found = await engram.search({ ...maya, query: "Lisbon greyhound" });
      expect(found[0]?.text).toContain("Lisbon");
      const { text } = await engram.retrieve({ ...maya, query: "Where do I live?" });
      expect(text).toContain("Lisbon");
      const dump = await engram.export(maya);
      expect(dump.memories.length).toBeGreaterThanOrEqual(2);
      const forgotten = await engram.forget(maya);
      expect(forgotten).toMatchObject({ erasure: { state: "erased" } });
      expect(forgotten.memories).toBe(dump.memories.length);
      expect(await engram.users()).toEqual([]);
    } finally {
      await engram.close();
    }
  });

  it("refuses every call once closed, with a ClosedError", async () => {
    const port = memoryStorage();
    await port.close();
    const error = await port.count({ userId: "u" }).catch((e: unknown) => e);
    expect(EngramError.isInstance(error) && error.code).toBe("CLOSED");
  });

  it("keeps no reference to what a caller wrote or read", async () => {
    const port = memoryStorage();
    const vector = Float32Array.of(1, 0);
    const record = {
      id: "m1",
      userId: "u",
      cube: ["user", "u"],
      agentId: null,
      sessionId: null,
      kind: "item",
      tier: "long",
      role: null,
      name: null,
      text: "a note",
      context: null,
      key: null,
      metadata: { tags: ["a"] },
      status: "ready",
      version: 1,
      validFrom: null,
      validTo: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      expiredAt: null,
    } as const;
    await port.write(
      { userId: "u" },
      { upsert: [{ record: { ...record, metadata: { tags: ["a"] } }, vector }] },
    );
    vector[0] = 0;
    const [read] = await port.get({ userId: "u" }, ["m1"]);
    if (!read) throw new Error("m1 not stored");
    (read.metadata.tags as string[]).push("mutated");
    expect((await port.get({ userId: "u" }, ["m1"]))[0]?.metadata).toEqual({ tags: ["a"] });
    expect((await port.getVectors({ userId: "u" }, ["m1"])).get("m1")).toEqual(Float32Array.of(1, 0));
  });
});

describe("createEngram({ storage })", () => {
  it("refuses a backend written against another storage specification, naming both versions", async () => {
    const port = memoryStorage();
    for (const specificationVersion of [2, undefined]) {
      const other = new Proxy(port, {
        get: (target, name) =>
          name === "specificationVersion" ? specificationVersion : Reflect.get(target, name),
      }) as unknown as StoragePort;
      const error = await createEngram({ storage: other, embedder: null }).catch((e: unknown) => e);
      expect(EngramError.isInstance(error) && error.code).toBe("UNSUPPORTED");
      expect(String((error as Error).message)).toContain("needs specification 1");
    }
  });
});
