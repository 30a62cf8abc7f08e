import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { type MetadataFilter, matchesMetadata, metadataConditions } from "./metadata-filter.js";

describe("metadataConditions", () => {
  it("reads values, lists and ranges into per-field conditions", () => {
    expect(
      metadataConditions({
        topic: "work",
        priority: { $gte: 1, $lt: 3, $ne: 2 },
        lang: { $in: ["en", "pt"], $nin: ["fr"] },
      }),
    ).toEqual([
      { field: "topic", anyOf: [["work"]], noneOf: [], range: null },
      { field: "priority", anyOf: [], noneOf: [2], range: { gte: 1, lt: 3 } },
      { field: "lang", anyOf: [["en", "pt"]], noneOf: ["fr"], range: null },
    ]);
  });

  it.each([
    [{ n: { $gt: "3" } }, "filter.n.$gt must be a finite number (ranges compare numbers); got string"],
    [{ n: { $between: [1, 2] } }, "filter.n.$between is not an operator; use one of $eq, $ne, $in, $nin"],
    [{ $or: [{ a: 1 }] }, "filter.$or is not a field name"],
    [{ n: [1, 2] }, "filter.n is an array; to match any of several values, use { $in: [...] }"],
    [{ n: {} }, "filter.n has no operator"],
    [{ n: null }, "filter.n must be a string, a finite number or a boolean; got null"],
    [{ n: { $in: [] } }, "filter.n.$in is empty, which matches nothing"],
    [
      { n: { $in: [1, { a: 1 }] } },
      "filter.n.$in.1 must be a string, a finite number or a boolean; got object",
    ],
    [{ n: { $nin: "a" } }, "filter.n.$nin must be an array of values; got string"],
    [
      { n: Number.POSITIVE_INFINITY },
      "filter.n must be a string, a finite number or a boolean; got Infinity",
    ],
    [[1], "filter must be an object of field conditions; got an array"],
  ])("refuses %j with a message naming the fault", (filter, message) => {
    let thrown: unknown;
    try {
      metadataConditions(filter);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as Error).message).toContain(message);
    expect((thrown as ValidationError).details.path).toBe(message.split(" ")[0]);
  });
});

describe("matchesMetadata", () => {
  const metadata = { topic: "work", priority: 2, pinned: true, code: "2", weird: { nested: 1 } };
  const cases: [MetadataFilter, boolean][] = [
    [{}, true],
    [{ topic: "work" }, true],
    [{ topic: "home" }, false],
    [{ priority: "2" }, false],
    [{ code: 2 }, false],
    [{ pinned: { $eq: true } }, true],
    [{ pinned: 1 }, false],
    [{ topic: { $ne: "home" } }, true],
    [{ missing: { $ne: "x" } }, true],
    [{ missing: { $nin: ["x"] } }, true],
    [{ missing: { $in: ["x"] } }, false],
    [{ missing: { $gt: 0 } }, false],
    [{ priority: { $in: [1, 2] } }, true],
    [{ priority: { $nin: [1, 2] } }, false],
    [{ priority: { $gt: 1, $lte: 2 } }, true],
    [{ priority: { $gt: 2 } }, false],
    [{ code: { $gte: 0 } }, false],
    [{ weird: { $ne: 1 } }, true],
    [{ topic: "work", priority: { $lt: 2 } }, false],
  ];
  it.each(cases)("%j -> %s", (filter, expected) => {
    expect(matchesMetadata(metadata, filter)).toBe(expected);
  });
});
