import type { MemoryRecord } from "@engram/core";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";

type ToolCalls = NonNullable<AIMessage["tool_calls"]>;

/** What a LangChain message becomes in Engram: a role, text, and what is needed to rebuild the message. */
export interface StoredMessage {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  name?: string;
  metadata: Record<string, unknown>;
}

const ROLE_OF: Record<string, StoredMessage["role"] | undefined> = {
  human: "user",
  ai: "assistant",
  system: "system",
  tool: "tool",
};

/**
 * A LangChain message as an Engram message, or null when it has no place in memory (an unknown type,
 * or an empty message). An AI message that only calls tools is stored with a line naming the calls, so
 * the history replays with its tool calls and the tool results that answer them.
 */
export function toStoredMessage(message: BaseMessage): StoredMessage | null {
  const role = ROLE_OF[message.getType()];
  if (role === undefined) return null;
  const text = message.text.trim();
  const metadata: Record<string, unknown> = {};
  let content = text;
  if (AIMessage.isInstance(message) && message.tool_calls?.length) {
    metadata.toolCalls = message.tool_calls;
    if (text === "") {
      metadata.textless = true;
      content = `[calls ${message.tool_calls.map((c) => c.name).join(", ")}]`;
    }
  }
  if (ToolMessage.isInstance(message)) metadata.toolCallId = message.tool_call_id;
  if (content === "") return null;
  return { role, content, ...(message.name ? { name: message.name } : {}), metadata };
}

/** An Engram message memory back as the LangChain message it was stored from. */
export function toLangChainMessage(record: MemoryRecord): BaseMessage {
  const name = record.name ?? undefined;
  const meta = record.metadata;
  switch (record.role) {
    case "assistant": {
      const toolCalls = Array.isArray(meta.toolCalls) ? (meta.toolCalls as ToolCalls) : undefined;
      return new AIMessage({
        content: meta.textless === true ? "" : record.text,
        ...(name ? { name } : {}),
        ...(toolCalls ? { tool_calls: toolCalls } : {}),
      });
    }
    case "system":
      return new SystemMessage({ content: record.text, ...(name ? { name } : {}) });
    case "tool":
      return new ToolMessage({
        content: record.text,
        tool_call_id: typeof meta.toolCallId === "string" ? meta.toolCallId : "",
        ...(name ? { name } : {}),
      });
    default:
      return new HumanMessage({ content: record.text, ...(name ? { name } : {}) });
  }
}
