// The demo's view of the tiers: snapshots of short-term pages, mid-term segments and long-term facts, the
// changes between two snapshots, and the segment table.
import type { Engram, MemoryRecord, Policy } from "@engram/core";
import { segmentHeat } from "@engram/core/integration";
import { formatTable } from "./cli-output.js";
import { clip, findMemory, quote, shortId } from "./demo-format.js";

export interface TierSnapshot {
  readonly shortPages: number;
  readonly segments: readonly MemoryRecord[];
  readonly facts: readonly MemoryRecord[];
}

const ALL = 100_000;

/** Pages as the engine groups them: a user turn opens a page, the assistant's answers in its session join it. */
function countPages(messages: readonly MemoryRecord[]): number {
  let pages = 0;
  let session: string | null | undefined;
  for (const m of messages) {
    if (m.role === "user" || m.sessionId !== session) pages++;
    session = m.sessionId;
  }
  return pages;
}

export async function snapshot(engram: Engram, userId: string): Promise<TierSnapshot> {
  const list = (input: Parameters<Engram["memories"]["list"]>[0]) =>
    engram.memories.list({ limit: ALL, order: "asc", ...input });
  const short = await list({ userId, kinds: ["message"], tiers: ["short"] });
  const segments = await list({ userId, kinds: ["segment"], includeExpired: false });
  const facts = await list({ userId, kinds: ["fact"] });
  return { shortPages: countPages(short), segments, facts };
}

export function heatOf(segment: MemoryRecord, now: Date, policy: Policy): number {
  const m = segment.metadata;
  const counters = {
    visits: Number(m.visits ?? 0),
    pages: Number(m.pages ?? 0),
    lastVisitAt: String(m.lastVisitAt ?? segment.createdAt),
  };
  return segmentHeat(counters, now, policy);
}

const promotionsOf = (s: MemoryRecord) => Number(s.metadata.promotions ?? 0);
export const totalPromotions = (snap: TierSnapshot) =>
  snap.segments.reduce((sum, s) => sum + promotionsOf(s), 0);

/** One line: what each tier holds now. */
export function tierLine(snap: TierSnapshot, now: Date, policy: Policy): string {
  const midPages = snap.segments.reduce((sum, s) => sum + Number(s.metadata.size ?? 0), 0);
  const hottest = Math.max(0, ...snap.segments.map((s) => heatOf(s, now, policy)));
  const current = snap.facts.filter((f) => f.expiredAt === null).length;
  const expired = snap.facts.length - current;
  return (
    `short ${snap.shortPages} pages | mid ${snap.segments.length} segments, ${midPages} pages, ` +
    `hottest ${hottest.toFixed(2)} | promotions ${totalPromotions(snap)} | ` +
    `facts ${current}${expired ? ` (+${expired} expired)` : ""}`
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The source of facts the prompt path applied, as the turns were processed. */
const PROMPT_PATH = "prompt";

/**
 * Where a new fact came from: the prompt path when its evidence turn was screened for explicit facts,
 * else the promotion of the segment that turn is in.
 */
async function factSource(engram: Engram, userId: string, fact: MemoryRecord): Promise<string | null> {
  const [evidence] = (fact.metadata.evidence as string[] | undefined) ?? [];
  const message = evidence ? await findMemory(engram, userId, evidence) : undefined;
  if (message?.metadata.screened === true && fact.role === "user") return PROMPT_PATH;
  return typeof message?.metadata.segment === "string" ? message.metadata.segment : null;
}

/**
 * What happened between two snapshots: facts stated in the new turns, segments promoted with the facts
 * they gave, facts that expired.
 */
export async function changeLines(
  engram: Engram,
  userId: string,
  before: TierSnapshot,
  after: TierSnapshot,
): Promise<string[]> {
  const known = new Map(before.facts.map((f) => [f.id, f]));
  const created = after.facts.filter((f) => !known.has(f.id) && f.expiredAt === null);
  const sources = await Promise.all(created.map((f) => factSource(engram, userId, f)));
  const shown = new Set<string>();
  const factLines = (source: string | null) =>
    created
      .filter((f, i) => sources[i] === source && !shown.has(f.id) && shown.add(f.id))
      .map((f) => `  + ${f.text}  [${f.metadata.slot}]`);
  const lines: string[] = [];
  const stated = factLines(PROMPT_PATH);
  if (stated.length)
    lines.push("stated in these turns (prompt path: offline rules, no promotion needed)", ...stated);
  const earlier = new Map(before.segments.map((s) => [s.id, promotionsOf(s)]));
  for (const s of after.segments) {
    if (promotionsOf(s) <= (earlier.get(s.id) ?? 0)) continue;
    const size = plural(Number(s.metadata.size ?? 0), "page");
    lines.push(`promoted segment ${shortId(s.id)} (${size}) ${quote(s.text, 60)}`, ...factLines(s.id));
  }
  lines.push(...created.filter((f) => !shown.has(f.id)).map((f) => `  + ${f.text}  [${f.metadata.slot}]`));
  for (const f of after.facts) {
    if (f.expiredAt === null || known.get(f.id)?.expiredAt) continue;
    lines.push(await expiryNote(engram, userId, f, after.facts));
  }
  return lines;
}

/** "superseded: old, by new" when a later fact replaced it; "retracted: old" when a turn withdrew it. */
export async function expiryNote(
  engram: Engram,
  userId: string,
  fact: MemoryRecord,
  facts: readonly MemoryRecord[],
): Promise<string> {
  const edges = await engram.memories.edges({ userId, id: fact.id });
  const edge = edges.find((e) => e.to === fact.id && e.type === "supersedes");
  const successor = edge ? facts.find((f) => f.id === edge.from) : undefined;
  return successor
    ? `superseded: ${quote(fact.text)} by ${quote(successor.text)}`
    : `retracted: ${quote(fact.text)} (a later turn withdrew it; no successor)`;
}

/** Every current segment, hottest first: size, heat and its parts, promotions, keywords, summary. */
export function segmentTable(segments: readonly MemoryRecord[], now: Date, policy: Policy): string {
  const rows = [...segments]
    .map((s) => ({ s, heat: heatOf(s, now, policy) }))
    .sort((a, b) => b.heat - a.heat)
    .map(({ s, heat }) => {
      const m = s.metadata;
      const recency = heat - policy.heatA * Number(m.visits ?? 0) - policy.heatB * Number(m.pages ?? 0);
      const keywords = ((m.keywords as string[] | undefined) ?? []).slice(0, 5).join(",");
      return [
        shortId(s.id),
        String(m.size ?? 0),
        `${heat.toFixed(2)} = ${m.visits ?? 0}+${m.pages ?? 0}+${recency.toFixed(2)}`,
        String(m.promotions ?? 0),
        clip(keywords, 30),
        clip(s.text, 40),
      ];
    });
  const headers = ["segment", "pages", "heat = v+p+r", "promoted", "keywords", "summary"];
  return formatTable(headers, rows);
}

/** Segments that retrieval visited between two snapshots: added visits and the heat they reached. */
export function visitLines(before: TierSnapshot, after: TierSnapshot, now: Date, policy: Policy): string[] {
  const visitsOf = (s: MemoryRecord) => Number(s.metadata.totalVisits ?? 0);
  const rows = before.segments.flatMap((old) => {
    const current = after.segments.find((s) => s.id === old.id);
    const added = current ? visitsOf(current) - visitsOf(old) : 0;
    if (added === 0) return [];
    // Recording visits also refreshes the last-visit time, so recency is 1 again.
    const visits = Number(old.metadata.visits ?? 0) + added;
    const metadata = { ...old.metadata, visits, lastVisitAt: now.toISOString() };
    return [{ old, added, heat: heatOf({ ...old, metadata }, now, policy) }];
  });
  return rows
    .sort((a, b) => b.heat - a.heat)
    .map(({ old, added, heat }) => {
      const hot = heat >= policy.heatThreshold ? `  >= ${policy.heatThreshold}, hot` : "";
      const from = heatOf(old, now, policy).toFixed(2);
      return `segment ${shortId(old.id)} +${plural(added, "visit")}: heat ${from} -> ${heat.toFixed(2)}${hot}`;
    });
}
