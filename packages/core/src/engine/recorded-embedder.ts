import { z } from "zod";
import type { Embedder } from "../ai/index.js";
import { EmbedderMismatchError, StorageError } from "../errors/index.js";
import type { StoragePort } from "../storage/index.js";

/** The store setting naming the embedder that made its vectors. */
export const EMBEDDER_SETTING = "embedder";
/** The store setting of a move to another embedder under way (`reembed`), so an interrupted move resumes. */
export const MOVE_SETTING = "embedder.move";

const recordSchema = z.object({ id: z.string().min(1), dimensions: z.number().int().positive().nullable() });
const moveSchema = z.object({
  from: recordSchema.nullable(),
  to: z.string().min(1),
  done: z.array(z.string()),
});

/** Which embedder made a store's vectors, and their size once one was made. */
export type EmbedderRecord = z.infer<typeof recordSchema>;
/** A move of a store's vectors to another embedder: the users already moved. */
export type EmbedderMove = z.infer<typeof moveSchema>;

function parseSetting<T>(schema: z.ZodType<T>, name: string, text: string | null): T | null {
  if (text === null) return null;
  try {
    return schema.parse(JSON.parse(text));
  } catch (cause) {
    throw new StorageError(`the store's ${name} setting is unreadable: ${JSON.stringify(text)}`, { cause });
  }
}

export async function readEmbedderRecord(storage: StoragePort): Promise<EmbedderRecord | null> {
  return parseSetting(recordSchema, EMBEDDER_SETTING, await storage.readSetting(EMBEDDER_SETTING));
}

export async function readMove(storage: StoragePort): Promise<EmbedderMove | null> {
  return parseSetting(moveSchema, MOVE_SETTING, await storage.readSetting(MOVE_SETTING));
}

/** `openai/text-embedding-3-small (1536 dimensions)`. */
export function describeEmbedder(record: EmbedderRecord): string {
  return record.dimensions === null ? record.id : `${record.id} (${record.dimensions} dimensions)`;
}

function mismatch(stored: EmbedderRecord, configured: EmbedderRecord): EmbedderMismatchError {
  return new EmbedderMismatchError(
    `the store's vectors were made by ${describeEmbedder(stored)}, but this engine embeds with ` +
      `${describeEmbedder(configured)}; mixing the two would make search miss. Open it with ` +
      `${describeEmbedder(stored)}, or move it to the new embedder with reembed (\`engram reembed\`)`,
    { details: { stored: describeEmbedder(stored), configured: describeEmbedder(configured) } },
  );
}

function moving(move: EmbedderMove, configured: string): EmbedderMismatchError {
  const from = move.from ? describeEmbedder(move.from) : "an unrecorded embedder";
  return new EmbedderMismatchError(
    `the store is being moved from ${from} to ${move.to} and the move was not finished; run reembed ` +
      `(\`engram reembed\`) with ${move.to} again to finish it before using the store`,
    { details: { stored: from, configured, moving: move.to } },
  );
}

/**
 * The engine's embedder bound to its store. The first call reads which embedder made the store's vectors
 * and refuses another one (or one whose vectors have another size) with an EmbedderMismatchError, before
 * any vector is made, stored or searched with. A store with no vectors yet, or none recorded (made before
 * stores recorded it), takes this embedder as its own.
 */
export function recordedEmbedder(storage: StoragePort, inner: Embedder): Embedder {
  let checked: Promise<EmbedderRecord | null> | null = null;
  let sized = false;
  const isEmpty = async () => (await storage.users()).length === 0;
  const record = async (value: EmbedderRecord): Promise<EmbedderRecord | null> => {
    if (storage.readOnly) return null;
    await storage.writeSetting(EMBEDDER_SETTING, JSON.stringify(value));
    return value;
  };
  const check = async (): Promise<EmbedderRecord | null> => {
    const move = await readMove(storage);
    if (move) throw moving(move, inner.id);
    const stored = await readEmbedderRecord(storage);
    if (stored?.id === inner.id) return stored;
    if (stored && !(await isEmpty())) throw mismatch(stored, { id: inner.id, dimensions: null });
    return record({ id: inner.id, dimensions: null });
  };
  return {
    id: inner.id,
    async embed(texts) {
      // A failed check (storage busy, a mismatch fixed meanwhile) is tried again by the next call.
      checked ??= check().catch((error: unknown) => {
        checked = null;
        throw error;
      });
      const stored = await checked;
      const vectors = await inner.embed(texts);
      const size = vectors[0]?.length;
      if (!sized && size !== undefined && stored) {
        if (stored.dimensions !== null && stored.dimensions !== size && !(await isEmpty())) {
          throw mismatch(stored, { id: inner.id, dimensions: size });
        }
        if (stored.dimensions !== size) {
          const sizedRecord = await record({ id: inner.id, dimensions: size });
          checked = Promise.resolve(sizedRecord);
        }
        sized = true;
      }
      return vectors;
    },
  };
}
