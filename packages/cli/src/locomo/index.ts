export { type EvalLocomoOptions, evalLocomo } from "./eval-locomo.js";
export {
  contextEvidenceRecall,
  goldTurnIds,
  isEligible,
  meanAccumulator,
  type RecallAccumulator,
  recallAccumulator,
  recallAtK,
} from "./evidence-recall.js";
export {
  ingestLocomo,
  isLocomoData,
  type LocomoConversation,
  type LocomoQuestion,
  type LocomoTurn,
  parseLocomo,
  parseLocomoDate,
  turnContent,
} from "./load-locomo.js";
