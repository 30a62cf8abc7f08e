import { z } from "zod";
import { ModelError } from "../errors/index.js";
import { embeddingText, type MemoryRecord, passageCount } from "../model/index.js";
import { defineJob } from "./define-job.js";
import { embedRecords } from "./embed-records.js";
import type { EngineContext } from "./engine-context.js";
import { untilStored } from "./until-stored.js";

/**
 * The job that embeds memories that were stored without vectors (deferred, or the model failed at write time). The
 * write is conditional on the records being stored as read: another process's tier job may move or mark
 * them meanwhile, and writing the copy read here back would undo that; the job then reads them again, and
 * asks the model only for text it has not embedded yet (a move keeps the text).
 */
export const embedJob = defineJob({
  type: "embed",
  payload: z.object({ ids: z.array(z.string()).default([]) }),
  run: async (ctx: EngineContext, job, { ids }) => {
    const scope = { userId: job.userId };
    // By embedded text (a turn searched by passages: by id), kept across redos.
    const vectors = new Map<string, Float32Array>();
    const { maxChars } = ctx.embedding;
    const key = (r: MemoryRecord) => (passageCount(r) ? `turn:${r.id}` : embeddingText(r, maxChars));
    await untilStored("embed job", async () => {
      // Deleted meanwhile: nothing to do. Idempotent: re-embedding a ready memory rewrites the same vector.
      const records = await ctx.storage.get(scope, ids);
      if (records.length === 0) return true;
      const ready = records.map((r) => ({ ...r, status: "ready" as const }));
      const { stored, error } = await embedRecords(
        ctx,
        ready.filter((r) => !vectors.has(key(r))),
        { report: false },
      );
      if (error) throw new ModelError(`embedding still failing: ${error.message}`, { cause: error });
      for (const { record, vector } of stored) if (vector) vectors.set(key(record), vector);
      const upsert = ready.map((record) => ({ record, vector: vectors.get(key(record)) ?? null }));
      const { conflicts } = await ctx.storage.write(scope, { upsert, expect: records });
      return conflicts.length ? null : true;
    });
  },
});
