export { type EvalLongMemEvalOptions, evalLongMemEval } from "./eval-longmemeval.js";
export {
  answerInContext,
  sessionRecallAll,
  shownInContext,
  turnRecall,
} from "./lme-metrics.js";
export {
  isoDate,
  LONGMEMEVAL_TYPES,
  type LongMemEvalItem,
  type LongMemEvalType,
  readLongMemEval,
} from "./load-longmemeval.js";
export {
  chronologicalSessions,
  countTurns,
  type LongMemEvalSession,
  type LongMemEvalSystem,
  type LongMemEvalTurnRecord,
  runLongMemEval,
  SEARCH_K,
  selectQuestions,
} from "./run-longmemeval.js";
