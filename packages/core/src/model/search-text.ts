import type { MemoryRecord } from "./memory-record.js";

type Searchable = Pick<MemoryRecord, "text" | "name" | "context">;

/** The memory's own line as searched: `name: text` when a speaker name is known. */
export function ownLine(record: Pick<MemoryRecord, "text" | "name">): string {
  return record.name ? `${record.name}: ${record.text}` : record.text;
}

/**
 * The text both search channels index: the neighbouring context (the turn before, for a message) then the
 * memory's own line. Keeping one definition keeps full-text and vector channels on the same unit.
 */
export function searchText(record: Searchable): string {
  return record.context ? `${record.context}\n${ownLine(record)}` : ownLine(record);
}
