import type { Engram } from "@engram/core";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

/**
 * Records one finished run of a graph as an Engram trace: the last user request, each tool call with its
 * result or error, and the answer. Recurring runs become skills that `engram.retrieve` (and so the recall
 * node) shows for the next request of that kind.
 */
export async function recordRun(
  engram: Engram,
  userId: string,
  messages: readonly BaseMessage[],
): Promise<void> {
  const start = messages.findLastIndex((m) => HumanMessage.isInstance(m));
  if (start === -1) return;
  const turn = messages.slice(start + 1);
  const results = new Map<string, ToolMessage>();
  for (const m of turn) if (ToolMessage.isInstance(m)) results.set(m.tool_call_id, m);
  const steps = turn.flatMap((m) =>
    AIMessage.isInstance(m)
      ? (m.tool_calls ?? []).map((call) => {
          const result = call.id ? results.get(call.id) : undefined;
          return result?.status === "error"
            ? { tool: call.name, args: call.args, error: result.text }
            : { tool: call.name, args: call.args, result: result?.text };
        })
      : [],
  );
  if (steps.length === 0) return;
  await engram.traces.add({
    userId,
    task: messages[start]?.text ?? "",
    steps,
    answer: messages.at(-1)?.text ?? "",
  });
}
