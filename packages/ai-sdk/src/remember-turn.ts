import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { Engram } from "@engram/core";
import { stampTurn, type WrapperTurn, type WriteBehind } from "@engram/core/integration";
import type { CallScope, ResolvedOptions } from "./call-scope.js";
import { answerSoFar, lastUserText } from "./prompt-turn.js";
import { recordTrace } from "./record-trace.js";
import type { StepOutcome } from "./step-outcome.js";

export type { StepOutcome };

/** The turn to store: the user's latest message and the whole answer, or null when there is nothing to store. */
export function turnToStore(
  options: ResolvedOptions,
  scope: CallScope,
  prompt: LanguageModelV4Prompt,
  outcome: StepOutcome,
): WrapperTurn | null {
  if (outcome.finishReason === "tool-calls" || outcome.finishReason === "error") return null;
  const user = lastUserText(prompt);
  if (user === "") return null;
  const earlier = answerSoFar(prompt, options.toolResults === "summarize", options.summaryChars);
  const answer = [...earlier, outcome.text.trim()].filter((t) => t.length > 0).join("\n");
  const messages: WrapperTurn["messages"] = [{ role: "user", content: user }];
  if (answer !== "") messages.push({ role: "assistant", content: answer });
  return {
    userId: scope.userId,
    ...(scope.agentId === undefined ? {} : { agentId: scope.agentId }),
    ...(scope.sessionId === undefined ? {} : { sessionId: scope.sessionId }),
    messages,
  };
}

/**
 * Writes the finished turn and resolves once it is in the database: the raw turn is stored at once and
 * its embedding queued as a durable job, so a process that exits right after the call loses nothing. A
 * turn that used tools is also recorded as a trace (with `traces`), the raw material of skills. A
 * failed write, or one that takes longer than `writeTimeoutMs`, goes on in the background with retries;
 * the turn is stamped once, before its first try, so a retry of a write that landed stores nothing twice.
 * Never throws into the model call.
 */
export async function rememberTurn(
  context: { engram: Engram; queue: WriteBehind; options: ResolvedOptions; report: (e: unknown) => void },
  scope: CallScope,
  prompt: LanguageModelV4Prompt,
  outcome: StepOutcome,
): Promise<void> {
  if (!scope.remember) return;
  try {
    const found = turnToStore(context.options, scope, prompt, outcome);
    if (!found) return;
    const turn = stampTurn(found);
    const wait = context.options.writeTimeoutMs;
    await Promise.all([
      context.queue.write(scope.userId, () => context.engram.add({ ...turn, embed: "later" }), wait),
      context.options.traces ? recordTrace(context, scope, prompt, outcome, turn.at, wait) : null,
    ]);
  } catch (error) {
    context.report(error);
  }
}
