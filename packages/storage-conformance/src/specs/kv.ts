import { expect } from "vitest";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };
const where = (entries: readonly { namespace: readonly string[]; key: string }[]) =>
  entries.map((e) => `${e.namespace.join("/")}:${e.key}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ENTRIES = [
  { namespace: ["a"], key: "k1", value: "1" },
  { namespace: ["a", "b"], key: "k2", value: "2" },
  { namespace: ["a", "b", "c"], key: "k3", value: "3" },
  { namespace: ["ab"], key: "k4", value: "4" },
  { namespace: ["b"], key: "k5", value: "5" },
  { namespace: ["a,b"], key: "k6", value: "6" },
  { namespace: ["a", "b"], key: "k7", value: "7" },
];

export const kv = conformanceSpec("kv", ({ test }) => {
  test("kvGet returns what a write batch put, with system times", async (port) => {
    const value = JSON.stringify({ checkpoint: { v: 1, channel_values: ["é", "🚀"] } });
    await port.write(U, { kvPut: [{ namespace: ["thread", "t1"], key: "cp-1", value }] });
    const entry = await port.kvGet(U, ["thread", "t1"], "cp-1");
    expect(entry).toMatchObject({ namespace: ["thread", "t1"], key: "cp-1", value });
    expect(Number.isNaN(Date.parse(entry?.createdAt ?? ""))).toBe(false);
    expect(entry?.updatedAt).toBe(entry?.createdAt);
  });

  test("an entry given its times (an import) keeps them, over an existing entry too", async (port) => {
    await port.write(U, { kvPut: [{ namespace: ["n"], key: "k", value: "old" }] });
    const times = { createdAt: "2025-01-02T03:04:05.000Z", updatedAt: "2025-02-03T04:05:06.000Z" };
    await port.write(U, { kvPut: [{ namespace: ["n"], key: "k", value: "restored", ...times }] });
    await port.write(U, { kvPut: [{ namespace: ["m"], key: "k", value: "new", ...times }] });
    expect(await port.kvGet(U, ["n"], "k")).toMatchObject({ value: "restored", ...times });
    expect(await port.kvGet(U, ["m"], "k")).toMatchObject({ value: "new", ...times });
  });

  test("kvGet returns null for a missing key or namespace", async (port) => {
    await port.write(U, { kvPut: [{ namespace: ["n"], key: "k", value: "v" }] });
    expect(await port.kvGet(U, ["n"], "other")).toBeNull();
    expect(await port.kvGet(U, ["n", "deeper"], "k")).toBeNull();
    expect(await port.kvGet(U, ["m"], "k")).toBeNull();
  });

  test("putting an existing key replaces the value, keeps createdAt and moves updatedAt", async (port) => {
    await port.write(U, { kvPut: [{ namespace: ["n"], key: "k", value: "old" }] });
    const first = await port.kvGet(U, ["n"], "k");
    await sleep(5);
    await port.write(U, { kvPut: [{ namespace: ["n"], key: "k", value: "new" }] });
    const second = await port.kvGet(U, ["n"], "k");
    expect(second?.value).toBe("new");
    expect(second?.createdAt).toBe(first?.createdAt);
    expect(Date.parse(second?.updatedAt ?? "")).toBeGreaterThan(Date.parse(first?.updatedAt ?? ""));
    expect(await port.kvList(U, { prefix: ["n"] })).toHaveLength(1);
  });

  test("kvDelete removes the entry; deleting a missing one is a no-op", async (port) => {
    await port.write(U, { kvPut: ENTRIES });
    await port.write(U, {
      kvDelete: [
        { namespace: ["a", "b"], key: "k2" },
        { namespace: ["zz"], key: "none" },
      ],
    });
    expect(await port.kvGet(U, ["a", "b"], "k2")).toBeNull();
    for (const e of ENTRIES.filter((e) => e.key !== "k2")) {
      expect((await port.kvGet(U, e.namespace, e.key))?.value).toBe(e.value);
    }
  });

  test("kvList without a prefix lists every entry of the user", async (port) => {
    await port.write(U, { kvPut: ENTRIES });
    await port.write({ userId: "u2" }, { kvPut: [{ namespace: ["a"], key: "theirs", value: "x" }] });
    expect(where(await port.kvList(U)).sort()).toEqual(where(ENTRIES).sort());
  });

  test("kvList with a prefix matches whole namespace parts, not text prefixes", async (port) => {
    await port.write(U, { kvPut: ENTRIES });
    expect(where(await port.kvList(U, { prefix: ["a"] })).sort()).toEqual([
      "a/b/c:k3",
      "a/b:k2",
      "a/b:k7",
      "a:k1",
    ]);
    expect(where(await port.kvList(U, { prefix: ["a", "b"] })).sort()).toEqual([
      "a/b/c:k3",
      "a/b:k2",
      "a/b:k7",
    ]);
    expect(where(await port.kvList(U, { prefix: ["a", "b", "c"] }))).toEqual(["a/b/c:k3"]);
    expect(where(await port.kvList(U, { prefix: ["a,b"] }))).toEqual(["a,b:k6"]);
    expect(await port.kvList(U, { prefix: ["c"] })).toEqual([]);
  });

  test("kvList pages through entries without gaps or repeats", async (port) => {
    await port.write(U, { kvPut: ENTRIES });
    const all = where(await port.kvList(U, { prefix: ["a"] }));
    expect(all).toHaveLength(4);
    const pages: string[] = [];
    for (let offset = 0; offset < all.length + 3; offset += 3) {
      pages.push(...where(await port.kvList(U, { prefix: ["a"], limit: 3, offset })));
    }
    expect(pages).toEqual(all);
  });

  test("keys with path-like and quote characters round-trip", async (port) => {
    const namespace = ['we"ird', "sp ace", "sl/ash", "ü"];
    await port.write(U, { kvPut: [{ namespace, key: 'k"/\\%_*', value: "v" }] });
    expect((await port.kvGet(U, namespace, 'k"/\\%_*'))?.value).toBe("v");
    expect(where(await port.kvList(U, { prefix: ['we"ird'] }))).toEqual(['we"ird/sp ace/sl/ash/ü:k"/\\%_*']);
    expect(await port.kvList(U, { prefix: ["we"] })).toEqual([]);
  });
});
