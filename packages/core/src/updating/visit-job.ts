import { z } from "zod";
import type { EngineContext } from "../runtime/index.js";
import { defineJob } from "../runtime/index.js";
import { recordVisits } from "./record-visits.js";
import { tiersJob } from "./tiers-job.js";

/**
 * The job that counts the visits `retrieve` made to segments. Visits only count; promotion runs in the
 * (deduplicated) tiers job it queues, so a retry never counts twice.
 */
export const visitJob = defineJob({
  type: "visit",
  payload: z.object({ segmentIds: z.array(z.string()).default([]) }),
  run: (ctx: EngineContext, job, { segmentIds }) =>
    recordVisits(
      ctx,
      { userId: job.userId },
      segmentIds,
      tiersJob.create(ctx, {}, ctx.clock().toISOString()),
    ),
});
