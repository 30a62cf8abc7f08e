import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { Engram } from "@engram/core";
import type { CallScope } from "./call-scope.js";
import { continuesTurn, lastUserText, promptTexts } from "./prompt-turn.js";

const CACHED_TURNS = 64;

/**
 * Recalls the memory block for a call. The later steps of a multi-step turn (after tool results) reuse
 * the block of the turn's first step, so every step sees the same memory and recall runs once per turn.
 */
export function memoryRecaller(engram: Engram) {
  const recent = new Map<string, string>();
  return async (scope: CallScope, prompt: LanguageModelV4Prompt): Promise<string> => {
    const query = lastUserText(prompt);
    if (query === "") return "";
    const key = `${scope.userId}\u0000${scope.agentId ?? ""}\u0000${scope.budgetTokens ?? ""}\u0000${query}`;
    const cached = continuesTurn(prompt) ? recent.get(key) : undefined;
    if (cached !== undefined) return cached;
    const { text } = await engram.retrieve({
      userId: scope.userId,
      // The agent's shared skills are matched too.
      ...(scope.agentId === undefined ? {} : { agentId: scope.agentId }),
      query,
      ...(scope.budgetTokens === undefined ? {} : { budgetTokens: scope.budgetTokens }),
      // The prompt carries these turns: the context leaves them out of its recent conversation.
      conversation: promptTexts(prompt),
    });
    recent.delete(key);
    recent.set(key, text);
    if (recent.size > CACHED_TURNS) recent.delete(recent.keys().next().value as string);
    return text;
  };
}
