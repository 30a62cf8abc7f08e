import { describe, expect, it } from "vitest";
import { UnsupportedError } from "../errors/index.js";
import { importOptionalPeer } from "./optional-peer.js";

describe("optional peers", () => {
  it("names a missing package and what needs it", async () => {
    const missing = "@engram/no-such-package";
    const load = importOptionalPeer(() => import(missing), missing, "an onnx: embedder");
    await expect(load).rejects.toThrow(UnsupportedError);
    await expect(load).rejects.toThrow(
      "an onnx: embedder needs the @engram/no-such-package package, which is not installed: add it (npm install @engram/no-such-package)",
    );
  });

  it("passes on any other failure of the module as it is", async () => {
    const broken = new SyntaxError("Unexpected token");
    await expect(importOptionalPeer(() => Promise.reject(broken), "x", "y")).rejects.toBe(broken);
  });
});
