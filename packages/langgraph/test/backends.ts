import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";

/** A backend the LangGraph adapters are tested on; adding one to BACKENDS runs every suite on it. */
export interface TestBackend {
  readonly name: string;
  /** A fresh, empty engine; `dispose` closes it and removes what it stored. */
  createEngram(): Promise<{ engram: Engram; dispose(): Promise<void> }>;
}

const sqlite: TestBackend = {
  name: "sqlite",
  async createEngram() {
    const dir = mkdtempSync(join(tmpdir(), "engram-langgraph-"));
    const engram = await createEngram({
      path: join(dir, "engram.db"),
      embedder: hashEmbeddingModel(),
      background: false,
      tiers: false,
    });
    return {
      engram,
      async dispose() {
        await engram.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const BACKENDS: readonly TestBackend[] = [sqlite];
