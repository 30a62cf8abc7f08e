import { z } from "zod";
import { defineJob } from "../runtime/index.js";
import { distillSkills } from "./distill-skills.js";
import type { SkillContext } from "./skill-context.js";

/** The job that distils a user's traces into skills; one queued per user at a time collects every new trace. */
export const skillsJob = defineJob({
  type: "skills",
  payload: z.object({}),
  dedupe: true,
  run: async (ctx: SkillContext, job) => {
    await distillSkills(ctx, { userId: job.userId });
  },
});
