import type { EdgeType, MemoryEdge } from "../../model/index.js";
import type { EdgeQuery } from "../storage-port.js";
import type { Prepare } from "./prepare.js";
import type { CommittedWrite, Remembered } from "./remembered.js";

/** An edge with its place in the oldest-first order: creation time, then insertion (rowid). */
interface OrderedEdge {
  readonly edge: MemoryEdge;
  readonly createdAt: string;
  readonly seq: number;
}

type EdgeRow = [seq: number, userId: string, src: string, dst: string, type: EdgeType, createdAt: string];

/**
 * A user's edges, oldest first (ties in insertion order). Only the given conditions are bound, as
 * equalities or one list of targets, so SQLite can use the src or dst index.
 */
function selectEdges(prepare: Prepare, userId: string, query: EdgeQuery): OrderedEdge[] {
  const targets = typeof query.to === "string" ? [query.to] : query.to;
  const conditions = [
    ...(query.from === undefined ? [] : [["src = ?", query.from]]),
    ...(targets === undefined ? [] : [["dst IN (SELECT value FROM json_each(?))", JSON.stringify(targets)]]),
    ...(query.type === undefined ? [] : [["type = ?", query.type]]),
  ] as [string, string][];
  const where = conditions.map(([condition]) => ` AND ${condition}`).join("");
  const rows = prepare(
    `SELECT rowid, user_id, src, dst, type, created_at FROM edges WHERE user_id = ?${where}
     ORDER BY created_at, rowid`,
  )
    .raw()
    .all(userId, ...conditions.map(([, value]) => value)) as EdgeRow[];
  return rows.map(([seq, user, from, to, type, createdAt]) => ({
    edge: Object.freeze({ userId: user, from, to, type, createdAt }),
    createdAt,
    seq,
  }));
}

export function readEdges(prepare: Prepare, userId: string, query: EdgeQuery): MemoryEdge[] {
  return selectEdges(prepare, userId, query).map((e) => e.edge);
}

/** Bound on the edges remembered over all users; past it the memory starts over. */
const MAX_REMEMBERED = 65_536;

const oldestFirst = (a: OrderedEdge, b: OrderedEdge): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.seq - b.seq;

/**
 * Edges into a target, remembered per user, target and type: retrieval reads the member pages of the
 * best segments on every call, and a segment's members change only when tier processing writes. A write
 * that adds or deletes a user's edges forgets that user's; another connection's write forgets all.
 * Remembered edges are frozen, as they are handed out again.
 */
export class EdgeMemory implements Remembered {
  private readonly users = new Map<string, Map<string, OrderedEdge[]>>();
  private size = 0;

  constructor(private readonly prepare: Prepare) {}

  read(userId: string, query: EdgeQuery): MemoryEdge[] {
    if (query.from !== undefined || query.to === undefined || query.type === undefined) {
      return readEdges(this.prepare, userId, query);
    }
    const type = query.type;
    const key = (to: string) => `${type}\u0000${to}`;
    const targets = [...new Set(typeof query.to === "string" ? [query.to] : query.to)];
    if (this.size > MAX_REMEMBERED) this.drop();
    const user = this.users.get(userId) ?? new Map<string, OrderedEdge[]>();
    const missing = targets.filter((to) => !user.has(key(to)));
    if (missing.length) {
      const found = selectEdges(this.prepare, userId, { to: missing, type });
      for (const to of missing) user.set(key(to), []);
      for (const e of found) user.get(key(e.edge.to))?.push(e);
      this.size += found.length;
    }
    this.users.set(userId, user);
    const lists = targets.map((to) => user.get(key(to)) ?? []);
    // Each list is oldest first already; several are merged into that order.
    const merged = lists.length === 1 ? (lists[0] as OrderedEdge[]) : lists.flat().sort(oldestFirst);
    return merged.map((e) => e.edge);
  }

  written({ userId, removed, edges }: CommittedWrite): void {
    if (removed.length || edges) this.forget(userId);
  }

  /** The user's edges changed (added, or deleted with a memory). */
  forget(userId: string): void {
    const user = this.users.get(userId);
    if (!user) return;
    for (const list of user.values()) this.size -= list.length;
    this.users.delete(userId);
  }

  drop(): void {
    this.users.clear();
    this.size = 0;
  }
}
