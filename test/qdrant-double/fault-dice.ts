import { seededRandom } from "@engram/core/testing";
import type { FaultKind, FaultPlan } from "./double-types.js";

/** Decides, request by request, whether a fault plan strikes and with which kind. */
export class FaultDice {
  private readonly random: () => number;

  constructor(readonly plan: FaultPlan) {
    if (!(plan.rate >= 0 && plan.rate <= 1))
      throw new RangeError(`FaultPlan.rate must be within 0..1, got ${plan.rate}`);
    if (plan.kinds.length === 0) throw new RangeError("FaultPlan.kinds must name at least one fault kind");
    this.random = seededRandom(plan.seed ?? 1);
  }

  roll(path: string): FaultKind | undefined {
    if (this.plan.paths && !this.plan.paths.test(path)) return undefined;
    if (this.random() >= this.plan.rate) return undefined;
    return this.plan.kinds[Math.floor(this.random() * this.plan.kinds.length)];
  }
}
