import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

function lastHumanIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (HumanMessage.isInstance(messages[i])) return i;
  return -1;
}

/** The latest user message's text: what is recalled for and remembered. */
/** The texts of the messages (those that hold any), as the model receives them. */
export function messageTexts(messages: readonly BaseMessage[]): string[] {
  return messages.map((m) => m.text.trim()).filter((text) => text !== "");
}

export function lastHumanText(messages: readonly BaseMessage[]): string {
  const message = messages[lastHumanIndex(messages)];
  return message ? message.text.trim() : "";
}

/**
 * The id of the latest user message, which the agent's state keeps across re-runs (LangGraph's messages
 * reducer gives every message one): the turn's identity when it is written back.
 */
export function lastHumanId(messages: readonly BaseMessage[]): string | undefined {
  return messages[lastHumanIndex(messages)]?.id ?? undefined;
}

/** True while the agent is inside a turn (tool results or an AI message after the user's message). */
export function continuesTurn(messages: readonly BaseMessage[]): boolean {
  const i = lastHumanIndex(messages);
  return i !== -1 && i < messages.length - 1;
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The agent's answer for the latest user message: its texts in order, and with `tools` one line per tool result. */
export function agentAnswer(messages: readonly BaseMessage[], tools: boolean, maxChars: number): string {
  const calls = new Map<string, string>();
  const lines: string[] = [];
  for (const m of messages.slice(lastHumanIndex(messages) + 1)) {
    if (AIMessage.isInstance(m)) {
      for (const c of m.tool_calls ?? []) calls.set(c.id ?? "", `${c.name}(${JSON.stringify(c.args)})`);
      const text = m.text.trim();
      if (text) lines.push(text);
    } else if (tools && ToolMessage.isInstance(m)) {
      const call = calls.get(m.tool_call_id) ?? `${m.name ?? "tool"}()`;
      lines.push(clip(`[tool ${call} -> ${m.text}]`, maxChars));
    }
  }
  return lines.join("\n");
}

/** The caller's system message with the memory block after it, content blocks kept as they were. */
export function withMemory(system: BaseMessage | undefined, memory: string): string | BaseMessage["content"] {
  if (!system) return memory;
  const content = system.content;
  if (typeof content === "string") return content.trim() === "" ? memory : `${content}\n\n${memory}`;
  // Block texts are joined without a separator when the message is read as text.
  return content.length === 0 ? memory : [...content, { type: "text", text: `\n\n${memory}` }];
}
