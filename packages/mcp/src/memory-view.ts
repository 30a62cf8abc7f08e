import type { MemoryRecord, SearchResult } from "@engram/core";

/** The fields of a memory an agent needs: enough to cite, edit or delete it, nothing internal. */
export interface MemoryView {
  readonly id: string;
  readonly text: string;
  readonly kind: string;
  readonly tier: string;
  readonly role: string | null;
  readonly at: string | null;
}

export function memoryView(m: MemoryRecord): MemoryView {
  return { id: m.id, text: m.text, kind: m.kind, tier: m.tier, role: m.role, at: m.validFrom };
}

export function resultView(r: SearchResult): MemoryView & { score: number; relevance?: number } {
  return {
    ...memoryView(r.memory),
    text: r.text,
    score: Number(r.score.toFixed(4)),
    // search_memory's results carry it (in [0, 1], comparable across queries); retrieve_memory's do not.
    ...(r.relevance === undefined ? {} : { relevance: Number(r.relevance.toFixed(4)) }),
  };
}
