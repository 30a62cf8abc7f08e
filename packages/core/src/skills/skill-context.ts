import type { TierContext } from "../updating/index.js";
import type { SkillModel } from "./distill-model.js";
import type { SkillsConfig } from "./skill-schemas.js";

/** What the skill operations need: the engine's context, the skill settings and the model, if any. */
export interface SkillContext extends TierContext {
  readonly skills: SkillsConfig;
  /** null: the offline distiller (common tool subsequence) and offline feedback. */
  readonly skillModel: SkillModel | null;
}
