import { ModelError } from "../errors/index.js";
import type { Job } from "../storage/index.js";
import { embedRecords } from "../updating/embed-records.js";
import type { EngineContext } from "../updating/engine-context.js";

/** Embeds memories that were stored without vectors because the model failed at write time. */
export function embedJobHandler(ctx: EngineContext) {
  return async (job: Job): Promise<void> => {
    const scope = { userId: job.userId };
    const ids = (job.payload.ids as string[] | undefined) ?? [];
    // Deleted meanwhile: nothing to do. Idempotent: re-embedding a ready memory rewrites the same vector.
    const records = await ctx.storage.get(scope, ids);
    if (records.length === 0) return;
    const { stored, error } = await embedRecords(
      ctx,
      records.map((r) => ({ ...r, status: "ready" as const })),
    );
    if (error) throw new ModelError(`embedding still failing: ${error.message}`, { cause: error });
    await ctx.storage.write(scope, { upsert: stored });
  };
}
