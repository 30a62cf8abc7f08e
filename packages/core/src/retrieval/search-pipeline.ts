import type { CacheSet, MemoryRecord } from "../model/index.js";
import { type ChannelQuery, runChannels } from "./channels.js";
import { applyContentPrior } from "./content-prior.js";
import type { FusedHit } from "./fuse-rankings.js";
import { passageFilter, toTurns } from "./passage-results.js";
import { rocchio } from "./query-feedback.js";
import { asResult, inStage, type QueryPorts, type SearchResult } from "./query-ports.js";
import type { RetrievalConfig } from "./retrieval-config.js";
import { applyPreferencePrior, applyRolePrior, askedRole } from "./role-prior.js";
import { applySpeakerPrior, namedSpeakers } from "./speaker-prior.js";
import { storedTimeMentions } from "./time-mentions.js";
import { applyTimePrior, queryTimeRange } from "./time-prior.js";
import { applyUpdatePrior } from "./update-prior.js";

/** Best hits whose vectors the feedback moves the query toward. */
const FEEDBACK_HITS = 3;

/** Candidates the priors re-rank at least. */
const PRIOR_WINDOW = 60;

/**
 * Stage 2, query expansion by pseudo-relevance feedback (Rocchio): the query vector moves toward the best
 * hits' vectors and the vector channel runs again, reaching turns about the same thing that share no words
 * with the query. `weight` 0 leaves the fused list as it is.
 */
export async function expandByFeedback(
  ports: QueryPorts,
  q: ChannelQuery & { readonly vector: Float32Array | null },
  answers: Awaited<ReturnType<typeof runChannels>>,
  weight: number,
): Promise<FusedHit[]> {
  if (!q.vector || weight <= 0 || answers.fused.length === 0) return answers.fused;
  const best = answers.fused.slice(0, FEEDBACK_HITS).map((f) => f.id);
  const vectors = [...(await ports.storage.getVectors(q.scope, best)).values()];
  return vectors.length ? answers.fuse(rocchio(q.vector, vectors, weight)) : answers.fused;
}

/**
 * Stage 2b, time channel: for a query naming a span ("in May 2023", "on October 13, 2023"), the channels
 * run again within it, and its hits that the window lacks join the window's end, in their order. The
 * range prior then lifts them with the window's turns from that span: a turn said then is a candidate even
 * when turns from other times match the words better. Off with the range prior, or when the caller set a
 * time window of their own.
 */
export async function addTimeChannel(
  ports: QueryPorts,
  q: ChannelQuery,
  window: readonly FusedHit[],
): Promise<FusedHit[]> {
  if (ports.retrieval.rangePrior <= 0 || q.filter.from || q.filter.to || window.length === 0)
    return [...window];
  const range = queryTimeRange(q.text, ports.clock(), ports.caches);
  if (!range) return [...window];
  const to = new Date(new Date(`${range.to}T00:00:00Z`).getTime() - 1).toISOString();
  const within = await runChannels(ports, { ...q, filter: { ...q.filter, from: range.from, to } });
  const known = new Set(window.map((f) => f.id));
  const floor = window.at(-1)?.score ?? 0;
  const added = within.fused
    .filter((f) => !known.has(f.id))
    .slice(0, window.length)
    .map((f, i) => ({ ...f, score: floor - (i + 1) * 1e-6 }));
  return [...window, ...added];
}

/**
 * Stage 3, priors on the fused scores, each in the fused score's units and each with its switch: content
 * (acknowledgements sink), question (a turn that asks loses to its answer), speaker (turns by the person
 * the query names), time (a "when" question lifts turns that carry a date; a named span lifts turns in it).
 */
export function applyPriors<T extends { id: string; score: number }>(
  hits: readonly T[],
  query: string,
  records: ReadonlyMap<string, MemoryRecord>,
  config: RetrievalConfig,
  now: Date,
  caches?: CacheSet,
): T[] {
  const record = (hit: T) => records.get(hit.id);
  const content = applyContentPrior(
    hits,
    (hit) => record(hit)?.text,
    config.contentPrior,
    config.questionPrior,
    caches,
  );
  const spoken = applySpeakerPrior(content, query, (hit) => record(hit)?.name, config.speakerPrior);
  const named =
    config.speakerPrior > 0 &&
    namedSpeakers(
      query,
      hits.map((hit) => record(hit)?.name),
    ).size > 0;
  const roled = applyRolePrior(spoken, query, (hit) => record(hit)?.role, config.rolePrior, named);
  const liked = applyPreferencePrior(roled, query, (hit) => record(hit), config.preferencePrior, named);
  const timed = applyTimePrior(
    liked,
    query,
    now,
    (hit) => {
      const memory = record(hit);
      return memory && { at: memory.validFrom, times: storedTimeMentions(memory.metadata) };
    },
    { when: config.whenPrior, range: config.rangePrior },
    caches,
  );
  return applyUpdatePrior(
    timed,
    (hit) => {
      const memory = record(hit);
      // What was said: turns (and their passages), not the facts read from them.
      const said = memory && (memory.kind === "message" || memory.kind === "passage");
      return said ? { role: memory.role, text: memory.text, at: memory.validFrom } : undefined;
    },
    // About the user's own state ("What time do I wake up?"); not when the query names a speaker.
    config.updatePrior && !named && askedRole(query) === "user",
    caches,
  );
}

/** Whether any prior is switched on, so that a window wider than k is worth reading. */
const anyPrior = (c: RetrievalConfig) =>
  c.contentPrior > 0 ||
  c.speakerPrior > 0 ||
  c.questionPrior > 0 ||
  c.rolePrior > 0 ||
  c.preferencePrior > 0 ||
  c.updatePrior ||
  c.whenPrior > 0 ||
  c.rangePrior > 0;

/**
 * The ranked search: channels and fusion, optional feedback expansion, priors over a window a few times
 * wider than k (they can lift a hit from below k), best k first.
 */
export async function rankMemories(
  ports: QueryPorts,
  q: ChannelQuery,
  stages: { feedback?: number } = {},
): Promise<SearchResult[]> {
  // A search of turns searches long turns' passages too, and gives back the turns.
  const { filter, mapped } = await passageFilter(ports, q.scope, q.filter);
  const query = { ...q, filter };
  const answers = await inStage(ports, "channels", async (span) => {
    const found = await runChannels(ports, query);
    span?.setAttribute("engram.query.candidates", found.fused.length);
    return found;
  });
  const resolved = { ...query, vector: await q.vector };
  // Off, the stage leaves no span: the fused list stands as it is.
  const feedback = stages.feedback ?? 0;
  const fused =
    feedback > 0
      ? await inStage(ports, "feedback", () => expandByFeedback(ports, resolved, answers, feedback))
      : answers.fused;
  // Several passages of one turn can fill a window: a wider one leaves room for k turns.
  const wanted = mapped ? q.k * 2 : q.k;
  const window = anyPrior(ports.retrieval) ? Math.max(wanted * 3, PRIOR_WINDOW) : wanted;
  const ranked = await inStage(ports, "time_channel", async (span) => {
    const widened = await addTimeChannel(ports, resolved, fused.slice(0, window));
    span?.setAttribute("engram.query.added", widened.length - Math.min(window, fused.length));
    return widened;
  });
  const records = await inStage(ports, "records", async (span) => {
    const read = await ports.storage.get(
      q.scope,
      ranked.map((f) => f.id),
    );
    span?.setAttribute("engram.query.records", read.length);
    return new Map(read.map((r) => [r.id, r]));
  });
  const ordered = await inStage(ports, "priors", async () =>
    applyPriors(ranked, q.text, records, ports.retrieval, ports.clock(), ports.caches),
  );
  if (!mapped) {
    return ordered
      .flatMap((f) => {
        const memory = records.get(f.id);
        return memory ? [asResult(memory, f.score, f.channels)] : [];
      })
      .slice(0, q.k);
  }
  const turns = await inStage(ports, "turns", () =>
    toTurns(ports, q.scope, ordered, records, q.text, q.filter.tiers),
  );
  return turns
    .slice(0, q.k)
    .map(({ hit, memory, passage }) => asResult(memory, hit.score, hit.channels, passage));
}
