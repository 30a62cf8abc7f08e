import type { Role } from "../model/index.js";

/** One part of an AI SDK message's content; only what is read here is named. */
export interface ContentPart {
  readonly type: string;
  readonly text?: string;
  readonly toolName?: string;
  readonly output?: unknown;
}

/** A message as the AI SDK gives it (`ModelMessage`): content as text or as parts, of which text is kept. */
export interface PartsMessage {
  readonly role: Role;
  readonly content: string | readonly ContentPart[];
  readonly providerOptions?: unknown;
}

/** A LangChain message (`BaseMessage`): its type gives the role, its text the content. */
export interface LangChainMessageLike {
  getType(): string;
  readonly text?: string;
  readonly content?: unknown;
  readonly name?: string | undefined;
}

const LANGCHAIN_ROLES: Record<string, Role> = {
  human: "user",
  ai: "assistant",
  system: "system",
  tool: "tool",
};

function show(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

/** A tool result's output as text (AI SDK `ToolResultOutput`: text, json, errors, content parts). */
function outputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return show(output ?? "");
  const { type, value } = output as { type?: string; value?: unknown };
  if (type === "content" && Array.isArray(value)) return partsText(value as ContentPart[]);
  return value === undefined ? show(output) : show(value);
}

/**
 * The text of a message's parts: text parts joined as the AI SDK joins them, a line per tool call
 * (`[calls NAME]`) and per tool result; images, files and reasoning are not memory text.
 */
export function partsText(parts: readonly unknown[]): string {
  const lines: string[] = [];
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") {
      text += part;
      continue;
    }
    if (typeof part !== "object" || part === null) continue;
    const p = part as ContentPart;
    if (p.type === "text" && typeof p.text === "string") text += p.text;
    else if (p.type === "tool-call" && p.toolName) lines.push(`[calls ${p.toolName}]`);
    else if (p.type === "tool-result") lines.push(outputText(p.output));
  }
  return [text, ...lines].filter((line) => line.trim() !== "").join("\n");
}

/**
 * A message given to `add` as an AI SDK `ModelMessage` or a LangChain `BaseMessage`, read as Engram's
 * `{ role, content, name }`; anything else is passed on unchanged for the schema to check.
 */
export function fromFrameworkMessage(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const v = value as Record<string, unknown>;
  if (typeof v.getType === "function") {
    const type = String((v.getType as () => unknown).call(value));
    const content =
      typeof v.text === "string" ? v.text : Array.isArray(v.content) ? partsText(v.content) : v.content;
    const name = typeof v.name === "string" && v.name.trim() !== "" ? { name: v.name } : {};
    return { role: LANGCHAIN_ROLES[type] ?? type, content, ...name };
  }
  if (Array.isArray(v.content)) {
    const { providerOptions: _options, ...rest } = v;
    return { ...rest, content: partsText(v.content) };
  }
  return value;
}
