import { type Engram, userCube } from "@engram/core";
import { messageId, repeatCounts } from "@engram/core/integration";
import { PartlyStoredError } from "./cli-error.js";
import { InterruptedError } from "./interrupt.js";
import type { JsonlLine } from "./read-jsonl.js";

/** A file's ingest, with the user's work left undone (PendingWork). */
export interface IngestJsonlResult extends PendingWork {
  readonly userId: string;
  /** Messages in the file. */
  readonly memories: number;
  /** Messages stored by this run; the others were stored already (the file, or part of it, ingested before). */
  readonly added: number;
}

/** The user's jobs not done once this run has processed what it could. */
export interface PendingWork {
  /**
   * Queued jobs (an embedding or tier job waiting to retry after a model failure) and running ones:
   * those a run holds under a lease, which a run that was killed keeps until the lease ends (60 s), so
   * no other run takes them over before then.
   */
  readonly pending: number;
  /** The end of the last lease of a running job, when any is running. */
  readonly heldUntil?: string;
}

export async function pendingWork(engram: Engram, userId: string): Promise<PendingWork> {
  const [queued, running] = await Promise.all([
    engram.jobs({ userId, status: "queued" }),
    engram.jobs({ userId, status: "running" }),
  ]);
  const heldUntil = running
    .map((job) => job.leaseUntil)
    .filter((until): until is string => until !== null)
    .sort()
    .at(-1);
  return { pending: queued.length + running.length, ...(heldUntil ? { heldUntil } : {}) };
}

/**
 * The id of a line without a time or id of its own: its content identity with no time, numbered among
 * identical lines of the file, so ingesting the same file again recognises it. (A live `add` gives such
 * a turn a new id instead: there "ok" said again later is a new turn.)
 */
function timelessIds(userId: string, lines: readonly JsonlLine[]): (string | undefined)[] {
  const repeats = repeatCounts(lines, (l) =>
    JSON.stringify([l.session ?? null, l.role, l.content, l.at ?? null]),
  );
  return lines.map((l, i) =>
    l.id !== undefined || l.at !== undefined
      ? l.id
      : messageId({
          userId,
          cube: userCube(userId),
          sessionId: l.session ?? null,
          role: l.role,
          at: null,
          text: l.content,
          repeat: repeats[i] as number,
        }),
  );
}

/** Lines stored per add(): one transaction each, a fraction of a second without embedding. */
export const INGEST_STEP = 1000;

/**
 * Stores the file's lines in order, INGEST_STEP lines per add() (one transaction each), so a file of any
 * size is stored in bounded steps and an interrupt stops between them. A file of up to INGEST_STEP lines
 * is stored in one transaction or not at all. When a later step fails or is interrupted, the steps
 * before it stay stored, each whole; running the same file again stores only what is missing, since
 * lines already stored are recognised and left alone. Tier work is the caller's (it runs after).
 */
export async function ingestJsonl(
  engram: Engram,
  userId: string,
  lines: readonly JsonlLine[],
  onProgress: (done: number, total: number) => void,
  tiers: TierWorkOptions = {},
): Promise<IngestJsonlResult> {
  const ids = timelessIds(userId, lines);
  let added = 0;
  for (let start = 0; start < lines.length; start += INGEST_STEP) {
    const step = lines.slice(start, start + INGEST_STEP);
    try {
      const result = await engram.add({
        userId,
        messages: step.map(({ role, content, name, at, metadata, session }, i) => ({
          role,
          content,
          ...(name ? { name } : {}),
          ...(at ? { at } : {}),
          ...(metadata ? { metadata } : {}),
          ...(session ? { sessionId: session } : {}),
          ...(ids[start + i] ? { id: ids[start + i] } : {}),
        })),
      });
      added += result.added;
    } catch (error) {
      if (start === 0) throw error;
      const stored = `the first ${start.toLocaleString("en")} of ${lines.length.toLocaleString("en")} lines were stored, each whole; run the same command again to store the rest`;
      if (error instanceof InterruptedError) throw new InterruptedError(error.signal, stored);
      throw new PartlyStoredError(error, stored);
    }
    onProgress(start + step.length, lines.length);
  }
  await runTierWork(engram, tiers);
  // Work left after processing: jobs waiting for a retry, and jobs a stopped run still holds.
  return { userId, memories: lines.length, added, ...(await pendingWork(engram, userId)) };
}

export interface TierWorkOptions {
  /** Stops tier work after its current step (each step is one atomic write; the rest runs next time). */
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/**
 * Runs the queued tier work, in bounded steps. Interrupted, it says what holds: the turns are stored,
 * and the tier work resumes from its last finished step the next time jobs run on this store.
 */
export async function runTierWork(engram: Engram, options: TierWorkOptions): Promise<void> {
  try {
    await engram.flush({
      signal: options.signal,
      onProgress: (p) => options.onProgress?.(p.done, p.total),
    });
  } catch (error) {
    if (error instanceof InterruptedError) {
      throw new InterruptedError(
        error.signal,
        "the turns are stored; tier work stopped after its last finished step and resumes the next time the store is opened for writing",
      );
    }
    throw error;
  }
}
