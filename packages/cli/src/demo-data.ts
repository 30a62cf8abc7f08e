// The demo's inputs: the shipped sample conversation, grouped by session, and its recall questions.
import { readFileSync } from "node:fs";
import { z } from "zod";

const DATA = new URL("../data/", import.meta.url);

const turnSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().min(1),
  at: z.string(),
  session: z.string().min(1),
});
export type Turn = z.infer<typeof turnSchema>;

export interface Session {
  readonly id: string;
  readonly turns: readonly Turn[];
}

const questionsSchema = z.array(z.object({ question: z.string().min(1), expect: z.string().min(1) }));
export type RecallQuestion = z.infer<typeof questionsSchema>[number];

/** The sample conversation's sessions, in file order. */
export function loadSessions(): Session[] {
  const text = readFileSync(new URL("sample-conversation.jsonl", DATA), "utf8");
  const sessions = new Map<string, Turn[]>();
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    const parsed = turnSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) throw new Error(`sample-conversation.jsonl line ${i + 1}: ${parsed.error.message}`);
    const turns = sessions.get(parsed.data.session) ?? [];
    turns.push(parsed.data);
    sessions.set(parsed.data.session, turns);
  });
  return [...sessions].map(([id, turns]) => ({ id, turns }));
}

export function loadQuestions(): RecallQuestion[] {
  const raw: unknown = JSON.parse(readFileSync(new URL("recall-questions.json", DATA), "utf8"));
  return questionsSchema.parse(raw);
}
