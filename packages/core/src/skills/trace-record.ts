import { type MemoryRecord, newRecord } from "../model/index.js";
import type { TraceOutcome, TraceStep } from "./skill-schemas.js";

/** A stored trace: the task, its tool calls in order, the answer and how it ended. */
export interface Trace {
  readonly id: string;
  readonly userId: string;
  readonly agentId: string | null;
  readonly sessionId: string | null;
  readonly task: string;
  readonly steps: TraceStep[];
  readonly answer: string | null;
  readonly outcome: TraceOutcome;
  readonly at: string;
}

/** A tool result is kept to this many characters of JSON: enough for an error or a slot, not a page dump. */
const MAX_RESULT_CHARS = 2000;

function clipped(value: unknown): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  if (json === undefined) return String(value);
  return json.length <= MAX_RESULT_CHARS ? value : `${json.slice(0, MAX_RESULT_CHARS - 1)}…`;
}

/** Failure when the last call of some tool failed (a retried call that then worked does not count). */
export function inferOutcome(steps: readonly TraceStep[]): TraceOutcome {
  const last = new Map<string, TraceStep>();
  for (const step of steps) last.set(step.tool, step);
  return [...last.values()].some((s) => s.error !== undefined) ? "failure" : "success";
}

export function traceRecord(fields: Trace, now: string): MemoryRecord {
  const steps = fields.steps.map((s) => ({
    tool: s.tool,
    args: s.args,
    ...(s.result === undefined ? {} : { result: clipped(s.result) }),
    ...(s.error === undefined ? {} : { error: s.error }),
  }));
  return newRecord(
    {
      id: fields.id,
      userId: fields.userId,
      agentId: fields.agentId,
      sessionId: fields.sessionId,
      kind: "trace",
      tier: "long",
      role: "assistant",
      // The task is what is searched and embedded: traces of one kind of task lie close together.
      text: fields.task,
      metadata: { steps, answer: fields.answer, outcome: fields.outcome },
      validFrom: fields.at,
    },
    now,
  );
}

export function readTrace(record: MemoryRecord): Trace {
  const meta = record.metadata as { steps?: TraceStep[]; answer?: string | null; outcome?: TraceOutcome };
  return {
    id: record.id,
    userId: record.userId,
    agentId: record.agentId,
    sessionId: record.sessionId,
    task: record.text,
    steps: Array.isArray(meta.steps) ? meta.steps : [],
    answer: meta.answer ?? null,
    outcome: meta.outcome ?? "unknown",
    at: record.validFrom ?? record.createdAt,
  };
}
