import type { FaultKind, FaultPlan } from "./index.js";

/** mulberry32: a tiny seeded generator, so a fault sequence replays exactly for a given seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decides, request by request, whether a fault plan strikes and with which kind. */
export class FaultDice {
  private readonly random: () => number;

  constructor(readonly plan: FaultPlan) {
    if (!(plan.rate >= 0 && plan.rate <= 1))
      throw new RangeError(`FaultPlan.rate must be within 0..1, got ${plan.rate}`);
    if (plan.kinds.length === 0) throw new RangeError("FaultPlan.kinds must name at least one fault kind");
    this.random = mulberry32(plan.seed ?? 1);
  }

  roll(path: string): FaultKind | undefined {
    if (this.plan.paths && !this.plan.paths.test(path)) return undefined;
    if (this.random() >= this.plan.rate) return undefined;
    return this.plan.kinds[Math.floor(this.random() * this.plan.kinds.length)];
  }
}
