import type { z } from "zod";
import { ValidationError } from "../errors/index.js";
import type { IdGenerator } from "../model/index.js";
import type { JobControl, JobHandler } from "../scheduler/index.js";
import type { Job, NewJob } from "../storage/index.js";

/** One kind of durable job: its type, the payload it carries, how one is queued and what runs it. */
export interface JobKind<C, P> {
  readonly type: string;
  /** A job of this kind due `at`; with `dedupe`, a user has at most one of them queued at a time. */
  create(ctx: { readonly ids: IdGenerator }, payload: P, at: string): NewJob;
  /** What runs it over `ctx`; the payload is checked first, and a malformed one fails the job, named. */
  handler(ctx: C): JobHandler;
}

/** A job kind whose payload does not matter to the one holding it: a row of the engine's job table. */
export interface JobRunner<C> {
  readonly type: string;
  handler(ctx: C): JobHandler;
}

export interface JobDefinition<C, S extends z.ZodType<Record<string, unknown>>> {
  readonly type: string;
  readonly payload: S;
  /** One queued per user at a time: a new one joins the one still queued (its type is the dedupe key). */
  readonly dedupe?: boolean;
  run(ctx: C, job: Job, payload: z.output<S>, control: JobControl): Promise<void>;
}

/** Defines a kind of job, in the file of the feature it runs. */
export function defineJob<C, S extends z.ZodType<Record<string, unknown>>>(
  definition: JobDefinition<C, S>,
): JobKind<C, z.input<S>> {
  const { type, payload, dedupe, run } = definition;
  return {
    type,
    create: (ctx, value, at) => ({
      id: `job_${ctx.ids()}`,
      type,
      payload: { ...payload.parse(value) },
      ...(dedupe ? { dedupeKey: type } : {}),
      runAt: at,
    }),
    handler: (ctx) => async (job, control) => {
      const parsed = payload.safeParse(job.payload);
      if (!parsed.success)
        throw new ValidationError(
          `the payload of a job of type ${type} is malformed: ${parsed.error.message}`,
        );
      await run(ctx, job, parsed.data, control);
    },
  };
}

/** The handlers of the given job kinds over `ctx`, by type; two kinds of one type are a mistake. */
export function jobHandlers<C>(ctx: C, kinds: readonly JobRunner<C>[]): Record<string, JobHandler> {
  const out: Record<string, JobHandler> = {};
  for (const kind of kinds) {
    if (kind.type in out) throw new TypeError(`two job kinds of type ${kind.type}`);
    out[kind.type] = kind.handler(ctx);
  }
  return out;
}
