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
 * The Engram calls behind the /memory, /forget and /correct commands. Recall before a reply and
 * remembering after it are the AI SDK middleware's (`@engram/ai-sdk`), which wraps the model.
 */
export interface CompanionMemory {
  overview(): Promise<MemoryOverview>;
  forget(): Promise<ForgetReport>;
  correct(text: string): Promise<FeedbackResult>;
}

/** Turns still queued by the middleware, which must be written (or erased) before a command reads. */
interface PendingTurns {
  flush(): Promise<void>;
}

export function companionMemory(engram: Engram, userId: string, pending: PendingTurns): CompanionMemory {
  return {
    async overview() {
      await pending.flush();
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
    // A turn still queued would write the user back after the erasure: write it first, then erase all.
    async forget() {
      await pending.flush();
      return engram.forget({ userId });
    },
    async correct(text) {
      await pending.flush();
      return engram.feedback({ userId, text });
    },
  };
}
