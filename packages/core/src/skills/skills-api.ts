import { ValidationError } from "../errors/index.js";
import { type MemoryRecord, type MemoryVersion, parseInput, type Scope, versionOf } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { readOne, untilStored } from "../runtime/index.js";
import { assertWritable } from "../storage/index.js";
import { reviseWithModel } from "./distill-model.js";
import { type DistillReport, distillSkills, nextVersion, shareSkill } from "./distill-skills.js";
import { reviseOffline } from "./revise-skill.js";
import { agentTenant, readSkill, readSkillMeta, type SkillMeta } from "./skill-record.js";
import {
  type Skill,
  type SkillBody,
  type SkillFeedbackInput,
  type SkillListInput,
  type SkillRef,
  type SkillShareInput,
  type SkillUpdateInput,
  skillFeedbackSchema,
  skillListSchema,
  skillRefSchema,
  skillShareSchema,
  skillUpdateSchema,
} from "./skill-schemas.js";
import { readTrace } from "./trace-record.js";

/** Reading and editing skills: a user's own (`userId`) or an agent's shared ones (`agentId`). */
export interface SkillsApi {
  /** Current skills, most recently changed first. */
  list(input: SkillListInput): Promise<Skill[]>;
  get(ref: SkillRef): Promise<Skill>;
  /** Edits name, trigger, steps or pitfalls: a new version; the distiller keeps the edited body from then on. */
  update(input: SkillUpdateInput): Promise<Skill>;
  delete(ref: SkillRef): Promise<void>;
  /** Every version of the skill, oldest first. */
  history(ref: SkillRef): Promise<MemoryVersion[]>;
  /** Applies a correction ("check availability first"): a new version; the old one stays in history. */
  feedback(input: SkillFeedbackInput): Promise<Skill>;
  /** Copies a user's skill to every user of an agent, its user-specific values replaced by placeholders. */
  share(input: SkillShareInput): Promise<Skill>;
  /** Distils the user's traces now (normally a queued job after `traces.add`). */
  distill(input: { userId: string }): Promise<DistillReport>;
}

/** The tenant a skill reference reads: the user's own store, or the agent's shared skills. */
function ownerScope(
  input: { userId?: string | undefined; agentId?: string | undefined },
  where: string,
): Scope {
  if ((input.userId === undefined) === (input.agentId === undefined)) {
    throw new ValidationError(
      `${where}: pass either userId (the user's own skills) or agentId (skills shared with an agent's users), not both or neither`,
      { details: { path: "userId" } },
    );
  }
  return { userId: input.userId ?? agentTenant(input.agentId as string) };
}

/**
 * Writes the skill's next version with the body `change` works out from it, keeping its vector. The write
 * is conditional on the skill as read: when another writer (the distiller, another edit) stored a version
 * meanwhile, the change is worked out again from that one, so no version is written over.
 */
async function revise(
  ctx: EngineContext,
  scope: Scope,
  ref: { id: string; where: string },
  change: (old: MemoryRecord) => Promise<Partial<SkillBody>>,
): Promise<Skill> {
  return untilStored(ref.where, async () => {
    const old = await readOne(ctx, scope, ref.id, ref.where, "skill");
    const meta: SkillMeta = { ...readSkillMeta(old), ...(await change(old)), source: "user" };
    const now = ctx.clock().toISOString();
    const record = nextVersion(old, meta, now);
    // The skill keeps its stored vector (left out of the upsert).
    const { conflicts } = await ctx.storage.write(scope, {
      upsert: [{ record }],
      history: [versionOf(record, "update", now)],
      expect: [old],
    });
    return conflicts.length ? null : readSkill(record);
  });
}

/** A correction's new body for the skill (a model's revision, or the offline one). */
async function corrected(ctx: EngineContext, scope: Scope, old: MemoryRecord, text: string) {
  const { name, trigger, steps, pitfalls } = readSkillMeta(old);
  // Tools the correction may name: the skill's, and those of the owner's recent traces.
  const traces = await ctx.storage.scan(scope, {
    filter: { kinds: ["trace"] },
    order: "desc",
    limit: 200,
  });
  const used = traces.flatMap((t) => readTrace(t).steps);
  const tools = new Set([...steps, ...used].map((s) => s.tool));
  const current: SkillBody = { name, trigger, steps, pitfalls };
  return ctx.skillModel
    ? reviseWithModel(ctx.skillModel, current, text, tools)
    : reviseOffline(current, text, tools);
}

export function skillsApi(ctx: EngineContext): SkillsApi {
  return {
    async list(raw) {
      const input = parseInput(skillListSchema, raw, "skills.list");
      const scope = ownerScope(input, "skills.list");
      const records = await ctx.storage.scan(scope, { filter: { kinds: ["skill"], current: true } });
      return records
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, input.limit)
        .map(readSkill);
    },
    async get(raw) {
      const ref = parseInput(skillRefSchema, raw, "skills.get");
      return readSkill(await readOne(ctx, ownerScope(ref, "skills.get"), ref.id, "skills.get", "skill"));
    },
    async update(raw) {
      const input = parseInput(skillUpdateSchema, raw, "skills.update");
      assertWritable(ctx.storage, "skills.update");
      const scope = ownerScope(input, "skills.update");
      const { name, trigger, steps, pitfalls } = input;
      if ([name, trigger, steps, pitfalls].every((v) => v === undefined)) {
        throw new ValidationError("skills.update: pass name, trigger, steps or pitfalls to change", {
          details: { path: "name" },
        });
      }
      const body = Object.fromEntries(
        Object.entries({ name, trigger, steps, pitfalls }).filter(([, v]) => v !== undefined),
      ) as Partial<SkillBody>;
      return revise(ctx, scope, { id: input.id, where: "skills.update" }, async () => body);
    },
    async delete(raw) {
      const ref = parseInput(skillRefSchema, raw, "skills.delete");
      assertWritable(ctx.storage, "skills.delete");
      const scope = ownerScope(ref, "skills.delete");
      // Conditional on the skill as read: one changed meanwhile is read again, one removed is not found.
      await untilStored("skills.delete", async () => {
        const old = await readOne(ctx, scope, ref.id, "skills.delete", "skill");
        const { conflicts } = await ctx.storage.write(scope, { deleteIds: [ref.id], expect: [old] });
        return conflicts.length ? null : true;
      });
    },
    async history(raw) {
      const ref = parseInput(skillRefSchema, raw, "skills.history");
      const scope = ownerScope(ref, "skills.history");
      await readOne(ctx, scope, ref.id, "skills.history", "skill");
      return ctx.storage.history(scope, ref.id);
    },
    async feedback(raw) {
      const input = parseInput(skillFeedbackSchema, raw, "skills.feedback");
      assertWritable(ctx.storage, "skills.feedback");
      const scope = ownerScope(input, "skills.feedback");
      return revise(ctx, scope, { id: input.id, where: "skills.feedback" }, (old) =>
        corrected(ctx, scope, old, input.text),
      );
    },
    async share(raw) {
      const input = parseInput(skillShareSchema, raw, "skills.share");
      assertWritable(ctx.storage, "skills.share");
      const scope = { userId: input.userId };
      const source = await readOne(ctx, scope, input.id, "skills.share", "skill");
      const traces = (await ctx.storage.get(scope, readSkillMeta(source).evidence)).map(readTrace);
      return readSkill(await shareSkill(ctx, source, traces, input.agentId));
    },
    async distill(raw) {
      const { userId } = parseInput(skillRefSchema.pick({ userId: true }).required(), raw, "skills.distill");
      assertWritable(ctx.storage, "skills.distill");
      return distillSkills(ctx, { userId });
    },
  };
}
