import type {
  MemoryRecord,
  MetadataCondition,
  MetadataFilter,
  MetadataValue,
  StoragePort,
} from "@engram/core";
import { matchesMetadata } from "@engram/core/integration";
import { qdrantStorage } from "@engram/core/qdrant";
import { sqliteStorage } from "@engram/core/sqlite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "./qdrant-double/index.js";
import { stored, unit } from "./support/make-record.js";

// Few fields and values, so random filters hit, miss and mix types often: 1 and "1", true and 1.
const FIELDS = ["a", "b", "c"];
const value: fc.Arbitrary<MetadataValue> = fc.oneof(
  fc.constantFrom(0, 1, 2, 2.5, -1),
  fc.constantFrom("1", "x", "y"),
  fc.boolean(),
);
const metadata = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 3 });
const condition: fc.Arbitrary<MetadataCondition> = fc.oneof(
  value,
  fc
    .record(
      {
        $eq: value,
        $ne: value,
        $in: fc.array(value, { minLength: 1, maxLength: 3 }),
        $nin: fc.array(value, { maxLength: 3 }),
        $gt: fc.constantFrom(-1, 0, 1, 2),
        $gte: fc.constantFrom(0, 1, 2.5),
        $lt: fc.constantFrom(1, 2, 3),
        $lte: fc.constantFrom(0, 2, 2.5),
      },
      { requiredKeys: [] },
    )
    .filter((c) => Object.keys(c).length > 0),
);
const filter: fc.Arbitrary<MetadataFilter> = fc.dictionary(fc.constantFrom(...FIELDS), condition, {
  minKeys: 1,
  maxKeys: 2,
});

const RECORDS = 40;
const scope = { userId: "u1" };
let double: QdrantDouble;
let records: MemoryRecord[];
const ports: StoragePort[] = [];

beforeAll(async () => {
  double = await startQdrantDouble();
  const sample = fc.sample(metadata, { numRuns: RECORDS, seed: 7 });
  const batch = sample.map((m, i) =>
    stored({ id: `r${i}`, userId: "u1", text: `lantern ${i}`, metadata: m }, unit(1, i / RECORDS)),
  );
  records = batch.map((s) => s.record);
  for (const port of [
    sqliteStorage({ path: ":memory:" }),
    qdrantStorage({ url: double.url, collectionPrefix: "p_" }),
  ]) {
    await port.write(scope, { upsert: batch });
    ports.push(port);
  }
});
afterAll(async () => {
  for (const port of ports) await port.close();
  await double.close();
});

describe("a metadata filter selects in storage what matchesMetadata says, on both backends", () => {
  it("scan, count, vector and full-text search agree with the reference over random filters", async () => {
    await fc.assert(
      fc.asyncProperty(filter, async (f) => {
        const expected = records
          .filter((r) => matchesMetadata(r.metadata, f))
          .map((r) => r.id)
          .sort();
        for (const port of ports) {
          const scanned = (await port.scan(scope, { filter: { metadata: f } })).map((r) => r.id).sort();
          expect(scanned).toEqual(expected);
          expect(await port.count(scope, { metadata: f })).toBe(expected.length);
          const hits = await port.vectorSearch(scope, {
            vector: unit(1, 0.5),
            k: RECORDS,
            filter: { metadata: f },
          });
          expect(hits.map((h) => h.id).sort()).toEqual(expected);
          const matched = await port.textSearch(scope, {
            text: "lantern",
            k: RECORDS,
            filter: { metadata: f },
          });
          expect(matched.map((h) => h.id).sort()).toEqual(expected);
        }
      }),
      { numRuns: 60, seed: 11 },
    );
  });
});
