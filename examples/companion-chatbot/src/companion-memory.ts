import type { Engram, FeedbackResult, ForgetReport, MemoryRecord, ProfileTrait } from "@engram/core";

/** What /memory shows. */
export interface MemoryOverview {
  readonly profile: readonly ProfileTrait[];
  readonly facts: readonly MemoryRecord[];
  readonly segments: readonly MemoryRecord[];
  /** The user's latest messages, newest first. */
  readonly recent: readonly MemoryRecord[];
  readonly turns: number;
}

/**
 * Every Engram call the companion makes, in one place: recall before a reply, remember after it, and the
 * /memory, /forget and /correct commands. An AI SDK memory middleware can take over recall and remember
 * without touching the rest of the chatbot.
 */
export interface CompanionMemory {
  /** The fenced memory block for the user's message, or "" when nothing is remembered. */
  recall(query: string): Promise<string>;
  remember(userText: string, assistantText: string): Promise<void>;
  overview(): Promise<MemoryOverview>;
  forget(): Promise<ForgetReport>;
  correct(text: string): Promise<FeedbackResult>;
}

const SESSION_PREFIX = "companion";

export function companionMemory(engram: Engram, userId: string, sessionId = SESSION_PREFIX): CompanionMemory {
  return {
    async recall(query) {
      return (await engram.retrieve({ userId, query })).text;
    },
    async remember(userText, assistantText) {
      await engram.add({
        userId,
        sessionId,
        messages: [
          { role: "user", content: userText },
          ...(assistantText.trim() ? [{ role: "assistant" as const, content: assistantText }] : []),
        ],
      });
    },
    async overview() {
      const [profile, facts, segments, messages, stats] = await Promise.all([
        engram.profile({ userId }),
        engram.memories.list({ userId, kinds: ["fact"], includeExpired: false, limit: 20 }),
        engram.memories.list({ userId, kinds: ["segment"], limit: 5, order: "desc" }),
        engram.memories.list({ userId, kinds: ["message"], limit: 10, order: "desc" }),
        engram.stats({ userId }),
      ]);
      const recent = messages.filter((m) => m.role === "user").slice(0, 5);
      return { profile, facts, segments, recent, turns: stats.byKind.message ?? 0 };
    },
    forget: () => engram.forget({ userId }),
    correct: (text) => engram.feedback({ userId, text }),
  };
}
