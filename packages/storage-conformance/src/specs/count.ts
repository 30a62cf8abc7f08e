import { expect } from "vitest";
import { stored } from "../records.js";
import { conformanceSpec } from "../spec.js";
import { FILTER_CASES, FIXTURE_SCOPE, writeFilterFixture } from "./filter-fixture.js";

export const count = conformanceSpec("count", ({ test }) => {
  test("counts only the scope's user's memories", async (port) => {
    await port.write(
      { userId: "u1" },
      { upsert: [stored({ id: "a", userId: "u1" }), stored({ id: "b", userId: "u1" })] },
    );
    await port.write({ userId: "u2" }, { upsert: [stored({ id: "c", userId: "u2" })] });
    expect(await port.count({ userId: "u1" })).toBe(2);
    expect(await port.count({ userId: "u2" })).toBe(1);
    expect(await port.count({ userId: "nobody" })).toBe(0);
  });

  for (const { name, filter, ids } of FILTER_CASES) {
    test(`agrees with the filter: ${name}`, async (port) => {
      await writeFilterFixture(port);
      expect(await port.count(FIXTURE_SCOPE, filter)).toBe(ids.length);
    });
  }
});
