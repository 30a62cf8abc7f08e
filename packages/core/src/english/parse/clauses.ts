/**
 * Which parts of a message state something about the user, as parsed clauses: quotes, questions,
 * conditionals, wishes and sarcasm are left out before any slot is read.
 */
import { expandContractions, isSarcastic, splitClauses, splitSentences } from "../fact-clauses.js";
import type { Doc, Nlp } from "./parser.js";

export interface Clause {
  /** The normalised clause (contractions expanded, leading fillers dropped). */
  readonly text: string;
  /** The parse, made on first use: most clauses pass no reader's cue words and are never parsed. */
  readonly doc: Doc;
  /** The parser, for patterns compiled against it. */
  readonly nlp: Nlp;
  /** The clause speaks of what the user wants, not what is: only a dated plan may be read from it. */
  readonly wanted: boolean;
  /** The sentence the clause is part of, for context a clause alone lacks ("switched jobs - I'm at Monzo"). */
  readonly sentence: string;
}

function parsed(nlp: Nlp, text: string, sentence: string, wanted: boolean): Clause {
  let doc: Doc | undefined;
  return {
    text,
    nlp,
    wanted,
    sentence,
    get doc() {
      doc ??= nlp(text);
      return doc;
    },
  };
}

/** Quoted words are someone's words or an example, never the user's statement: 'I live in Dublin now!!'. */
const QUOTED = /(^|[\s(:])(['"])\S(?:[\s\S]*?\S)?\2(?=$|[\s,.!?;:)])/g;
/** A sentence about what is not: conditions, suppositions, wishes, role play. */
const UNREAL =
  /\b(?:if|unless|suppose|supposing|imagine|imagining|pretend|hypothetically|let's say|lets say|say I|roleplay|role play|parallel universe|(?:i|we) (?:really |just )?wish(?:ed)?|wish(?:ed)? (?:i|we)|were I|had I|dream of|dreaming of|one day)\b/i;
/** A clause in the conditional or the future of might-be: "I'd love to own a Porsche". */
const MODAL = /\b(?:would|could|might|should|wud|maybe|perhaps|probably)\b/i;
/** A wanted future: no fact about the user now, but a plan when it has a date ("want to run a marathon next year"). */
const WANTED = /\b(?:want to|wanna|hope to|hoping to|would like to|'d like to)\b/i;

/** The clauses of a message that may state facts about its author, each parsed once. */
export function statementClauses(nlp: Nlp, text: string): Clause[] {
  const clauses: Clause[] = [];
  const unquoted = text.replace(/[’‘`]/g, "'").replace(/[“”]/g, '"').replace(QUOTED, "$1 ");
  for (const sentence of splitSentences(unquoted)) {
    const plain = expandContractions(sentence);
    if (UNREAL.test(plain) || isSarcastic(plain)) continue;
    // "I live in Lisbon — when's the best time to go?": the statement before the question stands.
    for (const part of sentence.split(/\s+[-–—]+\s+|;\s*|:\s+|\(|\)/)) {
      if (/\?\W*$/u.test(part) || !part.trim()) continue;
      for (const clause of splitClauses(part)) {
        if (MODAL.test(clause) && !WANTED.test(clause)) continue;
        clauses.push(parsed(nlp, clause, sentence, WANTED.test(clause) || MODAL.test(clause)));
      }
    }
  }
  return clauses;
}
