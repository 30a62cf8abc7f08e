import type { Engram, ExportDump } from "@engram/core";

/**
 * Makes `userId` a user with at least `count` memories by importing copies of `from`'s export (every tier,
 * with history, edges and vectors), each copy's ids, keys and evidence links renamed so none collide.
 */
export async function importBulkUser(engram: Engram, from: string, userId: string, count: number) {
  const dump = await engram.export({ userId: from });
  const copies = Math.ceil(count / dump.memories.length);
  const parts: ExportDump[] = [];
  for (let i = 0; i < copies; i++) {
    const id = (old: string) => `${old}_${i}`;
    parts.push({
      ...dump,
      userId,
      memories: dump.memories.map((m) => ({
        ...m,
        id: id(m.id),
        userId,
        cube: m.cube[0] === "user" && m.cube[1] === from ? ["user", userId] : m.cube,
        key: m.key === null ? null : `${m.key}#${i}`,
        metadata: Array.isArray(m.metadata.evidence)
          ? { ...m.metadata, evidence: (m.metadata.evidence as string[]).map(id) }
          : m.metadata,
      })),
      history: dump.history.map((h) => ({ ...h, memoryId: id(h.memoryId), userId })),
      edges: dump.edges.map((e) => ({ ...e, userId, from: id(e.from), to: id(e.to) })),
      kv: [],
    });
  }
  for (const part of parts) await engram.import(part);
}
