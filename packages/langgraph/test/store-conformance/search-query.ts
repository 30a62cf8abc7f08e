import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreInitializer } from "./store-initializer.js";

export function searchQueryTests(init: StoreInitializer): void {
  describe(`${init.name}: search with a query`, () => {
    let store: BaseStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ store, dispose } = await init.create());
      await store.put(["mem", "u1"], "py", { text: "Alice writes python code every day", topic: "work" });
      await store.put(["mem", "u1"], "cook", { text: "Alice cooks pasta on sunday evenings", topic: "home" });
      await store.put(["mem", "u1"], "hike", {
        text: "Alice hikes mountain trails in summer",
        topic: "home",
      });
      await store.put(["mem", "u1"], "raw", { text: "python python python unindexed" }, false);
      await store.put(["mem", "u2"], "py", { text: "Bob writes python scripts", topic: "work" });
    });
    afterEach(() => dispose());

    it("ranks the matching item first, scored, best first", async () => {
      const found = await store.search(["mem", "u1"], { query: "python code" });
      expect(found[0]?.key).toBe("py");
      const scores = found.filter((i) => i.score !== undefined).map((i) => i.score as number);
      expect(scores.length).toBeGreaterThanOrEqual(1);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it("never ranks an item put with index: false; it follows the ranked ones without a score", async () => {
      const found = await store.search(["mem", "u1"], { query: "python", limit: 10 });
      const raw = found.find((i) => i.key === "raw");
      expect(raw?.score).toBeUndefined();
      expect(found.at(-1)?.key).toBe("raw");
      expect(found[0]?.key).toBe("py");
    });

    it("combines the query with the filter and the prefix", async () => {
      const home = await store.search(["mem", "u1"], { query: "pasta", filter: { topic: "home" } });
      expect(home[0]?.key).toBe("cook");
      expect(home.every((i) => i.value.topic === "home")).toBe(true);
      const everyone = await store.search(["mem"], { query: "python", filter: { topic: "work" } });
      expect(everyone.map((i) => i.namespace[1]).sort()).toEqual(["u1", "u2"]);
    });

    it("pages ranked results with limit and offset", async () => {
      const all = await store.search(["mem", "u1"], { query: "Alice python", limit: 10 });
      const second = await store.search(["mem", "u1"], { query: "Alice python", limit: 1, offset: 1 });
      expect(second).toHaveLength(1);
      expect(second[0]?.key).toBe(all[1]?.key);
      expect(await store.search(["mem", "u1"], { query: "Alice python", limit: 2 })).toHaveLength(2);
    });

    it("ranks by the indexed fields a put names", async () => {
      await store.put(["mem", "u3"], "a", { title: "gardening", body: "python snakes" }, ["title"]);
      await store.put(["mem", "u3"], "b", { title: "python", body: "gardening tips" }, ["title"]);
      const found = await store.search(["mem", "u3"], { query: "python" });
      expect(found[0]?.key).toBe("b");
    });
  });
}
