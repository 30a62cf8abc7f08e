import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FakeListChatModel } from "@langchain/core/utils/testing";

/** A fresh engine on a temporary file with the instant hash embedder; `dispose()` closes and removes it. */
export async function tempEngram() {
  const dir = mkdtempSync(join(tmpdir(), "engram-langchain-"));
  const path = join(dir, "engram.db");
  const engram: Engram = await createEngram({
    path,
    embedder: hashEmbeddingModel(),
    background: false,
  });
  return {
    engram,
    dir,
    path,
    async dispose() {
      await engram.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every message's text of one model call, joined: what the model was shown. */
export const shown = (messages: readonly BaseMessage[] | undefined): string =>
  (messages ?? []).map((m) => m.text).join("\n");

/** A scripted chat model that records the messages of every call (for classic chains). */
export class RecordingChatModel extends FakeListChatModel {
  readonly calls: BaseMessage[][] = [];

  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    this.calls.push(messages);
    return super._generate(messages, options, runManager);
  }
}
