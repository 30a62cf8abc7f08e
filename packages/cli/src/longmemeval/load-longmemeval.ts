import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { ValidationError } from "@engram/core";
import { z } from "zod";

/** The six question types of LongMemEval (abstention questions carry an `_abs` suffix on their id). */
export const LONGMEMEVAL_TYPES = [
  "single-session-user",
  "single-session-assistant",
  "single-session-preference",
  "multi-session",
  "temporal-reasoning",
  "knowledge-update",
] as const;
export type LongMemEvalType = (typeof LONGMEMEVAL_TYPES)[number];

const turnSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  has_answer: z.boolean().optional(),
});

// "2023/05/30 (Tue) 23:40", as the dataset writes its dates.
const DATE = /^(\d{4})\/(\d{2})\/(\d{2}) \(\w{3}\) (\d{2}):(\d{2})$/;

const itemSchema = z.object({
  question_id: z.union([z.string(), z.number()]).transform(String),
  question_type: z.enum(LONGMEMEVAL_TYPES),
  question: z.string().min(1),
  answer: z.union([z.string(), z.number()]).transform(String),
  question_date: z.string().regex(DATE, "expected a date like 2023/05/30 (Tue) 23:40"),
  haystack_dates: z.array(z.string().regex(DATE, "expected a date like 2023/05/30 (Tue) 23:40")),
  haystack_session_ids: z.array(z.union([z.string(), z.number()]).transform(String)),
  haystack_sessions: z.array(z.array(turnSchema)),
  answer_session_ids: z.array(z.union([z.string(), z.number()]).transform(String)),
});

export type LongMemEvalItem = z.infer<typeof itemSchema>;
export type LongMemEvalTurn = z.infer<typeof turnSchema>;

/** An ISO time from the dataset's "2023/05/30 (Tue) 23:40" (a wall-clock time, read as UTC). */
export function isoDate(date: string): string {
  const m = DATE.exec(date);
  if (!m) throw new ValidationError(`not a LongMemEval date: ${JSON.stringify(date)}`);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00.000Z`;
}

/** Checks a parsed file: an array of items, each session with its date and id. */
export function parseLongMemEval(data: unknown): LongMemEvalItem[] {
  if (!Array.isArray(data)) throw new ValidationError("a LongMemEval file is a JSON array of questions");
  return data.map((raw, i) => {
    const parsed = itemSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ValidationError(
        `question ${i}: ${issue?.path.join(".") || "item"}: ${issue?.message ?? "invalid"}`,
      );
    }
    const item = parsed.data;
    const n = item.haystack_sessions.length;
    if (item.haystack_dates.length !== n || item.haystack_session_ids.length !== n) {
      throw new ValidationError(
        `question ${item.question_id}: ${n} sessions but ${item.haystack_dates.length} dates and ${item.haystack_session_ids.length} ids`,
      );
    }
    return item;
  });
}

/** Reads a LongMemEval file, `.json` or gzip-compressed `.json.gz` (by its magic bytes, not its name). */
export async function readLongMemEval(path: string): Promise<LongMemEvalItem[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new ValidationError(`cannot read ${path}: ${(cause as Error).message}`, { cause });
  }
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
  } catch (cause) {
    throw new ValidationError(`${path} is not a readable gzip file: ${(cause as Error).message}`, { cause });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ValidationError(`${path} is not valid JSON`);
  }
  return parseLongMemEval(data);
}
