import { expect } from "vitest";
import { iso, makeVersion, stored } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

export const history = conformanceSpec("history", ({ test }) => {
  test("returns every version of the memory, oldest first, exactly as written", async (port) => {
    const v1 = makeVersion({ memoryId: "m1", userId: "u1", version: 1, text: "lives in Oslo", at: iso(1) });
    const v2 = makeVersion({
      memoryId: "m1",
      userId: "u1",
      version: 2,
      text: "lives in Bergen",
      metadata: { source: "feedback", confidence: 0.9 },
      at: iso(2),
    });
    const v3 = makeVersion({
      memoryId: "m1",
      userId: "u1",
      version: 3,
      event: "supersede",
      text: "x",
      at: iso(3),
    });
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1", version: 3 })], history: [v3, v1] });
    await port.write(U, { history: [v2] });
    expect(await port.history(U, "m1")).toEqual([v1, v2, v3]);
  });

  test("returns only the asked memory's versions", async (port) => {
    await port.write(U, {
      upsert: [stored({ id: "m1", userId: "u1" }), stored({ id: "m2", userId: "u1" })],
      history: [
        makeVersion({ memoryId: "m1", userId: "u1", version: 1 }),
        makeVersion({ memoryId: "m2", userId: "u1", version: 1 }),
        makeVersion({ memoryId: "m2", userId: "u1", version: 2 }),
      ],
    });
    expect((await port.history(U, "m1")).map((v) => [v.memoryId, v.version])).toEqual([["m1", 1]]);
    expect((await port.history(U, "m2")).map((v) => v.version)).toEqual([1, 2]);
  });

  test("keeps history when the memory is upserted again", async (port) => {
    await port.write(U, {
      upsert: [stored({ id: "m1", userId: "u1" })],
      history: [makeVersion({ memoryId: "m1", userId: "u1", version: 1 })],
    });
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1", version: 2, text: "edited" })] });
    expect(await port.history(U, "m1")).toHaveLength(1);
  });

  test("returns nothing for a memory without history", async (port) => {
    expect(await port.history(U, "missing")).toEqual([]);
  });
});
