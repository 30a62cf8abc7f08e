import nlp from "compromise";
import { statementClauses } from "./parse/clauses.js";
import { find } from "./parse/match.js";

for (const t of process.argv.slice(2))
  for (const c of statementClauses(nlp as never, t)) {
    console.log(JSON.stringify(c.text), JSON.stringify(c.sentence));
    console.log(
      find(
        c,
        "(transferred|transfered|switched|moved|changed) (unis|universities|schools|colleges)? to (the)? [<sc>(#ProperNoun+|#Acronym|#Noun)]",
      ),
    );
    console.log(find(c, "(i|we)? am? #Adverb? at [<sc>#ProperNoun+]"));
  }
