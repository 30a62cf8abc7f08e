import type {
  BaseStore,
  GetOperation,
  Item,
  Operation,
  PutOperation,
  SearchItem,
  SearchOperation,
} from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pause, type StoreInitializer } from "./store-initializer.js";

export function putGetDeleteTests(init: StoreInitializer): void {
  describe(`${init.name}: put, get, delete`, () => {
    let store: BaseStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => ({ store, dispose } = await init.create()));
    afterEach(() => dispose());

    it("returns what was put, with its namespace, key and times", async () => {
      const value = {
        text: "likes green tea",
        n: 3,
        ok: true,
        tags: ["a", "b"],
        nested: { x: [1, { y: "é" }] },
      };
      await store.put(["prefs", "u1"], "drink", value);
      const item = await store.get(["prefs", "u1"], "drink");
      expect(item?.value).toEqual(value);
      expect(item?.namespace).toEqual(["prefs", "u1"]);
      expect(item?.key).toBe("drink");
      expect(item?.createdAt).toBeInstanceOf(Date);
      expect(item?.updatedAt.getTime()).toBe(item?.createdAt.getTime());
    });

    it("returns null for a missing key or namespace", async () => {
      await store.put(["prefs", "u1"], "drink", { text: "tea" });
      expect(await store.get(["prefs", "u1"], "food")).toBeNull();
      expect(await store.get(["prefs", "u2"], "drink")).toBeNull();
      expect(await store.get(["prefs"], "drink")).toBeNull();
    });

    it("replaces the value on a second put, keeps createdAt and moves updatedAt", async () => {
      await store.put(["prefs", "u1"], "drink", { text: "tea" });
      const first = await store.get(["prefs", "u1"], "drink");
      // Copied: InMemoryStore updates the item object it returned in place.
      const [created, updated] = [first?.createdAt.getTime(), first?.updatedAt.getTime() ?? 0];
      await pause(5);
      await store.put(["prefs", "u1"], "drink", { text: "coffee" });
      const second = await store.get(["prefs", "u1"], "drink");
      expect(second?.value).toEqual({ text: "coffee" });
      expect(second?.createdAt.getTime()).toBe(created);
      expect(second?.updatedAt.getTime()).toBeGreaterThan(updated);
    });

    it("keeps the same key apart in different namespaces", async () => {
      await store.put(["prefs", "u1"], "k", { v: 1 });
      await store.put(["prefs", "u2"], "k", { v: 2 });
      await store.put(["prefs", "u1", "sub"], "k", { v: 3 });
      expect((await store.get(["prefs", "u1"], "k"))?.value).toEqual({ v: 1 });
      expect((await store.get(["prefs", "u2"], "k"))?.value).toEqual({ v: 2 });
      expect((await store.get(["prefs", "u1", "sub"], "k"))?.value).toEqual({ v: 3 });
    });

    it("deletes an item, and deleting a missing one is a no-op", async () => {
      await store.put(["prefs", "u1"], "drink", { text: "tea" });
      await store.delete(["prefs", "u1"], "drink");
      expect(await store.get(["prefs", "u1"], "drink")).toBeNull();
      await expect(store.delete(["prefs", "u1"], "drink")).resolves.toBeUndefined();
      await store.put(["prefs", "u1"], "drink", { text: "water" });
      expect((await store.get(["prefs", "u1"], "drink"))?.value).toEqual({ text: "water" });
    });

    it("refuses invalid namespaces", async () => {
      await expect(store.put([], "k", { v: 1 })).rejects.toThrow();
      await expect(store.put(["a", ""], "k", { v: 1 })).rejects.toThrow();
      await expect(store.put(["a.b", "u1"], "k", { v: 1 })).rejects.toThrow();
      await expect(store.put(["langgraph", "u1"], "k", { v: 1 })).rejects.toThrow();
    });

    it("answers a batch in operation order; reads see the state before the batch's writes", async () => {
      await store.put(["docs", "u1"], "a", { text: "alpha" });
      const ops: Operation[] = [
        { namespace: ["docs", "u1"], key: "a" } satisfies GetOperation,
        { namespace: ["docs", "u1"], key: "b", value: { text: "beta" } } satisfies PutOperation,
        { namespacePrefix: ["docs"], limit: 10, offset: 0 } satisfies SearchOperation,
        { namespace: ["docs", "u1"], key: "b" } satisfies GetOperation,
      ];
      const [got, put, searched, missing] = (await store.batch(ops)) as unknown as [
        Item | null,
        null,
        SearchItem[],
        Item | null,
      ];
      expect(got?.value).toEqual({ text: "alpha" });
      expect(put).toBeNull();
      expect(searched.map((i) => i.key)).toEqual(["a"]);
      expect(missing).toBeNull();
      expect((await store.get(["docs", "u1"], "b"))?.value).toEqual({ text: "beta" });
    });
  });
}
