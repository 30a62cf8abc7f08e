import { expect } from "vitest";
import { sortedIds, stored } from "../records.js";
import { conformanceSpec } from "../spec.js";
import { FILTER_CASES, FIXTURE_SCOPE, writeFilterFixture } from "./filter-fixture.js";

const U = { userId: "u1" };

export const scanFilters = conformanceSpec("scan filters", ({ test }) => {
  for (const { name, filter, ids } of FILTER_CASES) {
    test(name, async (port) => {
      await writeFilterFixture(port);
      expect(sortedIds(await port.scan(FIXTURE_SCOPE, { filter }))).toEqual(ids);
    });
  }

  test('metadata equality is type-strict: the number 2 does not match the string "2"', async (port) => {
    await writeFilterFixture(port);
    expect(sortedIds(await port.scan(FIXTURE_SCOPE, { filter: { metadata: { n: 2 } } }))).toEqual([]);
    expect(sortedIds(await port.scan(FIXTURE_SCOPE, { filter: { metadata: { n: "2" } } }))).toEqual(["i1"]);
  });

  test("metadata equality is type-strict: true does not match the number 1", async (port) => {
    await writeFilterFixture(port);
    expect(sortedIds(await port.scan(FIXTURE_SCOPE, { filter: { metadata: { flag: true } } }))).toEqual([]);
    expect(sortedIds(await port.scan(FIXTURE_SCOPE, { filter: { metadata: { flag: 1 } } }))).toEqual(["i1"]);
  });

  test("a metadata field name with dots is one literal name, not a path", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "dotted", userId: "u1", metadata: { "a.b": "x" } }),
        stored({ id: "nested", userId: "u1", metadata: { a: { b: "x" } } }),
      ],
    });
    expect(sortedIds(await port.scan(U, { filter: { metadata: { "a.b": "x" } } }))).toEqual(["dotted"]);
  });

  test("a metadata field name with a double quote is matched literally", async (port) => {
    await port.write(U, { upsert: [stored({ id: "quoted", userId: "u1", metadata: { 'say "hi"': "x" } })] });
    expect(sortedIds(await port.scan(U, { filter: { metadata: { 'say "hi"': "x" } } }))).toEqual(["quoted"]);
  });
});
