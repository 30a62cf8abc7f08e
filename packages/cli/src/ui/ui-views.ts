import { type Engram, EngramError, type MemoryRecord } from "@engram/core";
import { groupPages } from "@engram/core/integration";
import { HttpError } from "./http-error.js";

// The shapes the page draws, built from engine reads only. Lists are capped so a user with many
// memories still loads at once; the caps are reported so the page can say what it leaves out.
const SHORT_TERM_LIMIT = 100;
const SEGMENT_LIMIT = 100;
const FACT_LIMIT = 300;
const PROFILE_LIMIT = 100;
const LINKED_LIMIT = 100;
/** A segment's text in the user view; the memory view has all of it. */
const SEGMENT_PREVIEW_CHARS = 280;

/** A memory as lists show it: no vectors, no context, the fields the page needs. */
function brief(m: MemoryRecord) {
  return {
    id: m.id,
    kind: m.kind,
    tier: m.tier,
    role: m.role,
    text: m.text,
    at: m.validFrom,
    validTo: m.validTo,
    expiredAt: m.expiredAt,
    version: m.version,
    /** A correction given with `feedback`, stored as a long-term message. */
    feedback: m.metadata.feedback === true,
  };
}

/** The first `max` characters, cut at a word boundary when one is near, with an ellipsis. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.8 ? cut.slice(0, space) : cut}…`;
}

async function requireUser(engram: Engram, userId: string): Promise<void> {
  if (!(await engram.users()).includes(userId)) {
    throw new HttpError(404, `no user ${JSON.stringify(userId)}: nothing is stored for this user`);
  }
}

async function lastActivity(engram: Engram, userId: string): Promise<string | null> {
  const [newest] = await engram.memories.list({ userId, limit: 1, order: "desc" });
  return newest ? (newest.validFrom ?? newest.updatedAt) : null;
}

export async function usersList(engram: Engram) {
  const users = await Promise.all(
    (await engram.users()).map(async (userId) => {
      const stats = await engram.stats({ userId });
      return {
        userId,
        memories: stats.memories,
        byTier: stats.byTier,
        byKind: stats.byKind,
        jobs: stats.jobs,
        lastActivity: await lastActivity(engram, userId),
      };
    }),
  );
  return { backend: engram.config.backend, readOnly: engram.readOnly, users };
}

function factView(f: MemoryRecord) {
  const m = f.metadata;
  return {
    ...brief(f),
    subject: m.subject === "assistant" || f.role === "assistant" ? "assistant" : "user",
    slot: typeof m.slot === "string" ? m.slot : (f.key ?? null),
    confidence: typeof m.confidence === "number" ? m.confidence : null,
    evidence: Array.isArray(m.evidence) ? m.evidence.filter((e): e is string => typeof e === "string") : [],
  };
}

export async function userOverview(engram: Engram, userId: string) {
  const overview = await overviewOf(engram, userId);
  // A user with rows in these lists is stored; only an empty view needs the list of users (a scan of every
  // table's user ids) to tell a user with other rows only from no user.
  const { shortTerm, segments, facts, profile } = overview;
  if (!shortTerm.length && !segments.length && !facts.length && !profile.length) {
    await requireUser(engram, userId);
  }
  return overview;
}

/** Read once at start-up; these reads write nothing, so a user by this name (unlikely) is left as it is. */
const WARM_UP_USER = "engram-ui-warm-up";
/** How long start-up may spend reading users' views ahead of their first request. */
const WARM_UP_MS = 500;

/**
 * Runs the user view's reads before the server takes requests: once for a user id no one has, so the
 * modules they load, the SQL statements they prepare and the code that shapes the answer are ready, then
 * for the stored users in order while WARM_UP_MS last, so their rows are read and kept by the store's
 * record cache. A page's first request then pays for its answer only. Best effort: a failure here is the
 * first request's to report. Returns the users read.
 */
export async function warmUp(engram: Engram): Promise<string[]> {
  const start = performance.now();
  const warmed: string[] = [];
  try {
    const users = await engram.users();
    await overviewOf(engram, WARM_UP_USER);
    for (const userId of users) {
      if (performance.now() - start > WARM_UP_MS) break;
      await overviewOf(engram, userId);
      warmed.push(userId);
    }
  } catch {
    // The same reads run again on the first request, which reports what went wrong.
  }
  return warmed;
}

async function overviewOf(engram: Engram, userId: string) {
  // No counts here: they scan the user's every row; the page asks for them apart, after drawing this.
  const [short, segments, facts, profile] = await Promise.all([
    engram.memories.list({
      userId,
      kinds: ["message"],
      tiers: ["short"],
      order: "desc",
      limit: SHORT_TERM_LIMIT,
      includeExpired: false,
    }),
    engram.memories.segments({ userId }),
    engram.memories.list({ userId, kinds: ["fact"], order: "asc", limit: FACT_LIMIT, includeExpired: false }),
    engram.profile({ userId }),
  ]);
  return {
    userId,
    limits: {
      segmentText: SEGMENT_PREVIEW_CHARS,
      shortTerm: SHORT_TERM_LIMIT,
      segments: SEGMENT_LIMIT,
      facts: FACT_LIMIT,
      profile: PROFILE_LIMIT,
    },
    // FIFO: oldest first, the order in which pages leave short-term memory.
    shortTerm: groupPages(short.reverse()).map((p) => ({ id: p.id, messages: p.messages.map(brief) })),
    segments: segments.slice(0, SEGMENT_LIMIT).map((s) => ({
      ...brief(s.memory),
      text: clip(s.memory.text, SEGMENT_PREVIEW_CHARS),
      clipped: s.memory.text.length > SEGMENT_PREVIEW_CHARS,
      keywords: s.state.keywords,
      visits: s.state.visits,
      pages: s.state.pages,
      size: s.state.size,
      lastVisitAt: s.state.lastVisitAt,
      heat: s.heat,
      parts: s.parts,
      recency: s.recency,
    })),
    profile: profile.slice(0, PROFILE_LIMIT),
    facts: facts.map(factView),
  };
}

async function linked(engram: Engram, userId: string, ids: readonly string[]) {
  const found = await Promise.all(
    [...new Set(ids)].slice(0, LINKED_LIMIT).map(async (id) => {
      try {
        return brief(await engram.memories.get({ userId, id }));
      } catch (error) {
        // Evidence can outlive its turn (deleted since): show the id, unlinked.
        if (EngramError.isInstance(error) && error.code === "NOT_FOUND") return null;
        throw error;
      }
    }),
  );
  return Object.fromEntries(found.filter((m) => m !== null).map((m) => [m.id, m]));
}

/** One memory with its history, its edges and the memories they link, for the timeline and the graph. */
export async function memoryDetail(engram: Engram, userId: string, id: string) {
  const memory = await engram.memories.get({ userId, id });
  const [history, edges] = await Promise.all([
    engram.memories.history({ userId, id }),
    engram.memories.edges({ userId, id }),
  ]);
  const fact = memory.kind === "fact" ? factView(memory) : null;
  const supersededBy = edges.filter((e) => e.type === "supersedes" && e.to === id).map((e) => e.from);
  // The feedback that changed this fact is the evidence of the fact that replaced it.
  const replacements = await Promise.all(
    supersededBy.map((next) => engram.memories.get({ userId, id: next })),
  );
  const replacementEvidence = replacements.flatMap((r) => factView(r).evidence);
  const ids = [
    ...edges.map((e) => (e.from === id ? e.to : e.from)),
    ...(fact?.evidence ?? []),
    ...replacementEvidence,
  ];
  const linkedMemories = await linked(engram, userId, ids);
  return {
    memory: { ...brief(memory), metadata: memory.metadata, createdAt: memory.createdAt },
    fact,
    history,
    edges,
    // supersedes: new -> old. What this memory replaced, and what replaced it.
    supersedes: edges.filter((e) => e.type === "supersedes" && e.from === id).map((e) => e.to),
    supersededBy,
    changedBy: replacementEvidence.filter((e) => linkedMemories[e]?.feedback),
    linked: linkedMemories,
  };
}

export async function searchView(
  engram: Engram,
  userId: string,
  q: { q: string; k: number; budget: number },
) {
  await requireUser(engram, userId);
  const [results, retrieved] = await Promise.all([
    engram.search({ userId, query: q.q, limit: q.k }),
    // Looking must not change what is looked at: no visits, so no heat.
    engram.retrieve({ userId, query: q.q, budgetTokens: q.budget, recordVisits: false }),
  ]);
  const { context } = retrieved;
  // The rerank stage (heat boost, relative threshold, MMR) runs in retrieve over the candidate turns and
  // yields an order, not a score of its own: a result's place in that order is what rerank made of it.
  const reranked = engram.config.retrieval.rerank
    ? new Map(retrieved.pages.map((p, i) => [p.id, i + 1]))
    : undefined;
  const rerankOf = (id: string) =>
    reranked === undefined ? undefined : { rank: reranked.get(id) ?? null, of: reranked.size };
  return {
    query: q.q,
    rerank: reranked !== undefined,
    results: results.map((r) => ({
      ...brief(r.memory),
      score: r.score,
      channels: { ...r.channels, rerank: rerankOf(r.id) },
    })),
    context: {
      budget: q.budget,
      tokens: context.tokens,
      text: context.text,
      shown: {
        profile: context.profile.length,
        facts: context.facts.length,
        pages: context.pages.length,
        recent: context.recent.length,
      },
      dropped: context.dropped,
      truncated: context.truncated,
      candidates: {
        facts: retrieved.facts.length,
        segments: retrieved.segments.length,
        pages: retrieved.pages.length,
      },
    },
  };
}
