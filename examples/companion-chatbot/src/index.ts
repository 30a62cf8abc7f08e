export { COMMAND_HELP, renderOverview, runCommand } from "./companion-commands.js";
export { type CompanionMemory, companionMemory, type MemoryOverview } from "./companion-memory.js";
export {
  CONFIGURE_MODEL_HELP,
  DEFAULT_OPENAI_MODEL,
  type ModelChoice,
  modelFromEnv,
} from "./model-from-env.js";
export {
  COMPANION_INSTRUCTIONS,
  type CompanionOptions,
  type CompanionWriter,
  runCompanion,
} from "./run-companion.js";
