import {
  type MemoryRecord,
  messageMarks,
  type Scope,
  type StoredMemory,
  withMessageMarks,
} from "../model/index.js";
import type { EngineContext, ExtractedFact } from "../runtime/index.js";
import { inSteps } from "../runtime/index.js";
import { type JobControl, UNCONTROLLED } from "../scheduler/index.js";
import { factKey, planFacts } from "./apply-facts.js";
import { enforceKnowledgeCapacity } from "./enforce-capacity.js";

const signature = (f: ExtractedFact) =>
  `${f.evidence}\u0000${factKey(f)}\u0000${f.value.toLowerCase()}\u0000${f.negated}`;

/**
 * A filter for promotion: drops the facts the prompt path already decided from these turns, so a fact
 * the user deleted, or one a later turn changed, is not applied again when its turn is promoted.
 */
export async function notYetScreened(
  ctx: EngineContext,
  messages: readonly MemoryRecord[],
): Promise<(fact: ExtractedFact) => boolean> {
  const screened = messages.filter((m) => m.role === "user" && messageMarks(m).screened);
  const rules = ctx.rules;
  const applied = new Set((screened.length && rules ? await rules.persona(screened, []) : []).map(signature));
  return (fact) => !applied.has(signature(fact));
}

/**
 * The prompt path to long-term memory: the explicit first-person facts of new user turns ("I moved to
 * Munich") become facts in the first tiers job that sees them. Under the `paper` constants promotion needs
 * 14 pages and a segment at heat 5, so a short conversation would otherwise never reach the profile.
 *
 * It uses `ctx.rules` (the offline English rules unless `createEngram({ rules })` says otherwise: precision
 * first, no model call per turn, whatever `llm` is; none, and nothing is screened), and only on user messages: assistant knowledge and anything a model may infer still wait for promotion, which
 * sees these messages again and skips what the rules gave here (`notYetScreened`).
 * Turns are screened oldest first, SCREEN_STEP at a time: each step's facts and `screened` marks land in
 * one write, so a rerun after a crash or an interrupt does only what is left.
 */
export async function screenExplicitFacts(
  ctx: EngineContext,
  scope: Scope,
  control: JobControl = UNCONTROLLED,
): Promise<{ screened: number; created: string[]; superseded: string[] }> {
  if (!ctx.rules) return { screened: 0, created: [], superseded: [] };
  const created: string[] = [];
  const superseded: string[] = [];
  // Screening runs before eviction in every tiers job, so a message is screened while still short-term.
  const unscreened = async () =>
    (
      await ctx.storage.scan(scope, {
        filter: { kinds: ["message"], tiers: ["short"], roles: ["user"] },
        order: "asc",
      })
    ).filter((m) => !messageMarks(m).screened);
  const screened = await inSteps(
    "explicit-fact screening",
    SCREEN_STEP,
    unscreened,
    async (fresh) => {
      const done = await screenStep(ctx, scope, fresh);
      if (!done) return false;
      created.push(...done.created);
      superseded.push(...done.superseded);
      return true;
    },
    control,
  );
  return { screened, created, superseded };
}

/** User turns screened per write. */
const SCREEN_STEP = 256;

/** One step of screening; null when its write lost to another writer (a turn or fact changed since read). */
async function screenStep(
  ctx: EngineContext,
  scope: Scope,
  fresh: readonly MemoryRecord[],
): Promise<{ created: string[]; superseded: string[] } | null> {
  const facts = ctx.rules ? await ctx.rules.persona(fresh, []) : [];
  const now = ctx.clock().toISOString();
  // Each fact dates from the turn that states it, so a later turn supersedes an earlier one in order.
  const said = new Map(fresh.map((m) => [m.id, m.validFrom ?? now]));
  const plan = await planFacts(ctx, scope, facts, (fact) => said.get(fact.evidence) ?? now);
  const marked: StoredMemory[] = fresh.map((m) => ({
    record: withMessageMarks(m, { screened: true }),
  }));
  // Conditional: the turns as read (an embed job may have stored them ready, with a vector, meanwhile).
  const { conflicts } = await ctx.storage.write(scope, {
    upsert: [...plan.upsert, ...marked],
    history: plan.history,
    edges: plan.edges,
    jobs: plan.jobs,
    expect: [...fresh, ...plan.read],
  });
  if (conflicts.length) return null;
  if (plan.created.length) await enforceKnowledgeCapacity(ctx, scope);
  return { created: plan.created, superseded: plan.superseded };
}
