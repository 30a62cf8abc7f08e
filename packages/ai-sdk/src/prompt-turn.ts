import type { LanguageModelV4Message, LanguageModelV4Prompt } from "@ai-sdk/provider";

type Part = Exclude<LanguageModelV4Message, { role: "system" }>["content"][number];

const textOf = (parts: readonly Part[]): string =>
  parts
    .flatMap((p) => (p.type === "text" ? [p.text] : []))
    .join("")
    .trim();

function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]?.role === "user") return i;
  return -1;
}

/** The text of the latest user message: what memory is recalled for and what is remembered. */
export function lastUserText(prompt: LanguageModelV4Prompt): string {
  const message = prompt[lastUserIndex(prompt)];
  return message?.role === "user" ? textOf(message.content) : "";
}

/** The texts of the prompt's user and assistant messages: the conversation the model receives. */
export function promptTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.flatMap((m) =>
    m.role === "user" || m.role === "assistant" ? [textOf(m.content as readonly Part[])].filter(Boolean) : [],
  );
}

/** True when the prompt continues a turn (a tool result or assistant message after the user's message). */
export function continuesTurn(prompt: LanguageModelV4Prompt): boolean {
  const last = prompt.at(-1);
  return last !== undefined && last.role !== "user" && lastUserIndex(prompt) !== -1;
}

/** Puts the memory block after the leading system messages, so the caller's own prompt stays first and unchanged. */
export function injectMemory(prompt: LanguageModelV4Prompt, memory: string): LanguageModelV4Prompt {
  const at = prompt.findIndex((m) => m.role !== "system");
  const i = at === -1 ? prompt.length : at;
  return [...prompt.slice(0, i), { role: "system", content: memory }, ...prompt.slice(i)];
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function show(value: unknown): string {
  if (typeof value === "string") return value;
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
}

function outputText(output: Extract<Part, { type: "tool-result" }>["output"]): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return show(output.value);
    case "execution-denied":
      return `denied${output.reason ? `: ${output.reason}` : ""}`;
    case "content":
      return output.value.flatMap((v) => (v.type === "text" ? [v.text] : [])).join(" ");
    default:
      return "";
  }
}

/**
 * What the assistant did earlier in this turn (the steps before the final one), in order: its text, and
 * with `tools` one clipped line per tool call with its result.
 */
export function answerSoFar(prompt: LanguageModelV4Prompt, tools: boolean, maxChars: number): string[] {
  const calls = new Map<string, string>();
  const lines: string[] = [];
  for (const message of prompt.slice(lastUserIndex(prompt) + 1)) {
    if (message.role === "system") continue;
    if (message.role === "assistant") {
      const text = textOf(message.content);
      if (text) lines.push(text);
    }
    for (const part of message.content) {
      if (part.type === "tool-call") calls.set(part.toolCallId, `${part.toolName}(${show(part.input)})`);
      if (part.type === "tool-result" && tools) {
        const call = calls.get(part.toolCallId) ?? `${part.toolName}()`;
        lines.push(clip(`[tool ${call} -> ${outputText(part.output)}]`, maxChars));
      }
    }
  }
  return lines;
}
