/**
 * Which parts of a message state something about the user, as parsed clauses: quotes, questions,
 * conditionals, wishes and sarcasm are left out before any slot is read.
 */
import { expandContractions, isSarcastic, splitClauses, splitSentences } from "../fact-clauses.js";
import { introduction } from "./introduction.js";
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
      if (!doc) {
        doc = nlp(text);
        // compromise then skips a pattern whose required words or tags the clause lacks.
        doc.cache();
      }
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
const MODAL_WORDS = "would|could|might|should|wud|maybe|perhaps|probably";
const MODAL = new RegExp(`\\b(?:${MODAL_WORDS})\\b`, "i");
/**
 * A statement, then a conjunction and a clause of might-be, or a might-be after a comma ("I get migraines,
 * maybe 3 a month"): the statement is the first group.
 */
const MODAL_TAIL = new RegExp(
  `^(.+?)(?:,?\\s+(?:and|but|so)\\s+(?=.*\\b(?:${MODAL_WORDS})\\b)|\\s*,\\s*(?=(?:maybe|perhaps|probably)\\b))`,
  "i",
);
/** A wanted future: no fact about the user now, but a plan when it has a date ("want to run a marathon next year"). */
const WANTED = /\b(?:want to|wanna|hope to|hoping to|would like to|'d like to)\b/i;

/**
 * "I should mention that", "I would like to note that", "I must tell you": the user announcing what they
 * say; its modal belongs to the telling, not to what is told.
 */
const TELLING =
  /^\s*(?:i\s+(?:should|would like to|'d like to|must|may|might|will|want to|wanted to|need to)\s+(?:probably\s+|also\s+|just\s+|first\s+)?(?:mention|say|add|note|point out|tell you|inform you|let you know|clarify|explain|stress)|(?:i\s+)?should (?:mention|say|add|note))(?:\s+that\b|\s*[,:])\s*(?=\S)/i;

/** The clauses of a message that may state facts about its author, each parsed once. */
export function statementClauses(nlp: Nlp, text: string): Clause[] {
  const clauses: Clause[] = [];
  const unquoted = text.replace(/[’‘`]/g, "'").replace(/[“”]/g, '"').replace(QUOTED, "$1 ");
  for (const said of splitSentences(unquoted)) {
    const head = beforeCondition(said);
    // A head that says what will be (if ...) keeps its other clauses: "my sister Kate is a vet and she
    // will come if she can" still says what the sister is; "I will move to Paris if I get the job" plans nothing.
    const conditional = head !== said;
    const sentence = head.replace(TELLING, "");
    const plain = expandContractions(sentence);
    if (UNREAL.test(plain) || isSarcastic(plain)) continue;
    // "I live in Lisbon — when's the best time to go?": the statement before the question stands.
    const parts = sentence.split(/\s+[-–—]+\s+|;\s*|:\s+|\(|\)/);
    for (const [i, whole] of parts.entries()) {
      const part = /\?\W*$/u.test(whole) ? statementBefore(whole) : whole;
      if (!part.trim() || someoneElsesTag(part, parts[i - 1])) continue;
      for (const clause of introduction(part, parts.slice(i + 1).join(" "))
        .flatMap(splitClauses)
        .flatMap(asSelf)) {
        const future = conditional ? FUTURE.exec(clause) : null;
        if (future) {
          // What is said before the will-be stands: "my brother Tom is a chef and he will cook if we ask".
          const before = clause
            .slice(0, future.index)
            .replace(/[\s,]*(?:(?:and|but|so)\s+)?(?:he|she|they|we|i|it|you)?[\s,]*$/i, "");
          if (before.split(/\s+/).length > 2) clauses.push(parsed(nlp, before, sentence, false));
          continue;
        }
        if (MODAL.test(clause) && !WANTED.test(clause)) {
          // "I'm 41 now and never thought I'd be asking this": what is stated before the might-be stands.
          const head = MODAL_TAIL.exec(clause);
          if (head?.[1] && !MODAL.test(head[1])) clauses.push(parsed(nlp, head[1], sentence, false));
          continue;
        }
        clauses.push(parsed(nlp, clause, sentence, WANTED.test(clause) || MODAL.test(clause)));
      }
    }
  }
  return clauses;
}

/** A forum's age and sex in brackets ("(31M)") after someone other than the user: "my boyfriend (31M)". */
function someoneElsesTag(part: string, before: string | undefined): boolean {
  return /^\s*\d{2}\s?(?:m|f|nb)\s*$/i.test(part) && !/\b(?:i|me|myself)\s*$/i.test(before ?? "");
}

/** A condition after the statement: "I work in Leeds, if that helps", "I'm 6 and, if I'm honest, ...". */
const LATER_CONDITION = /^(.*?\S)[\s,]+(?:even\s+)?(?:if|unless)\b/i;

/**
 * The statement a sentence makes before a condition that follows it ("I've been vegan for years, not sure
 * if that's relevant"); the whole sentence when it opens on the condition ("If I move to Paris, ...") or
 * states nothing before it but a might-be.
 */
function beforeCondition(sentence: string): string {
  const head = LATER_CONDITION.exec(sentence)?.[1];
  if (!head || UNREAL.test(head) || MODAL.test(head)) return sentence;
  return head.replace(/[\s,]*(?:and|but|or|so)?[\s,]*$/i, "");
}

/** What will be: in a sentence that sets a condition, it holds only under it. */
const FUTURE = /\b(?:will|shall|i'll|we'll|going to|gonna)\b/i;

/** What a question closes on after a comma: "any tips?", "what should I pack?". */
const TAIL_QUESTION =
  /,\s*((?:any|what|how|which|where|when|who|why|thoughts|ideas|tips|advice|suggestions|recommendations|help|should|can|could|do|does|is|are|would|will)\b[^,]*)\?\W*$/iu;
/** A sentence that opens as a question asks throughout: "do you think I should move, or stay?". */
const OPENS_QUESTION =
  /^\s*(?:do|does|did|is|are|was|were|can|could|would|should|will|shall|have|has|what|how|why|where|when|who|which|any)\b/i;

/**
 * "I'm taking my driving test next Thursday, any last tips?": the statement before a short question
 * after a comma stands; a sentence that is a question throughout yields nothing.
 */
function statementBefore(part: string): string {
  const tail = TAIL_QUESTION.exec(part);
  if (!tail) return selfStatedAsked(part);
  if ((tail[1] ?? "").split(/\s+/).length > 8) return "";
  const head = part.slice(0, tail.index);
  return OPENS_QUESTION.test(head) ? "" : head;
}
/**
 * "I am coming from Ukraine and I want to know how to rent a flat here?": a statement a learner closes
 * with a question mark, up to where the asking starts; nothing when no asking is said.
 */
function selfStatedAsked(part: string): string {
  if (!SELF_OPENING.test(part)) return "";
  const asking =
    /\s+(?:and|but|so)\s+(?:i\s+(?:want|would like|need|wish)\s+to\s+know|(?:can|could|would)\s+you|how|what|where|which|who|when|why|is it|is there)\b/i.exec(
      part,
    );
  return asking ? part.slice(0, asking.index) : "";
}

/** A clause that opens on the user: "I am", "we have", "my", "being from". */
const SELF_OPENING = /^\s*(?:i|i'm|im|i've|we|we're|we've|my|our|being|as a|as an)\b/i;

/** "As a nurse, ...", "Being a teacher, ...", "As someone with coeliac disease, ...": who the user is, said in passing. */
const AS_SELF =
  /^\s*(?:speaking as|as|being)\s+(?:(a|an)\s+|(someone|somebody) with\s+)([^,]{2,60}?)(?:\s*,\s*|\s+(?=(?:i|we|it)\s)|\s*$)(.*)$/i;

/** A clause that opens on who the user is, as that statement and the rest: "As a nurse, I work nights". */
function asSelf(clause: string): string[] {
  const m = AS_SELF.exec(clause);
  if (!m) return [clause];
  const self = m[2] ? `I have ${m[3]}` : `I am ${m[1]} ${m[3]}`;
  return [self, ...(m[4]?.trim() ? [m[4].trim()] : [])];
}
