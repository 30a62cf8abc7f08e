export {
  type EvalFactsOptions,
  type ExpectedFact,
  evalFacts,
  type FactItem,
  type FactReport,
  readFactBenchmark,
  type Scores,
  scoreItem,
  splitHalves,
  valueMatches,
} from "./eval-facts.js";
