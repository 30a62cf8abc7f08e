import { createHash } from "node:crypto";
import { AGENT_TENANT_PREFIX, type MemoryRecord, newRecord } from "../model/index.js";
import { confidenceOf, type Distillation } from "./distill-offline.js";
import type { Skill, SkillBody, SkillStep, SkillVisibility } from "./skill-schemas.js";

// Skills shared with every user of an agent live in a tenant of their own (AGENT_TENANT_PREFIX + agent id),
// so storage scoping works unchanged: no user's store holds another's skills, the agent's no user's values.
export { AGENT_TENANT_PREFIX };

/** Whether a storage user id is an agent's shared-skills tenant rather than a user. */
export function isAgentTenant(userId: string): boolean {
  return userId.startsWith(AGENT_TENANT_PREFIX);
}

export function agentTenant(agentId: string): string {
  return `${AGENT_TENANT_PREFIX}${agentId}`;
}

/** The id of a skill's agent-level copy: stable, so sharing again updates it, and opaque. */
export function sharedSkillId(sourceId: string, agentId: string): string {
  const digest = createHash("sha256").update(`${sourceId}\u0000${agentId}`).digest("hex");
  return `skill_shared_${digest.slice(0, 32)}`;
}

/** What a skill record holds in its metadata besides the text (`name: trigger`). */
export type SkillMeta = SkillBody &
  Pick<Skill, "evidence" | "successes" | "failures" | "confidence" | "source" | "visibility"> & {
    readonly keywords: string[];
    /** The offline draft the body was made from; a model is asked again only when it changes. */
    readonly draft?: string;
  };

export function skillText(body: Pick<SkillBody, "name" | "trigger">): string {
  return `${body.name}: ${body.trigger}`;
}

export function skillMeta(
  distilled: Distillation,
  source: Skill["source"],
  visibility: SkillVisibility = "user",
): SkillMeta {
  return {
    ...distilled.body,
    evidence: distilled.evidence,
    successes: distilled.successes,
    failures: distilled.failures,
    confidence: confidenceOf(distilled.successes, distilled.failures),
    source,
    visibility,
    keywords: distilled.keywords,
  };
}

export function newSkillRecord(
  fields: { id: string; userId: string; agentId: string | null; meta: SkillMeta },
  now: string,
): MemoryRecord {
  return newRecord(
    {
      id: fields.id,
      userId: fields.userId,
      agentId: fields.agentId,
      kind: "skill",
      tier: "long",
      text: skillText(fields.meta),
      metadata: { ...fields.meta },
    },
    now,
  );
}

export function readSkillMeta(record: MemoryRecord): SkillMeta {
  return record.metadata as unknown as SkillMeta;
}

export function readSkill(record: MemoryRecord): Skill {
  const meta = readSkillMeta(record);
  return {
    id: record.id,
    userId: record.userId,
    agentId: record.agentId,
    visibility: meta.visibility ?? "user",
    name: meta.name,
    trigger: meta.trigger,
    steps: meta.steps,
    pitfalls: meta.pitfalls,
    evidence: meta.evidence,
    successes: meta.successes,
    failures: meta.failures,
    confidence: meta.confidence,
    version: record.version,
    source: meta.source,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function stepLine(step: SkillStep, index: number): string {
  const args = Object.entries(step.args).map(([k, v]) => `${k}=${v}`);
  const note = step.note ? ` (${step.note})` : "";
  return `${index + 1}. ${step.tool}(${args.join(", ")})${note}`;
}

/** The skill as one context line: name, when to use it, the numbered steps and the pitfalls. */
export function renderSkill(meta: SkillMeta, version: number): string {
  const steps = meta.steps.map(stepLine).join(" ");
  const pitfalls = meta.pitfalls.length ? ` Pitfalls: ${meta.pitfalls.join("; ")}.` : "";
  return `${meta.name} (v${version}, confidence ${meta.confidence}). Use for: ${meta.trigger}. Steps: ${steps}.${pitfalls}`;
}
