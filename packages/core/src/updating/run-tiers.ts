import type { Scope } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import type { JobControl } from "../scheduler/index.js";
import { evictShortTerm } from "./evict-short-term.js";
import { evictMidTerm, promoteHotSegments } from "./promote-segments.js";
import { screenExplicitFacts } from "./screen-explicit-facts.js";

/**
 * A user's tier work, the `tiers` job: explicit facts of new user turns first, while those turns are
 * still short-term (whatever the tier constants); then short-term overflow into segments, keeping
 * mid-term within capacity after every step; then promotion of hot segments. Every step is bounded and
 * one atomic write, with a checkpoint between steps, so the work after a bulk import is linear in its
 * size and can stop between any two steps and resume from what is stored.
 */
export async function runTiers(ctx: EngineContext, scope: Scope, control: JobControl): Promise<void> {
  await screenExplicitFacts(ctx, scope, control);
  await evictShortTerm(ctx, scope, control, () => evictMidTerm(ctx, scope, control));
  // Capacity again: a smaller midTermCapacity than the store was filled with, or segments left over.
  await evictMidTerm(ctx, scope, control);
  await promoteHotSegments(ctx, scope, control);
}
