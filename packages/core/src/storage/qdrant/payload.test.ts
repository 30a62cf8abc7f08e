import { describe, expect, it } from "vitest";
import type { MemoryRecord } from "../../model/index.js";
import { memoryPayload, namespacePrefixes, payloadToRecord } from "./payload.js";

const RECORD: MemoryRecord = {
  id: "m1",
  userId: "u1",
  cube: ["project", "p7", "notes"],
  agentId: "a1",
  sessionId: null,
  kind: "fact",
  tier: "long",
  role: null,
  name: "Zoë",
  text: "Zoë moved to Zürich",
  context: null,
  key: "home-city",
  metadata: { "a.b": 1, nested: { list: [1, "two", null] }, flag: false },
  status: "pending",
  version: 3,
  validFrom: "2026-01-01T00:10:00.000Z",
  validTo: null,
  createdAt: "2026-01-01T00:11:00.000Z",
  updatedAt: "2026-01-01T00:12:00.000Z",
  expiredAt: null,
};

describe("memory payload", () => {
  it("round-trips a record exactly (through JSON, as it travels)", () => {
    const payload = JSON.parse(JSON.stringify(memoryPayload(RECORD, 7, "r1"))) as Record<string, unknown>;
    expect(payloadToRecord(payload)).toEqual(RECORD);
  });

  it("carries integer times for filtering and one keyword per scalar metadata field", () => {
    const payload = memoryPayload(RECORD, 7, "r1");
    expect(payload).toMatchObject({
      valid_ms: Date.parse(RECORD.validFrom as string),
      created_ms: Date.parse(RECORD.createdAt),
      expired_ms: null,
      order_ms: Date.parse(RECORD.validFrom as string),
      meta: ['["a.b",1]', '["flag",false]'],
      seq: 7,
      rev: "r1",
    });
  });

  it("orders a record without event time by its creation time", () => {
    expect(memoryPayload({ ...RECORD, validFrom: null }, 1, "r1").order_ms).toBe(
      Date.parse(RECORD.createdAt),
    );
  });
});

describe("namespacePrefixes", () => {
  it("lists every leading run of parts as a cube key", () => {
    expect(namespacePrefixes(["a", "b,c"])).toEqual(['["a"]', '["a","b,c"]']);
  });
});
