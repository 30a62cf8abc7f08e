import type { EdgeType, MemoryEdge } from "../../model/index.js";
import type { EdgeQuery } from "../storage-port.js";
import type { Prepare } from "./sqlite-scan.js";

/**
 * A user's edges, oldest first. Only the given conditions are bound, as equalities or one list of
 * targets, so SQLite can use the src or dst index.
 */
export function readEdges(prepare: Prepare, userId: string, query: EdgeQuery): MemoryEdge[] {
  const targets = typeof query.to === "string" ? [query.to] : query.to;
  const conditions = [
    ...(query.from === undefined ? [] : [["src = ?", query.from]]),
    ...(targets === undefined ? [] : [["dst IN (SELECT value FROM json_each(?))", JSON.stringify(targets)]]),
    ...(query.type === undefined ? [] : [["type = ?", query.type]]),
  ] as [string, string][];
  const where = conditions.map(([condition]) => ` AND ${condition}`).join("");
  const rows = prepare(
    `SELECT user_id, src, dst, type, created_at FROM edges WHERE user_id = ?${where} ORDER BY created_at`,
  ).all(userId, ...conditions.map(([, value]) => value)) as {
    user_id: string;
    src: string;
    dst: string;
    type: EdgeType;
    created_at: string;
  }[];
  return rows.map((r) => ({
    userId: r.user_id,
    from: r.src,
    to: r.dst,
    type: r.type,
    createdAt: r.created_at,
  }));
}
