import type { MemoryRecord, MemoryVersion, Scope, StoredMemory } from "../model/index.js";
import { versionOf } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { untilStored } from "../runtime/index.js";
import { anonymizeSkill } from "./anonymize-skill.js";
import { distillWithModel } from "./distill-model.js";
import { type Distillation, distillOffline } from "./distill-offline.js";
import { type EmbeddedTrace, groupTraces, type TraceGroup } from "./group-traces.js";
import {
  agentTenant,
  newSkillRecord,
  readSkillMeta,
  type SkillMeta,
  sharedSkillId,
  skillMeta,
  skillText,
} from "./skill-record.js";
import { readTrace, type Trace } from "./trace-record.js";

export interface DistillReport {
  readonly created: number;
  readonly updated: number;
  readonly modelCalls: number;
}

const MAX_PITFALLS = 8;

/** The user's newest traces, oldest first, with their task embeddings (computed now where missing). */
async function loadTraces(ctx: EngineContext, scope: Scope): Promise<EmbeddedTrace[]> {
  const records = (
    await ctx.storage.scan(scope, {
      filter: { kinds: ["trace"] },
      order: "desc",
      limit: ctx.skills.maxTraces,
    })
  ).reverse();
  const vectors = ctx.embedder
    ? await ctx.storage.getVectors(
        scope,
        records.map((r) => r.id),
      )
    : new Map();
  const missing = records.filter((r) => !vectors.has(r.id));
  if (ctx.embedder && missing.length) {
    const embedded = await ctx.embedder.embed(missing.map((r) => r.text));
    for (const [i, r] of missing.entries()) vectors.set(r.id, embedded[i] as Float32Array);
  }
  return records.map((r) => ({ trace: readTrace(r), vector: vectors.get(r.id) ?? null }));
}

/** The stored skill learned from the same traces as the group (most shared evidence), if any. */
function skillOfGroup(group: TraceGroup, skills: readonly MemoryRecord[]): MemoryRecord | null {
  const ids = new Set(group.members.map((m) => m.trace.id));
  let best: MemoryRecord | null = null;
  let shared = 0;
  for (const skill of skills) {
    const n = readSkillMeta(skill).evidence.filter((id) => ids.has(id)).length;
    if (n > shared) {
      best = skill;
      shared = n;
    }
  }
  return best;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The offline draft's shape; the model is asked again only when it changes. */
const draftSignature = (d: Distillation) =>
  JSON.stringify([d.body.steps.map((s) => [s.tool, s.args]), d.body.pitfalls]);

/**
 * The next state of a group's skill: a hand-edited skill keeps its body and gains new pitfalls; otherwise
 * the model's body when a model is configured and the draft changed, else the offline body.
 */
async function nextMeta(
  ctx: EngineContext,
  group: TraceGroup,
  distilled: Distillation,
  old: SkillMeta | null,
  calls: { n: number },
): Promise<SkillMeta & { draft: string }> {
  const draft = draftSignature(distilled);
  const counts = skillMeta(distilled, "offline");
  // The old body kept, with the new counts.
  const kept = (body: SkillMeta, pitfalls: string[]) => {
    const { name, trigger, steps, source } = body;
    return { ...counts, name, trigger, steps, pitfalls, source, draft };
  };
  if (old && old.source === "user") {
    return kept(old, [...new Set([...old.pitfalls, ...distilled.body.pitfalls])].slice(0, MAX_PITFALLS));
  }
  if (ctx.skillModel && old?.source === "model" && old.draft === draft) return kept(old, old.pitfalls);
  if (!ctx.skillModel) return { ...counts, draft };
  calls.n++;
  const body = await distillWithModel(
    ctx.skillModel,
    group.members.map((m) => m.trace),
    distilled.body,
  );
  return { ...counts, ...body, source: "model", draft };
}

/** A stored skill moved to its next version (the earlier one stays in history). */
export function nextVersion(old: MemoryRecord, meta: SkillMeta, now: string): MemoryRecord {
  return { ...old, text: skillText(meta), metadata: { ...meta }, version: old.version + 1, updatedAt: now };
}

/**
 * Distils the user's traces: groups them by task and tools, and for each group with enough successful
 * runs creates its skill or, when the group gained traces, writes the skill's next version. With
 * `shareWithAgent`, each changed skill's anonymous copy is written to its agent's tenant too. The write
 * is conditional on the skills it moves on, as read: when another writer stored a version of one
 * meanwhile (an edit, another process's distillation), the distillation is worked out again.
 */
export async function distillSkills(ctx: EngineContext, scope: Scope): Promise<DistillReport> {
  const calls = { n: 0 };
  const report = await untilStored("skill distillation", () => distillOnce(ctx, scope, calls));
  return { ...report, modelCalls: calls.n };
}

async function distillOnce(
  ctx: EngineContext,
  scope: Scope,
  calls: { n: number },
): Promise<Omit<DistillReport, "modelCalls"> | null> {
  const traces = await loadTraces(ctx, scope);
  if (traces.length === 0) return { created: 0, updated: 0 };
  const groups = groupTraces(traces, ctx.skills.groupSimilarity);
  const skills = await ctx.storage.scan(scope, { filter: { kinds: ["skill"], current: true } });
  const now = ctx.clock().toISOString();
  const upsert: StoredMemory[] = [];
  const read: MemoryRecord[] = [];
  const history: MemoryVersion[] = [];
  const changed: { record: MemoryRecord; traces: Trace[] }[] = [];
  let created = 0;
  for (const group of groups) {
    const distilled = distillOffline(group, ctx.skills.minTraces);
    if (!distilled) continue;
    const old = skillOfGroup(group, skills);
    const oldMeta = old ? readSkillMeta(old) : null;
    if (old && oldMeta && sameList(oldMeta.evidence, distilled.evidence)) continue;
    const meta = await nextMeta(ctx, group, distilled, oldMeta, calls);
    const agentId = mostCommon(group.members.map((m) => m.trace.agentId));
    const record = old
      ? nextVersion(old, meta, now)
      : newSkillRecord({ id: `skill_${ctx.ids()}`, userId: scope.userId, agentId, meta }, now);
    if (old) read.push(old);
    else created++;
    upsert.push({ record, vector: group.centroid });
    history.push(versionOf(record, old ? "update" : "create", now));
    changed.push({ record, traces: group.members.map((m) => m.trace) });
  }
  if (upsert.length && (await ctx.storage.write(scope, { upsert, history, expect: read })).conflicts.length)
    return null;
  if (ctx.skills.shareWithAgent) {
    for (const { record, traces: evidence } of changed) {
      if (record.agentId) await shareSkill(ctx, record, evidence, record.agentId);
    }
  }
  return { created, updated: upsert.length - created };
}

function mostCommon(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * Writes (or moves to its next version) the anonymous copy of a user's skill in the agent's tenant. Its
 * vector embeds the anonymous trigger, not the user's tasks, so nothing of them travels with it.
 */
export async function shareSkill(
  ctx: EngineContext,
  source: MemoryRecord,
  traces: readonly Trace[],
  agentId: string,
): Promise<MemoryRecord> {
  const tenant = { userId: agentTenant(agentId) };
  const { draft: _draft, ...meta } = anonymizeSkill(readSkillMeta(source), traces);
  const id = sharedSkillId(source.id, agentId);
  const [vector] = ctx.embedder ? await ctx.embedder.embed([skillText(meta)]) : [null];
  // Conditional on the shared copy as read; a first copy is inserted, so one another writer stored
  // meanwhile is moved on from instead of written over.
  return untilStored("skill sharing", async () => {
    const now = ctx.clock().toISOString();
    const [old] = await ctx.storage.get(tenant, [id]);
    const record = old
      ? nextVersion(old, meta, now)
      : newSkillRecord({ id, userId: tenant.userId, agentId, meta }, now);
    const stored = [{ record, vector: vector ?? null }];
    const history = [versionOf(record, old ? "update" : "create", now)];
    const result = await ctx.storage.write(
      tenant,
      old ? { upsert: stored, history, expect: [old] } : { insert: stored, history },
    );
    const done = old ? result.conflicts.length === 0 : result.inserted.includes(id);
    return done ? record : null;
  });
}
