import { type Engram, userCube } from "@engram/core";
import { messageId, repeatCounts } from "@engram/core/integration";
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

/**
 * Adds the whole file in one add() call, so it commits in one transaction or not at all; a failure leaves
 * the store as it was. Tier work runs afterwards, on committed turns, as queued jobs (a failing one stays
 * queued for a retry and is reported as pending). Lines already stored are left alone, so running the same
 * file again adds nothing.
 */
export async function ingestJsonl(
  engram: Engram,
  userId: string,
  lines: readonly JsonlLine[],
  onProgress: (done: number, total: number) => void,
): Promise<IngestJsonlResult> {
  const ids = timelessIds(userId, lines);
  const result = await engram.add({
    userId,
    messages: lines.map(({ role, content, name, at, metadata, session }, i) => ({
      role,
      content,
      ...(name ? { name } : {}),
      ...(at ? { at } : {}),
      ...(metadata ? { metadata } : {}),
      ...(session ? { sessionId: session } : {}),
      ...(ids[i] ? { id: ids[i] } : {}),
    })),
  });
  onProgress(lines.length, lines.length);
  await engram.flush();
  // Work left after processing: jobs waiting for a retry, and jobs a stopped run still holds.
  return { userId, memories: lines.length, added: result.added, ...(await pendingWork(engram, userId)) };
}
