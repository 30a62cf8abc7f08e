import { z } from "zod";
import type { EngineContext } from "../runtime/index.js";
import { defineJob } from "../runtime/index.js";
import { distillSkills } from "./distill-skills.js";

/** The job that distils a user's traces into skills; one queued per user at a time collects every new trace. */
export const skillsJob = defineJob({
  type: "skills",
  payload: z.object({}),
  dedupe: true,
  run: async (ctx: EngineContext, job) => {
    await distillSkills(ctx, { userId: job.userId });
  },
});
