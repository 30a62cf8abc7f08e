import type { Engram } from "@engram/core";
import { idString, parseInput } from "@engram/core/integration";
import { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import { engramSchema } from "./engram-schema.js";
import { toLangChainMessage, toStoredMessage } from "./langchain-messages.js";

export interface EngramChatMessageHistoryOptions {
  engram: Engram;
  /** Whose memory the conversation belongs to. */
  userId: string;
  /** The conversation: its messages are this history. */
  sessionId: string;
  agentId?: string;
  /** Most recent messages `getMessages` returns. Default 1,000. */
  limit?: number;
}

const optionsSchema = z.object({
  engram: engramSchema,
  userId: idString,
  sessionId: idString,
  agentId: idString.optional(),
  limit: z.number().int().min(1).max(100_000).default(1000),
});

/**
 * A LangChain chat message history kept in Engram: each message is stored as a dialogue memory of the
 * user, in the session, so it also feeds the tiers (segments, facts, profile) and later recall.
 */
export class EngramChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ["engram", "chat_history"];
  private readonly engram: Engram;
  private readonly scope: { userId: string; sessionId: string; agentId?: string };
  private readonly limit: number;

  /** @throws ValidationError (INVALID_INPUT) when userId or sessionId is missing. */
  constructor(options: EngramChatMessageHistoryOptions) {
    super();
    const { engram, userId, sessionId, agentId, limit } = parseInput(
      optionsSchema,
      options,
      "EngramChatMessageHistory",
    );
    this.engram = engram;
    this.scope = { userId, sessionId, ...(agentId === undefined ? {} : { agentId }) };
    this.limit = limit;
  }

  /** The session's messages, oldest first (the latest `limit` of them). */
  async getMessages(): Promise<BaseMessage[]> {
    const newest = await this.engram.memories.list({
      userId: this.scope.userId,
      sessionId: this.scope.sessionId,
      kinds: ["message"],
      order: "desc",
      limit: this.limit,
    });
    return newest.reverse().map(toLangChainMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /** Stores the messages in one write; empty messages are skipped. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const stored = messages.flatMap((m) => {
      const s = toStoredMessage(m);
      return s ? [s] : [];
    });
    if (stored.length === 0) return;
    await this.engram.add({ ...this.scope, messages: stored });
  }

  /**
   * Deletes the session's messages. Facts already learned from them stay in the user's memory; use
   * `engram.forget({ userId })` to erase a user entirely.
   */
  override async clear(): Promise<void> {
    for (;;) {
      const batch = await this.engram.memories.list({
        userId: this.scope.userId,
        sessionId: this.scope.sessionId,
        kinds: ["message"],
        limit: 500,
      });
      if (batch.length === 0) return;
      for (const m of batch) await this.engram.memories.delete({ userId: this.scope.userId, id: m.id });
    }
  }
}
