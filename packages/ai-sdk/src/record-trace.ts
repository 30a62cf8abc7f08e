import type { LanguageModelV4Message, LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { Engram, TraceInput, TraceStep } from "@engram/core";
import type { WriteBehind } from "@engram/core/integration";
import type { CallScope } from "./call-scope.js";
import { lastUserText } from "./prompt-turn.js";
import type { StepOutcome } from "./step-outcome.js";

type Part = Exclude<LanguageModelV4Message, { role: "system" }>["content"][number];
type ToolOutput = Extract<Part, { type: "tool-result" }>["output"];

function parsedInput(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return { input: value };
    }
  }
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { input: value };
}

/** A tool's output as a trace keeps it: the value, or the error text. */
function outputOf(output: ToolOutput): { result?: unknown; error?: string } {
  switch (output.type) {
    case "text":
    case "json":
      return { result: output.value };
    case "error-text":
      return { error: output.value };
    case "error-json":
      return { error: JSON.stringify(output.value) ?? "error" };
    case "execution-denied":
      return { error: `denied${output.reason ? `: ${output.reason}` : ""}` };
    case "content":
      return { result: output.value.flatMap((v) => (v.type === "text" ? [v.text] : [])).join(" ") };
    default:
      return {};
  }
}

/** The tool calls of the current turn (after the user's latest message), in order, with their results. */
export function toolSteps(prompt: LanguageModelV4Prompt): TraceStep[] {
  let start = -1;
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]?.role === "user") {
      start = i;
      break;
    }
  }
  const steps: TraceStep[] = [];
  // A result belongs to the latest call with its id (some providers reuse ids from step to step).
  const latest = new Map<string, number>();
  for (const message of prompt.slice(start + 1)) {
    if (message.role === "system") continue;
    for (const part of message.content) {
      if (part.type === "tool-call") {
        latest.set(part.toolCallId, steps.length);
        steps.push({ tool: part.toolName, args: parsedInput(part.input) });
      } else if (part.type === "tool-result") {
        const at = latest.get(part.toolCallId);
        const step = at === undefined ? undefined : steps[at];
        if (at === undefined || !step)
          steps.push({ tool: part.toolName, args: {}, ...outputOf(part.output) });
        else steps[at] = { ...step, ...outputOf(part.output) };
      }
    }
  }
  return steps;
}

/** The trace of a finished turn that used tools, or null (no tools, not finished, no request). */
export function traceOfTurn(
  scope: CallScope,
  prompt: LanguageModelV4Prompt,
  outcome: StepOutcome,
): TraceInput | null {
  if (outcome.finishReason === "tool-calls" || outcome.finishReason === "error") return null;
  const task = lastUserText(prompt);
  const steps = toolSteps(prompt);
  if (task === "" || steps.length === 0) return null;
  return {
    userId: scope.userId,
    ...(scope.agentId === undefined ? {} : { agentId: scope.agentId }),
    ...(scope.sessionId === undefined ? {} : { sessionId: scope.sessionId }),
    task,
    steps,
    ...(outcome.text.trim() ? { answer: outcome.text.trim() } : {}),
  };
}

/**
 * Queues the turn's trace (see `traceOfTurn`) on the write-back queue and waits for its first try at most
 * `waitMs`; never throws into the call. `at` is the turn's stamped time, so every retry of this write has
 * the same id and stores the trace once.
 */
export function recordTrace(
  context: { engram: Engram; queue: WriteBehind; report: (e: unknown) => void },
  scope: CallScope,
  prompt: LanguageModelV4Prompt,
  outcome: StepOutcome,
  at: string,
  waitMs: number,
): Promise<unknown> {
  try {
    const trace = traceOfTurn(scope, prompt, outcome);
    if (!trace) return Promise.resolve();
    const timed = { ...trace, at };
    return context.queue.write(scope.userId, () => context.engram.traces.add(timed), waitMs);
  } catch (error) {
    context.report(error);
    return Promise.resolve();
  }
}
