import { describe, expect, it } from "vitest";
import { RETRIEVAL_PRESETS, resolveRetrieval, retrievalConfigSchema } from "./retrieval-config.js";

describe("resolveRetrieval", () => {
  it("is the conversation preset when nothing is given, and every preset is a full configuration", () => {
    expect(resolveRetrieval()).toEqual(RETRIEVAL_PRESETS.conversation);
    for (const preset of Object.values(RETRIEVAL_PRESETS))
      expect(retrievalConfigSchema.parse(preset)).toEqual(preset);
  });

  it("plain turns off every conversation prior and keeps the stages and sizes", () => {
    const plain = resolveRetrieval({ preset: "plain" });
    const { conversation } = RETRIEVAL_PRESETS;
    for (const prior of [
      "contentPrior",
      "questionPrior",
      "speakerPrior",
      "rolePrior",
      "whenPrior",
      "rangePrior",
    ])
      expect(plain[prior as keyof typeof plain], prior).toBe(0);
    expect(plain.updatePrior).toBe(false);
    expect(plain.speakerQuery).toBe(false);
    for (const kept of [
      "contextTurns",
      "recentTurns",
      "recentShare",
      "feedback",
      "segments",
      "rerank",
    ] as const)
      expect(plain[kept], kept).toBe(conversation[kept]);
  });

  it("lays the caller's fields over the preset's, and leaves fusion to the engine", () => {
    const resolved = resolveRetrieval({
      preset: "plain",
      speakerPrior: 3,
      fusion: { method: "rrf" } as never,
    });
    expect(resolved.speakerPrior).toBe(3);
    expect(resolved.questionPrior).toBe(0);
    expect("fusion" in resolved).toBe(false);
    expect("preset" in resolved).toBe(false);
  });
});
