import { z } from "zod";
import type { EngineContext } from "../runtime/index.js";
import { defineJob } from "../runtime/index.js";
import { runTiers } from "./run-tiers.js";

/**
 * The job that does a user's tier work after new turns (explicit facts, short-term eviction, capacity,
 * promotion); one queued per user at a time collects every new turn.
 */
export const tiersJob = defineJob({
  type: "tiers",
  payload: z.object({}),
  dedupe: true,
  run: (ctx: EngineContext, job, _payload, control) => runTiers(ctx, { userId: job.userId }, control),
});
