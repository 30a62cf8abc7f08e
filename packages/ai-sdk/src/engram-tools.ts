import type { Engram } from "@engram/core";
import { idString, parseInput } from "@engram/core/integration";
import { type Tool, tool } from "ai";
import { z } from "zod";

export interface EngramToolsOptions {
  /** The memory engine (`createEngram()`). */
  engram: Engram;
  /** Whose memory every tool reads and writes; fixed for the tool set, never chosen by the model. */
  userId: string;
  agentId?: string;
  /** Stored with memories the `remember` tool writes. */
  sessionId?: string;
}

const optionsSchema = z.object({
  engram: z.custom<Engram>((v) => typeof v === "object" && v !== null, {
    message: "expected an Engram instance from createEngram()",
  }),
  userId: idString,
  agentId: idString.optional(),
  sessionId: idString.optional(),
});

/** A memory as the model sees it: enough to quote it and to name it in `forget` or `correctMemory`. */
export interface MemoryHit {
  id: string;
  text: string;
  kind: string;
  tier: string;
  /** Event time (ISO) or null. */
  at: string | null;
  score: number;
}

const searchSchema = z.object({
  query: z.string().min(1).describe("What to look for, in plain words"),
  limit: z.number().int().min(1).max(50).default(5).describe("Memories to return"),
});
const rememberSchema = z.object({ text: z.string().min(1).describe("The statement to remember") });
const forgetSchema = z.object({ id: z.string().min(1).describe("The memory id from searchMemory") });
const correctSchema = z.object({
  text: z.string().min(1).describe("The corrected text, or the correction in plain words"),
  id: z.string().min(1).optional().describe("The memory to rewrite, from searchMemory"),
});

/** What `correctMemory` changed: memories rewritten, facts created, facts superseded (kept in history). */
export interface CorrectionResult {
  updated: string[];
  created: string[];
  superseded: string[];
}

/** The four memory tools, typed for `generateText({ tools })`. */
export type EngramTools = {
  searchMemory: Tool<z.output<typeof searchSchema>, { memories: MemoryHit[] }>;
  remember: Tool<z.output<typeof rememberSchema>, { ids: string[] }>;
  forget: Tool<z.output<typeof forgetSchema>, { deleted: string }>;
  correctMemory: Tool<z.output<typeof correctSchema>, CorrectionResult>;
};

function searchMemory(engram: Engram, userId: string): EngramTools["searchMemory"] {
  return tool({
    description:
      "Search the user's long-term memory (past conversations, facts about the user, things the assistant did). Use it before answering questions about the user's past or preferences.",
    inputSchema: searchSchema,
    execute: async ({ query, limit }): Promise<{ memories: MemoryHit[] }> => {
      const hits = await engram.search({ userId, query, limit });
      return {
        memories: hits.map((h) => ({
          id: h.id,
          text: h.text,
          kind: h.kind,
          tier: h.tier,
          at: h.at,
          score: Number(h.score.toFixed(4)),
        })),
      };
    },
  });
}

function remember(
  engram: Engram,
  scope: { userId: string; agentId?: string; sessionId?: string },
): EngramTools["remember"] {
  return tool({
    description:
      "Store something the user wants remembered, as a statement in the user's words (e.g. 'I am allergic to peanuts'). Facts are extracted from it in the background.",
    inputSchema: rememberSchema,
    execute: async ({ text }): Promise<{ ids: string[] }> => {
      const { ids } = await engram.add({
        ...scope,
        messages: [{ role: "user", content: text, metadata: { source: "remember-tool" } }],
      });
      return { ids };
    },
  });
}

function forget(engram: Engram, userId: string): EngramTools["forget"] {
  return tool({
    description:
      "Delete one memory by id (ids come from searchMemory). Use it when the user asks to forget something specific.",
    inputSchema: forgetSchema,
    execute: async ({ id }): Promise<{ deleted: string }> => {
      await engram.memories.delete({ userId, id });
      return { deleted: id };
    },
  });
}

function correctMemory(engram: Engram, userId: string): EngramTools["correctMemory"] {
  return tool({
    description:
      "Correct the user's memory. With an id, replaces that memory's text. Without one, applies a correction in plain words ('I moved to Berlin', 'I never said I like jazz'): outdated facts are superseded and kept in history.",
    inputSchema: correctSchema,
    execute: async ({ text, id }): Promise<CorrectionResult> => {
      if (id !== undefined) {
        const updated = await engram.memories.update({ userId, id, text });
        return { updated: [updated.id], created: [], superseded: [] };
      }
      const { created, superseded, edited } = await engram.feedback({ userId, text });
      return { updated: edited, created, superseded };
    },
  });
}

/**
 * AI SDK tools for agents that manage memory themselves: `searchMemory`, `remember`, `forget`,
 * `correctMemory`, all scoped to one user.
 * @throws ValidationError (INVALID_INPUT) when `userId` is missing or empty.
 */
export function engramTools(input: EngramToolsOptions): EngramTools {
  const { engram, userId, agentId, sessionId } = parseInput(optionsSchema, input, "engramTools");
  const scope = {
    userId,
    ...(agentId === undefined ? {} : { agentId }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
  return {
    searchMemory: searchMemory(engram, userId),
    remember: remember(engram, scope),
    forget: forget(engram, userId),
    correctMemory: correctMemory(engram, userId),
  };
}
