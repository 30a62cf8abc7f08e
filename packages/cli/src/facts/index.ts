export {
  type EvalFactsOptions,
  type ExpectedFact,
  evalFacts,
  extractAll,
  type FactItem,
  type FactReport,
  readFactBenchmark,
  type Scores,
  scoreItem,
  splitHalves,
  valueMatches,
} from "./eval-facts.js";
