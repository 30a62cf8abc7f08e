import { z } from "zod";
import { InputError } from "./cli-error.js";
import { checkLine, type JsonlLine } from "./read-jsonl.js";

/** The chat services whose data exports `engram ingest --format` reads. */
export const CHAT_EXPORT_FORMATS = ["chatgpt", "claude"] as const;
export type ChatExportFormat = (typeof CHAT_EXPORT_FORMATS)[number];

// What is read of ChatGPT's conversations.json: each conversation is a tree of message nodes (an edited
// message starts a branch); `current_node` is the leaf of the thread the user last saw.
const chatgptNode = z.object({
  parent: z.string().nullable().optional(),
  message: z
    .object({
      id: z.string().optional(),
      author: z.object({ role: z.string(), name: z.string().nullable().optional() }),
      create_time: z.number().nullable().optional(),
      content: z
        .object({ content_type: z.string().optional(), parts: z.array(z.unknown()).optional() })
        .optional(),
      metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .nullable()
    .optional(),
});
const chatgptConversation = z.object({
  id: z.string().optional(),
  conversation_id: z.string().optional(),
  title: z.string().nullable().optional(),
  create_time: z.number().nullable().optional(),
  current_node: z.string().nullable().optional(),
  mapping: z.record(z.string(), chatgptNode),
});

// What is read of Claude's conversations.json: each conversation a flat list of messages.
const claudeConversation = z.object({
  uuid: z.string(),
  name: z.string().nullable().optional(),
  created_at: z.string().optional(),
  chat_messages: z.array(
    z.object({
      uuid: z.string().optional(),
      sender: z.string(),
      text: z.string().nullable().optional(),
      content: z.array(z.object({ type: z.string(), text: z.string().nullable().optional() })).optional(),
      created_at: z.string().optional(),
    }),
  ),
});

/** One turn read from an export, before it is checked as a message. */
interface Turn {
  readonly role: "user" | "assistant";
  readonly content: string;
  readonly at: string | undefined;
  readonly session: string;
  readonly title: string | null;
}

/** An ISO time as add() takes it (Claude writes microseconds), or undefined when there is none. */
const isoFrom = (text: string | undefined) => {
  const t = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
};

const isoFromSeconds = (s: number | null | undefined) =>
  typeof s === "number" && Number.isFinite(s) ? new Date(s * 1000).toISOString() : undefined;

/** The visible thread of a ChatGPT conversation, root first: from `current_node` up through the parents. */
function chatgptThread(c: z.output<typeof chatgptConversation>): z.output<typeof chatgptNode>[] {
  const leaf = c.current_node ?? Object.keys(c.mapping).at(-1);
  const thread: z.output<typeof chatgptNode>[] = [];
  const seen = new Set<string>();
  for (let id = leaf; id && !seen.has(id); id = c.mapping[id]?.parent ?? undefined) {
    seen.add(id);
    const node = c.mapping[id];
    if (node) thread.push(node);
  }
  return thread.reverse();
}

function chatgptTurns(c: z.output<typeof chatgptConversation>, index: number): Turn[] {
  const session = c.conversation_id ?? c.id ?? `chatgpt-${index + 1}`;
  return chatgptThread(c).flatMap((node) => {
    const m = node.message;
    const role = m?.author.role;
    // System prompts, tool calls and their results, and what the app hid are no part of the dialogue.
    if (!m || (role !== "user" && role !== "assistant")) return [];
    if (m.metadata?.is_visually_hidden_from_conversation === true) return [];
    const parts = (m.content?.parts ?? []).filter((p): p is string => typeof p === "string");
    const content = parts.join("\n").trim();
    if (!content) return [];
    return [
      {
        role,
        content,
        at: isoFromSeconds(m.create_time) ?? isoFromSeconds(c.create_time),
        session,
        title: c.title ?? null,
      },
    ];
  });
}

function claudeTurns(c: z.output<typeof claudeConversation>): Turn[] {
  return c.chat_messages.flatMap((m) => {
    const role = m.sender === "human" ? "user" : m.sender === "assistant" ? "assistant" : null;
    if (!role) return [];
    const fromParts = (m.content ?? [])
      .filter((p) => p.type === "text" && p.text)
      .map((p) => p.text as string)
      .join("\n");
    const content = (fromParts || m.text || "").trim();
    if (!content) return [];
    const at = isoFrom(m.created_at) ?? isoFrom(c.created_at);
    return [{ role, content, at, session: c.uuid, title: c.name ?? null }];
  });
}

/**
 * The dialogue of a ChatGPT or Claude data export (`conversations.json`) as messages: each conversation
 * one session named by its id, each turn with its time; system prompts, tool traffic, hidden messages,
 * empty turns and the branches an edit left behind are left out. Every turn is checked as `add` checks a
 * message before anything is stored.
 * @throws InputError naming the conversation and what is wrong when the file is not such an export.
 */
export function parseChatExport(json: unknown, format: ChatExportFormat, path: string): JsonlLine[] {
  if (!Array.isArray(json)) {
    throw new InputError(`${path} is not a ${format} export: expected the array of conversations.json`);
  }
  const turns: Turn[] = [];
  json.forEach((raw, i) => {
    const schema = format === "chatgpt" ? chatgptConversation : claudeConversation;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      throw new InputError(
        `${path}: conversation ${i + 1} is not a ${format} conversation: ${field}${issue?.message ?? "invalid"}`,
      );
    }
    turns.push(
      ...(format === "chatgpt"
        ? chatgptTurns(parsed.data as z.output<typeof chatgptConversation>, i)
        : claudeTurns(parsed.data as z.output<typeof claudeConversation>)),
    );
  });
  return turns.map((t, i) =>
    checkLine(
      {
        role: t.role,
        content: t.content,
        ...(t.at ? { at: t.at } : {}),
        session: t.session,
        metadata: { source: format, ...(t.title ? { conversation: t.title } : {}) },
      },
      `${path}: turn ${i + 1} (conversation ${t.session})`,
      i + 1,
    ),
  );
}
