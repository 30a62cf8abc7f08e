import { expect } from "vitest";
import { stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

export const getVectors = conformanceSpec("getVectors", ({ test }) => {
  test("returns the stored vectors exactly, keyed by id", async (port) => {
    const a = unit(0.1, 0.2, 0.3, 0.4);
    const b = unit(-1, 0, 0, 2);
    await port.write(U, {
      upsert: [stored({ id: "a", userId: "u1" }, a), stored({ id: "b", userId: "u1" }, b)],
    });
    const vectors = await port.getVectors(U, ["a", "b"]);
    expect([...vectors.keys()].sort()).toEqual(["a", "b"]);
    expect(vectors.get("a")).toEqual(a);
    expect(vectors.get("b")).toEqual(b);
    expect(vectors.get("a")).toBeInstanceOf(Float32Array);
  });

  test("omits records without a vector and unknown ids", async (port) => {
    await port.write(U, {
      upsert: [stored({ id: "a", userId: "u1" }, unit(1, 0, 0, 0)), stored({ id: "none", userId: "u1" })],
    });
    const vectors = await port.getVectors(U, ["a", "none", "missing"]);
    expect([...vectors.keys()]).toEqual(["a"]);
  });

  test("returns the latest vector after an upsert", async (port) => {
    await port.write(U, { upsert: [stored({ id: "a", userId: "u1" }, unit(1, 0, 0, 0))] });
    await port.write(U, { upsert: [stored({ id: "a", userId: "u1" }, unit(0, 0, 1, 0))] });
    expect((await port.getVectors(U, ["a"])).get("a")).toEqual(unit(0, 0, 1, 0));
  });

  test("returns an empty map for an empty id list", async (port) => {
    await port.write(U, { upsert: [stored({ id: "a", userId: "u1" }, unit(1, 0, 0, 0))] });
    expect((await port.getVectors(U, [])).size).toBe(0);
  });

  test("accepts more ids than a query can bind (e.g. an export of a large scope)", async (port) => {
    await port.write(U, { upsert: [stored({ id: "a", userId: "u1" }, unit(1, 0, 0, 0))] });
    const ids = [...Array.from({ length: 40_000 }, (_, i) => `missing-${i}`), "a"];
    expect([...(await port.getVectors(U, ids)).keys()]).toEqual(["a"]);
  });
});
