import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreInitializer } from "./store-initializer.js";

export function listNamespacesTests(init: StoreInitializer): void {
  describe(`${init.name}: listNamespaces`, () => {
    let store: BaseStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ store, dispose } = await init.create());
      const namespaces = [
        ["a", "u1"],
        ["a", "u1", "x"],
        ["a", "u2", "x"],
        ["a", "u2", "y", "z"],
        ["b", "u1"],
        ["b", "u3", "x"],
      ];
      for (const ns of namespaces) await store.put(ns, "k", { v: ns.join("/") });
    });
    afterEach(() => dispose());

    it("lists every namespace holding items, sorted", async () => {
      expect(await store.listNamespaces()).toEqual([
        ["a", "u1"],
        ["a", "u1", "x"],
        ["a", "u2", "x"],
        ["a", "u2", "y", "z"],
        ["b", "u1"],
        ["b", "u3", "x"],
      ]);
    });

    it("filters by prefix, with * matching any label", async () => {
      expect(await store.listNamespaces({ prefix: ["a", "u2"] })).toEqual([
        ["a", "u2", "x"],
        ["a", "u2", "y", "z"],
      ]);
      expect(await store.listNamespaces({ prefix: ["*", "u1"] })).toEqual([
        ["a", "u1"],
        ["a", "u1", "x"],
        ["b", "u1"],
      ]);
      expect(await store.listNamespaces({ prefix: ["c"] })).toEqual([]);
    });

    it("filters by suffix, and by prefix and suffix together", async () => {
      expect(await store.listNamespaces({ suffix: ["x"] })).toEqual([
        ["a", "u1", "x"],
        ["a", "u2", "x"],
        ["b", "u3", "x"],
      ]);
      expect(await store.listNamespaces({ prefix: ["b"], suffix: ["x"] })).toEqual([["b", "u3", "x"]]);
      expect(await store.listNamespaces({ suffix: ["*", "x"] })).toHaveLength(3);
    });

    it("truncates to maxDepth and removes the duplicates that makes", async () => {
      expect(await store.listNamespaces({ maxDepth: 1 })).toEqual([["a"], ["b"]]);
      expect(await store.listNamespaces({ prefix: ["a"], maxDepth: 2 })).toEqual([
        ["a", "u1"],
        ["a", "u2"],
      ]);
    });

    it("pages with limit and offset", async () => {
      const all = await store.listNamespaces();
      expect(await store.listNamespaces({ limit: 2 })).toEqual(all.slice(0, 2));
      expect(await store.listNamespaces({ limit: 2, offset: 2 })).toEqual(all.slice(2, 4));
      expect(await store.listNamespaces({ offset: 5 })).toEqual(all.slice(5));
    });
  });
}
