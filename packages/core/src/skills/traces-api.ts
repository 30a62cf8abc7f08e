import { createHash } from "node:crypto";
import { z } from "zod";
import { idString, type MemoryStatus, parseInput, versionOf } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { embedJob, embedRecords, readOne } from "../runtime/index.js";
import { assertWritable, type NewJob } from "../storage/index.js";
import { TRACE_OUTCOMES, type TraceInput, traceInputSchema } from "./skill-schemas.js";
import { skillsJob } from "./skills-job.js";
import { inferOutcome, readTrace, type Trace, traceRecord } from "./trace-record.js";

/**
 * A trace's id: with a time given, a hash of everything it holds, so a retried `add` (a write-back queue
 * that tries again after a failure that did commit) finds it stored and stores nothing twice; without one,
 * a new id, since the same run repeated later is another run.
 */
function traceId(input: z.output<typeof traceInputSchema>, newId: () => string): string {
  if (input.at === undefined) return `trace_${newId()}`;
  const { userId, agentId, sessionId, task, steps, answer, outcome, at } = input;
  const identity = ["engram.trace.v1", userId, agentId, sessionId, at, task, steps, answer, outcome];
  return `trace_${createHash("sha256").update(JSON.stringify(identity)).digest("hex").slice(0, 32)}`;
}

export interface TraceAddResult {
  readonly id: string;
  /** `pending` while the distillation (or the embedding) it queued has not run; see `flush()`. */
  readonly status: MemoryStatus;
  readonly trace: Trace;
}

/** Recording and reading what an agent did; every call is scoped by userId. */
export interface TracesApi {
  /** Stores one run of a task with its tool calls and queues the distillation of the user's skills. */
  add(input: TraceInput): Promise<TraceAddResult>;
  get(ref: TraceRef): Promise<Trace>;
  /** The user's traces, newest first. */
  list(input: TraceListInput): Promise<Trace[]>;
  delete(ref: TraceRef): Promise<void>;
}

const traceRefSchema = z.object({ userId: idString, id: idString });
export type TraceRef = z.input<typeof traceRefSchema>;

const traceListSchema = z.object({
  userId: idString,
  outcome: z.enum(TRACE_OUTCOMES).optional(),
  limit: z.number().int().min(1).max(100_000).default(100),
  offset: z.number().int().min(0).default(0),
});
export type TraceListInput = z.input<typeof traceListSchema>;

export function tracesApi(ctx: EngineContext, onQueued: () => void): TracesApi {
  return {
    async add(raw) {
      const input = parseInput(traceInputSchema, raw, "traces.add");
      assertWritable(ctx.storage, "traces.add");
      const scope = { userId: input.userId };
      const now = ctx.clock().toISOString();
      const record = traceRecord(
        {
          id: traceId(input, ctx.ids),
          userId: input.userId,
          agentId: input.agentId ?? null,
          sessionId: input.sessionId ?? null,
          task: input.task,
          steps: input.steps,
          answer: input.answer ?? null,
          outcome: input.outcome ?? inferOutcome(input.steps),
          at: input.at ?? now,
        },
        now,
      );
      // Embedded now: grouping compares task embeddings. A failing embedder queues it instead.
      const { stored, error } = await embedRecords(ctx, [record]);
      const history = [versionOf(record, "create", now)];
      const jobs: NewJob[] = error ? [embedJob.create(ctx, { ids: [record.id] }, now)] : [];
      if (ctx.skills.enabled) jobs.push(skillsJob.create(ctx, {}, now));
      await ctx.storage.write(scope, { insert: stored, history, jobs });
      if (jobs.length) onQueued();
      return { id: record.id, status: jobs.length ? "pending" : "ready", trace: readTrace(record) };
    },
    async get(raw) {
      const ref = parseInput(traceRefSchema, raw, "traces.get");
      return readTrace(await readOne(ctx, { userId: ref.userId }, ref.id, "traces.get", "trace"));
    },
    async list(raw) {
      const input = parseInput(traceListSchema, raw, "traces.list");
      const records = await ctx.storage.scan(
        { userId: input.userId },
        {
          filter: { kinds: ["trace"], ...(input.outcome ? { metadata: { outcome: input.outcome } } : {}) },
          order: "desc",
          limit: input.limit,
          offset: input.offset,
        },
      );
      return records.map(readTrace);
    },
    async delete(raw) {
      const ref = parseInput(traceRefSchema, raw, "traces.delete");
      assertWritable(ctx.storage, "traces.delete");
      const scope = { userId: ref.userId };
      await readOne(ctx, scope, ref.id, "traces.delete", "trace");
      await ctx.storage.write(scope, { deleteIds: [ref.id] });
    },
  };
}
