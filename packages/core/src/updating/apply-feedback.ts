import type { MemoryRecord, Scope } from "../model/index.js";
import { newRecord, readFact, versionOf } from "../model/index.js";
import type { Correction, EngineContext, ExtractedFact } from "../runtime/index.js";
import { embedJob, embedRecords, untilStored } from "../runtime/index.js";
import { planFacts } from "./apply-facts.js";

export interface FeedbackResult {
  /** The stored feedback message (kept as evidence). */
  readonly feedbackId: string;
  /** Facts created from the correction. */
  readonly created: string[];
  /** Facts superseded or retracted: expired, kept in history. */
  readonly superseded: string[];
  /** Candidate memories rewritten by the correction (a language model's edits), as new versions. */
  readonly edited: string[];
  /** Raw memories that mention what was corrected (left as said; listed for review). */
  readonly affected: string[];
}

/** The current facts a correction may be about: found by full-text search over the correction's words. */
async function candidateFacts(ctx: EngineContext, scope: Scope, text: string): Promise<MemoryRecord[]> {
  const hits = await ctx.storage.textSearch(scope, {
    text,
    k: 20,
    filter: { kinds: ["fact"], current: true },
  });
  return ctx.storage.get(
    scope,
    hits.map((h) => h.id),
  );
}

/** A model's suggested rewrites of candidate memories, as new versions (only ids it was shown). */
function editsOf(correction: Correction, candidates: readonly MemoryRecord[], now: string) {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  return (correction.edits ?? []).flatMap(({ id, text }) => {
    const old = byId.get(id);
    if (!old || !text.trim() || text === old.text) return [];
    const record: MemoryRecord = { ...old, text, version: old.version + 1, updatedAt: now };
    const version = versionOf(record, "update", now, { ...old.metadata, reason: "feedback" });
    return [{ old, record, version }];
  });
}

/**
 * Natural-language feedback ("Actually my sister is a doctor now, not a biologist"): the statement is
 * stored as a message, new facts supersede the ones they contradict, and values said to be wrong are
 * retracted. Nothing is lost: superseded facts keep their history and a `supersedes` edge.
 *
 * The write is conditional on the facts it supersedes or retracts and the memories it edits, as read: when
 * another writer changed one meanwhile, the correction is worked out again from the store as it is then.
 */
export async function applyFeedback(
  ctx: EngineContext,
  scope: Scope,
  text: string,
  at: string,
): Promise<FeedbackResult> {
  const now = ctx.clock().toISOString();
  const message = newRecord(
    {
      id: ctx.ids(),
      userId: scope.userId,
      kind: "message",
      tier: "long",
      role: "user",
      text,
      metadata: { feedback: true, analyzed: true },
      validFrom: at,
    },
    now,
  );
  return untilStored("feedback", () => feedbackOnce(ctx, scope, message, at));
}

async function feedbackOnce(
  ctx: EngineContext,
  scope: Scope,
  message: MemoryRecord,
  at: string,
): Promise<FeedbackResult | null> {
  const { text, createdAt: now } = message;
  const candidates = await candidateFacts(ctx, scope, text);
  const correction = await ctx.extractor.feedback(text, message.id, candidates);
  const retractions: ExtractedFact[] = [];
  for (const r of correction.retract) {
    const matches = await ctx.storage.scan(scope, {
      filter: { kinds: ["fact"], current: true, metadata: { slot: r.slot } },
    });
    for (const f of matches.filter((m) => readFact(m).value.toLowerCase() === r.value.toLowerCase())) {
      const m = readFact(f);
      retractions.push({
        subject: m.subject,
        slot: r.slot,
        value: r.value,
        text: f.text,
        single: m.single,
        negated: true,
        confidence: 1,
        evidence: message.id,
      });
    }
  }
  const plan = await planFacts(ctx, scope, [...correction.facts, ...retractions], at);
  const edits = editsOf(correction, candidates, now);
  const { stored, error } = await embedRecords(ctx, [message, ...edits.map((e) => e.record)]);
  const history = [...edits.map((e) => e.version), versionOf(message, "create", now)];
  const { conflicts } = await ctx.storage.write(scope, {
    expect: [...edits.map((e) => e.old), ...plan.read],
    upsert: [...stored, ...plan.upsert],
    history: [...history, ...plan.history],
    edges: plan.edges,
    jobs: [
      ...plan.jobs,
      ...(error ? [embedJob.create(ctx, { ids: stored.map((s) => s.record.id) }, now)] : []),
    ],
  });
  if (conflicts.length) return null;
  const affected = correction.keywords.length
    ? await ctx.storage.textSearch(scope, {
        text: correction.keywords.join(" "),
        k: 10,
        filter: { kinds: ["message"] },
      })
    : [];
  return {
    feedbackId: message.id,
    created: plan.created,
    superseded: plan.superseded,
    edited: edits.map((e) => e.record.id),
    affected: affected.map((h) => h.id).filter((id) => id !== message.id),
  };
}
