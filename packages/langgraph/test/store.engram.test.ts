import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { createEngram, type Engram, EngramError } from "@engram/core";
import { failingEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EngramStore } from "../src/index.js";
import { BACKENDS } from "./backends.js";

const code = (expected: string) => (e: unknown) => EngramError.isInstance(e) && e.code === expected;

for (const backend of BACKENDS) {
  describe(`EngramStore items are Engram memories (${backend.name})`, () => {
    let engram: Engram;
    let dispose: () => Promise<void>;
    let store: EngramStore;
    beforeEach(async () => {
      ({ engram, dispose } = await backend.createEngram());
      store = new EngramStore(engram, { userIdAt: 1, fields: ["text"] });
    });
    afterEach(() => dispose());

    it("stores an item as a memory of its owner: kind item, the namespace as cube, found by engram.search", async () => {
      await store.put(["memories", "alice"], "pet", { text: "Alice has a cat named Miso", source: "chat" });
      const [memory] = await engram.memories.list({ userId: "alice", kinds: ["item"] });
      expect(memory).toMatchObject({ kind: "item", cube: ["memories", "alice"], key: "pet" });
      expect(memory?.text).toBe("Alice has a cat named Miso");
      const found = await engram.search({ userId: "alice", query: "what is the cat called" });
      expect(found[0]?.id).toBe(memory?.id);
      expect(await engram.search({ userId: "bob", query: "cat" })).toEqual([]);
    });

    it("keeps each version in the memory's history", async () => {
      await store.put(["memories", "alice"], "pet", { text: "a cat" });
      await store.put(["memories", "alice"], "pet", { text: "two cats" });
      const [memory] = await engram.memories.list({ userId: "alice", kinds: ["item"] });
      const history = await engram.memories.history({ userId: "alice", id: memory?.id ?? "" });
      expect(history.map((v) => [v.version, v.event, v.text])).toEqual([
        [1, "create", "a cat"],
        [2, "update", "two cats"],
      ]);
    });

    it("embeds indexed items only; index: false stores no vector", async () => {
      await store.put(["memories", "alice"], "a", { text: "embedded" });
      await store.put(["memories", "alice"], "b", { text: "not embedded" }, false);
      const items = await engram.memories.list({ userId: "alice", kinds: ["item"], order: "asc" });
      const vectors = await storageOf(engram).getVectors(
        { userId: "alice" },
        items.map((m) => m.id),
      );
      expect(items.map((m) => vectors.has(m.id))).toEqual([true, false]);
    });

    it("forget({ userId }) erases the user's items and namespaces, and nobody else's", async () => {
      await store.put(["memories", "alice"], "a", { text: "alice fact" });
      await store.put(["memories", "bob"], "b", { text: "bob fact" });
      await engram.forget({ userId: "alice" });
      expect(await store.get(["memories", "alice"], "a")).toBeNull();
      expect(await store.listNamespaces()).toEqual([["memories", "bob"]]);
      expect((await store.search(["memories"])).map((i) => i.key)).toEqual(["b"]);
    });

    it("refuses bad input with typed errors that say what to pass", async () => {
      await expect(store.put(["memories"], "k", { text: "x" })).rejects.toSatisfy(code("INVALID_INPUT"));
      await expect(store.put(["memories"], "k", { text: "x" })).rejects.toThrow(/position 1/);
      await expect(store.put(["memories", "alice"], "k", [1] as never)).rejects.toSatisfy(
        code("INVALID_INPUT"),
      );
      await expect(store.put(["memories", "alice"], "", { text: "x" })).rejects.toSatisfy(
        code("INVALID_INPUT"),
      );
      await expect(store.search(["memories"], { filter: { n: { $near: 1 } } })).rejects.toThrow(
        /unknown operator/,
      );
      expect(() => new EngramStore(engram, { userIdAt: 1, userId: "x" })).toThrow(/either userIdAt/);
    });
  });
}

describe("EngramStore with an embedding model that is down", () => {
  let dir: string;
  let engram: Engram;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "engram-store-"));
    engram = await createEngram({
      path: join(dir, "e.db"),
      embedder: failingEmbeddingModel(1),
      background: false,
    });
  });
  afterEach(async () => {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the item (found by its text) and embeds it when the model is back", async () => {
    const store = new EngramStore(engram, { userId: "shared", fields: ["text"] });
    await store.put(["notes", "n"], "k", { text: "the meeting moved to friday" });
    const [pending] = await engram.memories.list({ userId: "shared", kinds: ["item"] });
    expect(pending?.status).toBe("pending");
    expect((await store.search(["notes"], { query: "meeting" }))[0]?.key).toBe("k");
    await engram.flush();
    const [ready] = await engram.memories.list({ userId: "shared", kinds: ["item"] });
    expect(ready?.status).toBe("ready");
    expect((await storageOf(engram).getVectors({ userId: "shared" }, [ready?.id ?? ""])).size).toBe(1);
  });
});

describe("EngramStore items in the engram CLI", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("lists and finds a store item under its owner", async () => {
    dir = mkdtempSync(join(tmpdir(), "engram-store-cli-"));
    const path = join(dir, "e.db");
    const engram = await createEngram({ path, embedder: null, background: false });
    await new EngramStore(engram, { userIdAt: 1 }).put(["memories", "alice"], "pet", {
      text: "a cat named Miso",
    });
    await engram.close();
    const list = await runCliCaptured([
      "list",
      "--db",
      path,
      "--user",
      "alice",
      "--kind",
      "item",
      "--json",
      "--no-embed",
    ]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("Miso");
    const search = await runCliCaptured([
      "search",
      "--db",
      path,
      "--user",
      "alice",
      "Miso",
      "--json",
      "--no-embed",
    ]);
    const [first] = (JSON.parse(search.stdout) as { results: { text: string }[] }).results;
    expect(first?.text).toBe('{"text":"a cat named Miso"}');
  });
});
