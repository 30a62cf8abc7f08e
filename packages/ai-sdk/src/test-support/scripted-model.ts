import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { createEngram, type Engram, type EngramOptions, StorageError, type StoragePort } from "@engram/core";
import { sqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel } from "@engram/core/testing";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One scripted model step: text, or tool calls (the step then ends with finish reason `tool-calls`). */
export type Step = string | { toolCalls: { toolName: string; input: unknown }[]; text?: string };

/** A mock model that answers each call with the next scripted step and records every prompt it receives. */
export function scriptedModel(steps: Step[]) {
  let next = 0;
  const prompts: LanguageModelV4Prompt[] = [];
  const take = (options: LanguageModelV4CallOptions): Step => {
    prompts.push(options.prompt);
    const step = steps[next++];
    if (step === undefined) throw new Error(`scripted model: no step left for call ${next}`);
    return step;
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options): Promise<LanguageModelV4GenerateResult> => {
      const step = take(options);
      return {
        content: contentOf(step),
        finishReason: { unified: typeof step === "string" ? "stop" : "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => ({ stream: simulateReadableStream({ chunks: streamOf(take(options)) }) }),
  });
  return { model, prompts };
}

function contentOf(step: Step): LanguageModelV4Content[] {
  if (typeof step === "string") return [{ type: "text", text: step }];
  return [
    ...(step.text ? [{ type: "text" as const, text: step.text }] : []),
    ...step.toolCalls.map((c, i) => ({
      type: "tool-call" as const,
      toolCallId: `call-${i}`,
      toolName: c.toolName,
      input: JSON.stringify(c.input),
    })),
  ];
}

/** The step as stream parts; text is split into word-sized deltas. */
export function streamOf(step: Step): LanguageModelV4StreamPart[] {
  const text = typeof step === "string" ? step : (step.text ?? "");
  const deltas = text.match(/\S+\s*/g) ?? [];
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (deltas.length) {
    parts.push({ type: "text-start", id: "t1" });
    for (const delta of deltas) parts.push({ type: "text-delta", id: "t1", delta });
    parts.push({ type: "text-end", id: "t1" });
  }
  for (const content of contentOf(step)) if (content.type === "tool-call") parts.push(content);
  parts.push({
    type: "finish",
    finishReason: { unified: typeof step === "string" ? "stop" : "tool-calls", raw: undefined },
    usage,
  });
  return parts;
}

/** The text of every system message of a prompt, joined. */
export const systemText = (prompt: LanguageModelV4Prompt | undefined): string =>
  (prompt ?? []).flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");

/**
 * A SQLite store whose writes fail while `failing` is set, as a full disk or a locked file would. The
 * next `lostAcks` writes are stored and then reported as failed, as a request that timed out after the
 * store had committed it.
 */
export function flakyStorage(path: string) {
  const inner = sqliteStorage({ path });
  const state = { failing: false, failedWrites: 0, lostAcks: 0 };
  const storage = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== "write" || typeof value !== "function")
        return typeof value === "function" ? value.bind(target) : value;
      return (...args: unknown[]) => {
        if (state.failing) {
          state.failedWrites++;
          return Promise.reject(new StorageError("SQLITE_FULL: database or disk is full"));
        }
        if (state.lostAcks > 0) {
          state.lostAcks--;
          state.failedWrites++;
          return Promise.resolve(value.apply(target, args)).then(() => {
            throw new StorageError("the write timed out");
          });
        }
        return value.apply(target, args);
      };
    },
  }) as StoragePort;
  return { storage, state };
}

/** A fresh engine on a temporary file with the instant hash embedder; `dispose()` closes and removes it. */
export async function tempEngram(
  options: { storage?: (path: string) => StoragePort; skills?: EngramOptions["skills"] } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "engram-ai-sdk-"));
  const path = join(dir, "engram.db");
  const engram: Engram = await createEngram({
    ...(options.storage ? { storage: options.storage(path) } : { path }),
    embedder: hashEmbeddingModel(),
    background: false,
    ...(options.skills ? { skills: options.skills } : {}),
  });
  return {
    engram,
    path,
    async dispose() {
      await engram.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
