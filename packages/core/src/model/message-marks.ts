import type { MemoryRecord } from "./memory-record.js";

/**
 * The tiers' bookkeeping on a message, kept in its metadata beside the caller's own keys. (A message's
 * other engine keys have their readers too: `times` in storedTimeMentions, `passages` in passageCount,
 * `factKeys` in search-text.ts.)
 */
export interface MessageMarks {
  /** Promotion has read the message: its facts, if any, are in long-term memory. */
  readonly analyzed: boolean;
  /** The prompt path has applied the explicit facts of this user turn. */
  readonly screened: boolean;
}

/** A message's marks; false for any not set. */
export function messageMarks(record: Pick<MemoryRecord, "metadata">): MessageMarks {
  return { analyzed: record.metadata.analyzed === true, screened: record.metadata.screened === true };
}

/** The message with these marks set, the rest of its metadata kept. */
export function withMessageMarks(record: MemoryRecord, marks: Partial<MessageMarks>): MemoryRecord {
  return { ...record, metadata: { ...record.metadata, ...marks } };
}
