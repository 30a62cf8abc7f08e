import { type Engram, ValidationError } from "@engram/core";
import { withinTextLimit } from "@engram/core/integration";
import { z } from "zod";

/** One dialogue turn of a LoCoMo conversation. */
export interface LocomoTurn {
  readonly diaId: string;
  readonly speaker: string;
  readonly text: string;
  readonly caption: string | null;
  readonly session: number;
  /** Session time (ISO); turns within a session are one second apart to keep their order. */
  readonly at: string;
}

export interface LocomoQuestion {
  readonly question: string;
  readonly category: number;
  readonly evidence: readonly string[];
}

export interface LocomoConversation {
  readonly sampleId: string;
  readonly speakerA: string;
  readonly speakerB: string;
  readonly turns: readonly LocomoTurn[];
  readonly qa: readonly LocomoQuestion[];
}

const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string().superRefine(withinTextLimit),
  blip_caption: z.string().optional(),
});
const conversationSchema = z.object({
  sample_id: z.string().min(1),
  conversation: z.record(z.string(), z.unknown()),
  qa: z
    .array(
      z.object({
        question: z.string(),
        category: z.number().int(),
        evidence: z.array(z.string()).default([]),
      }),
    )
    .default([]),
});

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Parses LoCoMo's session time, e.g. "1:56 pm on 8 May, 2023", as UTC. */
export function parseLocomoDate(value: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(value.trim());
  const month = m ? MONTHS.indexOf((m[5] as string).toLowerCase()) : -1;
  if (!m || month < 0) throw new ValidationError(`LoCoMo: cannot read session time "${value}"`);
  const hour = (Number(m[1]) % 12) + ((m[3] as string).toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/** True when the JSON looks like a LoCoMo file: an array of `{ sample_id, conversation }`. */
export function isLocomoData(json: unknown): boolean {
  return (
    Array.isArray(json) &&
    json.length > 0 &&
    json.every((c) => typeof c === "object" && c !== null && "sample_id" in c && "conversation" in c)
  );
}

function sessionTurns(raw: Record<string, unknown>, sampleId: string): LocomoTurn[] {
  const turns: LocomoTurn[] = [];
  for (let n = 1; Array.isArray(raw[`session_${n}`]) || `session_${n}_date_time` in raw; n++) {
    const list = raw[`session_${n}`];
    if (!Array.isArray(list) || list.length === 0) continue;
    const start = Date.parse(parseLocomoDate(String(raw[`session_${n}_date_time`])));
    list.forEach((t, i) => {
      const parsed = turnSchema.safeParse(t);
      if (!parsed.success) {
        throw new ValidationError(
          `LoCoMo ${sampleId}: session_${n} turn ${i + 1}: ${parsed.error.issues[0]?.message}`,
        );
      }
      const { speaker, dia_id, text, blip_caption } = parsed.data;
      turns.push({
        diaId: dia_id,
        speaker,
        text,
        caption: blip_caption ?? null,
        session: n,
        at: new Date(start + i * 1000).toISOString(),
      });
    });
  }
  return turns;
}

/** Reads LoCoMo conversations (the file format of `locomo10.json`). */
export function parseLocomo(json: unknown): LocomoConversation[] {
  if (!Array.isArray(json)) throw new ValidationError("LoCoMo: expected a JSON array of conversations");
  return json.map((raw, i) => {
    const parsed = conversationSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ValidationError(`LoCoMo: conversation ${i + 1}: ${issue?.path.join(".")}: ${issue?.message}`);
    }
    const { sample_id, conversation, qa } = parsed.data;
    return {
      sampleId: sample_id,
      speakerA: String(conversation.speaker_a ?? "A"),
      speakerB: String(conversation.speaker_b ?? "B"),
      turns: sessionTurns(conversation, sample_id),
      qa,
    };
  });
}

/** The message text of a turn: what was said, plus the caption of a shared image. */
export function turnContent(turn: LocomoTurn): string {
  return turn.caption ? `${turn.text} [shares ${turn.caption}]` : turn.text;
}

/**
 * Ingests one conversation as one user: each session one `add` call, each turn one message memory
 * (speaker A as `user`, B as `assistant`, names kept), with its `diaId` in metadata.
 */
export async function ingestLocomo(
  engram: Engram,
  conversation: LocomoConversation,
  options: {
    userId?: string;
    onProgress?: (done: number, total: number) => void;
    /** Awaited after each session's add, e.g. `() => engram.flush()` to process tiers as a live agent would. */
    afterSession?: () => Promise<unknown>;
  } = {},
): Promise<{ userId: string; memories: number; added: number }> {
  const userId = options.userId ?? conversation.sampleId;
  const sessions = new Map<number, LocomoTurn[]>();
  for (const t of conversation.turns) sessions.set(t.session, [...(sessions.get(t.session) ?? []), t]);
  let done = 0;
  let added = 0;
  for (const [n, turns] of sessions) {
    const result = await engram.add({
      userId,
      sessionId: `session_${n}`,
      messages: turns.map((t) => ({
        role: t.speaker === conversation.speakerA ? ("user" as const) : ("assistant" as const),
        name: t.speaker,
        content: turnContent(t),
        at: t.at,
        metadata: { diaId: t.diaId },
      })),
    });
    added += result.added;
    await options.afterSession?.();
    done += turns.length;
    options.onProgress?.(done, conversation.turns.length);
  }
  return { userId, memories: done, added };
}
