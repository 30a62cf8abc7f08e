import { cosine, queryTerms, type Scope } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { agentTenant, readSkill, readSkillMeta, renderSkill, sharedSkillId } from "./skill-record.js";
import type { Skill } from "./skill-schemas.js";

/** A skill whose trigger matches a query, with the match score and its context line. */
export interface SkillMatch {
  readonly skill: Skill;
  readonly score: number;
  /** The skill as shown in the context. */
  readonly text: string;
}

// Without an embedder: the share of a skill's task words that the query contains.
const MIN_WORD_SHARE = 0.5;
// A further skill is shown only when it scores nearly as well as the best: a request of one kind that
// reads a little like another should get its own skill, not both (bench/skills.ts).
const RELATIVE_MARGIN = 0.1;

async function matchesIn(
  ctx: EngineContext,
  scope: Scope,
  query: string,
  vector: Float32Array | null,
): Promise<SkillMatch[]> {
  const skills = await ctx.storage.scan(scope, { filter: { kinds: ["skill"], current: true } });
  if (skills.length === 0) return [];
  const vectors = vector
    ? await ctx.storage.getVectors(
        scope,
        skills.map((s) => s.id),
      )
    : new Map();
  const terms = new Set(queryTerms(query));
  const out: SkillMatch[] = [];
  for (const record of skills) {
    const meta = readSkillMeta(record);
    const stored = vectors.get(record.id);
    const words = meta.keywords.length
      ? meta.keywords.filter((w) => terms.has(w)).length / meta.keywords.length
      : 0;
    const similar = vector && stored ? cosine(vector, stored) : null;
    // An agent-level copy's vector embeds only its short anonymous trigger: its words decide as well.
    const shared = meta.visibility === "agent";
    const matched =
      similar === null
        ? words >= MIN_WORD_SHARE
        : similar >= ctx.skills.matchSimilarity || (shared && words >= MIN_WORD_SHARE);
    const score = similar === null ? words : Math.max(similar, shared ? words : 0);
    if (matched) out.push({ skill: readSkill(record), score, text: renderSkill(meta, record.version) });
  }
  return out;
}

/**
 * The skills whose trigger matches the query: the user's own, and with an agent id that agent's shared
 * skills; best first, at most `maxInContext`. An unrelated query matches none.
 */
export async function matchSkills(
  ctx: EngineContext,
  input: { userId: string; agentId?: string; query: string; vector: Float32Array | null },
): Promise<SkillMatch[]> {
  if (!ctx.skills.enabled || ctx.skills.maxInContext === 0) return [];
  const scopes: Scope[] = [{ userId: input.userId }];
  if (input.agentId) scopes.push({ userId: agentTenant(input.agentId) });
  const found = (await Promise.all(scopes.map((s) => matchesIn(ctx, s, input.query, input.vector)))).flat();
  // A user's own skill and the agent's copy of it are one skill: the user's, more specific, wins.
  const copies = new Set(
    input.agentId
      ? found
          .filter((m) => m.skill.visibility === "user")
          .map((m) => sharedSkillId(m.skill.id, input.agentId as string))
      : [],
  );
  const ranked = found.filter((m) => !copies.has(m.skill.id)).sort((a, b) => b.score - a.score);
  const top = ranked[0]?.score ?? 0;
  return ranked.filter((m) => m.score >= top - RELATIVE_MARGIN).slice(0, ctx.skills.maxInContext);
}
