import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreInitializer } from "./store-initializer.js";

async function seed(store: BaseStore): Promise<void> {
  const rows: [string[], string, Record<string, unknown>][] = [
    [["docs", "u1"], "d1", { text: "one", kind: "note", score: 1, color: "red" }],
    [["docs", "u1"], "d2", { text: "two", kind: "todo", score: 2, color: "blue" }],
    [["docs", "u1", "work"], "d3", { text: "three", kind: "note", score: 3, color: "red" }],
    [["docs", "u2"], "d4", { text: "four", kind: "note", score: 4, color: "green" }],
    [["docsx", "u1"], "d5", { text: "five", kind: "note", score: 5, color: "red" }],
    [["other", "u1"], "d6", { text: "six", kind: "note", score: 6, color: "red" }],
  ];
  for (const [ns, key, value] of rows) await store.put(ns, key, value);
}

const keys = (items: { key: string }[]) => items.map((i) => i.key);
const sorted = (items: { key: string }[]) => keys(items).sort();

export function searchTests(init: StoreInitializer): void {
  describe(`${init.name}: search without a query`, () => {
    let store: BaseStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ store, dispose } = await init.create());
      await seed(store);
    });
    afterEach(() => dispose());

    it("finds items under a namespace prefix, label by label", async () => {
      expect(sorted(await store.search(["docs"]))).toEqual(["d1", "d2", "d3", "d4"]);
      expect(sorted(await store.search(["docs", "u1"]))).toEqual(["d1", "d2", "d3"]);
      expect(sorted(await store.search(["docs", "u1", "work"]))).toEqual(["d3"]);
      expect(sorted(await store.search(["docs", "u3"]))).toEqual([]);
      expect(sorted(await store.search([]))).toEqual(["d1", "d2", "d3", "d4", "d5", "d6"]);
    });

    it("returns items unscored, in the order they were stored, and an update keeps the place", async () => {
      await store.put(["docs", "u1"], "d1", { text: "one again", kind: "note", score: 1, color: "red" });
      const found = await store.search(["docs", "u1"]);
      expect(keys(found)).toEqual(["d1", "d2", "d3"]);
      expect(found.every((i) => i.score === undefined)).toBe(true);
      expect(found[0]?.value.text).toBe("one again");
    });

    it("filters on exact values and on operators", async () => {
      expect(sorted(await store.search(["docs"], { filter: { kind: "note" } }))).toEqual(["d1", "d3", "d4"]);
      expect(sorted(await store.search(["docs"], { filter: { kind: "note", color: "red" } }))).toEqual([
        "d1",
        "d3",
      ]);
      expect(sorted(await store.search(["docs"], { filter: { score: { $gt: 2 } } }))).toEqual(["d3", "d4"]);
      expect(sorted(await store.search(["docs"], { filter: { score: { $gte: 2, $lt: 4 } } }))).toEqual([
        "d2",
        "d3",
      ]);
      expect(sorted(await store.search(["docs"], { filter: { score: { $lte: 1 } } }))).toEqual(["d1"]);
      expect(sorted(await store.search(["docs"], { filter: { color: { $ne: "red" } } }))).toEqual([
        "d2",
        "d4",
      ]);
      expect(sorted(await store.search(["docs"], { filter: { color: { $eq: "blue" } } }))).toEqual(["d2"]);
      expect(sorted(await store.search(["docs"], { filter: { missing: "x" } }))).toEqual([]);
    });

    it("pages with limit (default 10) and offset", async () => {
      for (let i = 0; i < 12; i++) await store.put(["many", "u1"], `k${String(i).padStart(2, "0")}`, { i });
      const all = await store.search(["many"]);
      expect(all).toHaveLength(10);
      expect(keys(await store.search(["many"], { limit: 5, offset: 0 }))).toEqual(keys(all.slice(0, 5)));
      expect(keys(await store.search(["many"], { limit: 5, offset: 5 }))).toEqual(keys(all.slice(5, 10)));
      expect(await store.search(["many"], { limit: 5, offset: 10 })).toHaveLength(2);
      expect(await store.search(["many"], { limit: 5, offset: 20 })).toHaveLength(0);
      expect(keys(await store.search(["many"], { limit: 3, filter: { i: { $gte: 6 } } }))).toEqual([
        "k06",
        "k07",
        "k08",
      ]);
    });

    it("no longer finds a deleted item", async () => {
      await store.delete(["docs", "u1"], "d2");
      expect(sorted(await store.search(["docs", "u1"]))).toEqual(["d1", "d3"]);
    });
  });
}
