import { statementClauses } from "./parse/clauses.js";
import { loadParser } from "./parse/parser.js";
import { parsedFacts } from "./parse/read-facts.js";

const nlp = await loadParser();
for (const s of process.argv.slice(2)) {
  console.log(
    s,
    "\n   clauses:",
    statementClauses(nlp, s).map((c) => c.text),
    "\n   facts:",
    parsedFacts(nlp, s).map((d) => `${d.slot}=${d.value}${d.negated ? "(neg)" : ""}`),
  );
}
