import { describe, expect, it } from "vitest";
import { createEngram } from "./create-engram.js";
import { storageOf } from "./engine-backends.js";

describe("storageOf", () => {
  it("gives the backend an engine writes to, and refuses anything else", async () => {
    const engram = await createEngram({ path: ":memory:", embedder: null, background: false });
    try {
      await engram.add({ userId: "u", messages: [{ role: "user", content: "I keep bees" }] });
      expect(await storageOf(engram).count({ userId: "u" })).toBe(1);
      expect("storage" in engram).toBe(false);
      expect(() => storageOf({})).toThrow(
        new TypeError("storageOf() takes an engine made by createEngram()"),
      );
    } finally {
      await engram.close();
    }
  });
});
