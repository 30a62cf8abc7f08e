import { describe, expect, it } from "vitest";
import { factMetadata, readFact } from "./fact-metadata.js";
import { newRecord } from "./new-record.js";

const NOW = "2026-01-01T00:00:00.000Z";
const fact = (metadata: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  newRecord(
    {
      id: "f1",
      userId: "u1",
      kind: "fact",
      tier: "long",
      text: "The user lives in Oslo.",
      metadata,
      ...extra,
    },
    NOW,
  );

describe("fact metadata", () => {
  it("reads back what the tiers write", () => {
    const fields = {
      slot: "lives_in",
      value: "Oslo",
      subject: "user",
      single: true,
      confidence: 0.9,
      evidence: ["m1"],
    };
    expect(readFact(fact(factMetadata(fields as Parameters<typeof factMetadata>[0])))).toEqual(fields);
  });

  it("gives a fact that lacks fields its key, text and role, confidence 0.5 and no evidence", () => {
    expect(readFact(fact({}, { key: "user:lives_in", role: "assistant" }))).toEqual({
      slot: "user:lives_in",
      value: "The user lives in Oslo.",
      subject: "assistant",
      single: false,
      confidence: 0.5,
      evidence: [],
    });
  });

  it("keeps out values of the wrong type: a non-finite confidence, evidence that is not ids", () => {
    const read = readFact(fact({ slot: 7, value: 42, confidence: Number.NaN, evidence: ["m1", 3, null] }));
    expect(read).toMatchObject({ slot: "fact", value: "42", confidence: 0.5, evidence: ["m1"] });
  });
});
