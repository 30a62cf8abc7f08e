import type { MemoryEdge, MemoryRecord, MemoryVersion, Scope, StoredMemory } from "../model/index.js";
import { factMetadata, newRecord, readFact, versionOf } from "../model/index.js";
import type { EngineContext, ExtractedFact } from "../runtime/index.js";
import { embedJob, embedRecords } from "../runtime/index.js";
import type { NewJob } from "../storage/index.js";
import { decideFact, restated, type StoredFactView } from "./decide-fact.js";

/** What applying extracted facts changes, as one write batch, plus ids for reports. */
export interface FactPlan {
  readonly upsert: StoredMemory[];
  readonly history: MemoryVersion[];
  readonly edges: MemoryEdge[];
  /** An embedding job when the new facts could not be embedded (they are stored, full-text searchable). */
  readonly jobs: NewJob[];
  readonly created: string[];
  readonly superseded: string[];
  readonly merged: string[];
  /** The stored facts the plan rewrites (superseded, merged), as read: the write's `expect`. */
  readonly read: MemoryRecord[];
}

/** Single-valued slots key on the slot (a new value supersedes); multi-valued on slot and value. */
export function factKey(fact: Pick<ExtractedFact, "subject" | "slot" | "value" | "single">): string {
  return fact.single
    ? `${fact.subject}:${fact.slot}`
    : `${fact.subject}:${fact.slot}:${fact.value.toLowerCase()}`;
}

/** A fact as this plan leaves it; a stored one is written back without its vector, which it keeps. */
interface Pending {
  record: MemoryRecord;
}

/**
 * Turns extracted facts into one write: each fact's fate is `decideFact`'s (decide-fact.ts), and this
 * builds what it means: an inserted fact with its history row and `derived_from` edge; merged evidence;
 * a superseded or retracted fact given validTo/expiredAt, a history row and (superseded) a `supersedes`
 * edge, and kept stored. Facts of one batch see the batch's earlier decisions.
 */
export async function planFacts(
  ctx: EngineContext,
  scope: Scope,
  facts: readonly ExtractedFact[],
  /** Event time of a fact: when its evidence was said (a fixed time, or one per fact). */
  at: string | ((fact: ExtractedFact) => string),
): Promise<FactPlan> {
  const now = ctx.clock().toISOString();
  const eventTime = (fact: ExtractedFact) => (typeof at === "string" ? at : at(fact));
  const plan: FactPlan = {
    upsert: [],
    history: [],
    edges: [],
    jobs: [],
    created: [],
    superseded: [],
    read: [],
    merged: [],
  };
  // key -> the current fact after this plan, or null when this plan leaves the key without one.
  const touched = new Map<string, Pending | null>();
  const known = new Map<string, StoredFactView[]>(); // key -> its stored facts, current or expired
  const fresh: MemoryRecord[] = [];
  const loaded = new Map<string, MemoryRecord>(); // stored facts as read
  const edge = (from: string, to: string, type: MemoryEdge["type"]): MemoryEdge => ({
    userId: scope.userId,
    from,
    to,
    type,
    createdAt: now,
  });
  const expire = (p: Pending, successor: string | null, validTo: string) => {
    const record: MemoryRecord = {
      ...p.record,
      expiredAt: now,
      validTo,
      version: p.record.version + 1,
      updatedAt: now,
    };
    // Stated and withdrawn within one batch: the new record is stored already expired.
    const i = fresh.indexOf(p.record);
    if (i >= 0) fresh[i] = record;
    else plan.upsert.push({ record });
    plan.history.push(versionOf(record, "supersede", now, { ...record.metadata, supersededBy: successor }));
    if (successor) plan.edges.push(edge(successor, record.id, "supersedes"));
    plan.superseded.push(record.id);
  };
  for (const fact of facts) {
    const key = factKey(fact);
    if (!known.has(key)) known.set(key, (await storedFacts(ctx, scope, key)).map(view));
    const stored = known.get(key) ?? [];
    // Checked before the current fact is read: a turn extracted again is common and changes nothing.
    if (restated(stored, fact)) continue;
    const current = touched.has(key) ? (touched.get(key) ?? null) : await loadCurrent(ctx, scope, key);
    const decision = decideFact(current ? view(current.record) : null, stored, fact, eventTime(fact));
    if (decision.action === "skip") continue;
    if (current && !touched.has(key)) loaded.set(current.record.id, current.record);
    if (decision.action === "retract" && current) {
      expire(current, null, eventTime(fact));
      touched.set(key, null);
      continue;
    }
    if (decision.action === "merge" && current) {
      const known = readFact(current.record);
      const evidence = [...new Set([...known.evidence, fact.evidence])];
      const confidence = Math.max(known.confidence, fact.confidence);
      const updated = {
        ...current.record,
        metadata: { ...current.record.metadata, evidence, confidence },
        updatedAt: now,
      };
      const i = fresh.indexOf(current.record);
      if (i >= 0) fresh[i] = updated;
      current.record = updated;
      touched.set(key, current);
      plan.merged.push(current.record.id);
      plan.edges.push(edge(current.record.id, fact.evidence, "derived_from"));
      continue;
    }
    const record = newFact(ctx, scope, fact, key, eventTime(fact), now);
    if (current) expire(current, record.id, eventTime(fact));
    fresh.push(record);
    touched.set(key, { record });
    plan.created.push(record.id);
    plan.history.push(versionOf(record, "create", now));
    plan.edges.push(edge(record.id, fact.evidence, "derived_from"));
  }
  const merged = [...touched.values()].filter(
    (p): p is Pending =>
      p !== null && plan.merged.includes(p.record.id) && !plan.created.includes(p.record.id),
  );
  plan.upsert.push(...merged.map((p) => ({ record: p.record })));
  const { stored, error } = await embedRecords(ctx, fresh);
  if (error) plan.jobs.push(embedJob.create(ctx, { ids: fresh.map((r) => r.id) }, now));
  plan.upsert.push(...stored);
  const rewritten = new Set(plan.upsert.map((u) => u.record.id));
  plan.read.push(...[...loaded.values()].filter((r) => rewritten.has(r.id)));
  return plan;
}

/** Facts of a key, current and expired, newest first; bounded, as a key rarely has many versions. */
async function storedFacts(ctx: EngineContext, scope: Scope, key: string): Promise<MemoryRecord[]> {
  return ctx.storage.scan(scope, { filter: { kinds: ["fact"], key }, order: "desc", limit: 100 });
}

/** A stored fact as decideFact reads it. */
function view(record: MemoryRecord): StoredFactView {
  const { value, evidence } = readFact(record);
  return { value, validFrom: record.validFrom, evidence };
}

async function loadCurrent(ctx: EngineContext, scope: Scope, key: string): Promise<Pending | null> {
  const [record] = await ctx.storage.scan(scope, {
    filter: { kinds: ["fact"], key, current: true },
    limit: 1,
  });
  return record ? { record } : null;
}

function newFact(
  ctx: EngineContext,
  scope: Scope,
  fact: ExtractedFact,
  key: string,
  at: string,
  now: string,
): MemoryRecord {
  const { slot, value, subject, single, confidence, evidence } = fact;
  return newRecord(
    {
      id: ctx.ids(),
      userId: scope.userId,
      kind: "fact",
      tier: "long",
      role: subject,
      text: fact.text,
      key,
      metadata: factMetadata({ slot, value, subject, single, confidence, evidence: [evidence] }),
      validFrom: at,
    },
    now,
  );
}
