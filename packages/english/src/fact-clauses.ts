/**
 * Sentence and clause handling for the rule-based fact extractor: split a message into clauses, expand
 * contractions, drop discourse fillers, and decide which sentences state facts at all (not questions,
 * not hypotheticals).
 */

const ABBREVIATION = /\b(?:dr|mr|mrs|ms|st|jr|sr|prof|vs|etc|e\.g|i\.e|approx|mt|ft|no)\.$/i;

/** Splits a text into sentences, keeping each sentence's end mark (a question keeps its "?"). */
/** Words that open a sentence even in lower case: who it is about. */
const LOWER_OPENING = /^\s+(?:i|i'm|im|i've|ive|my|we|we're|we've|our|he|he's|she|she's|they|they're|it's)\s/;

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const normalized = text.replace(/[’‘`]/g, "'").replace(/[“”]/g, '"');
  for (const line of normalized.split(/\s*\n+\s*/)) {
    let start = 0;
    const ends = /[.!?…]+["')\]]*(?=\s|$)/g;
    for (let m = ends.exec(line); m; m = ends.exec(line)) {
      const end = m.index + m[0].length;
      const piece = line.slice(start, end);
      const next = line.slice(end).trimStart().charAt(0);
      // Chat often starts a sentence in lower case: "my mum is great. she works as a midwife".
      const opens = LOWER_OPENING.test(line.slice(end));
      if (ABBREVIATION.test(piece) || (next !== "" && /\p{Ll}/u.test(next) && !opens)) continue;
      if (piece.trim()) sentences.push(piece.trim());
      start = end;
    }
    const rest = line.slice(start).trim();
    if (rest) sentences.push(rest);
  }
  return sentences;
}

/** A sentence that asks rather than tells ("Do you think I should move to Berlin?"). */
export function isQuestion(sentence: string): boolean {
  return /\?[^\p{L}\p{N}]*$/u.test(sentence);
}

const HYPOTHETICAL =
  /\b(?:if|unless|whether|suppose|supposing|imagine|pretend|hypothetically|would|could|might|maybe|perhaps|wish|wonder|someday|should|used to|dream of|dreaming of|one day|in case|probably)\b|^(?:when|whenever|once|before|after|until)\b/i;
/** Advice is how an assistant states what it recommended, so these are not hypotheticals there. */
const ASSISTANT_ADVICE =
  /\b(?:would|could|might) (?:recommend|suggest|advise)\b|\byou should\b|\byou might want to\b/gi;

/** A sentence about what might be rather than what is ("If I move to Berlin...", "I'd love to visit Rome"). */
export function isHypothetical(sentence: string, role: "user" | "assistant"): boolean {
  const text = expandContractions(sentence);
  return HYPOTHETICAL.test(role === "assistant" ? text.replace(ASSISTANT_ADVICE, "") : text);
}

/** Sarcasm announces itself at the start ("oh sure, ...", "yeah right") or with a wink at the end. */
const SARCASM_START =
  /^(?:lol\s+)?(?:oh\s+)?(?:sure|yeah right|yeah,? (?:and|totally)|oh yeah|ya,? totally|yep|right,? because|(?:of course|absolutely|totally)(?=\s*[,!.]|\s+(?:because|cos|cause)\b)|great,? so now)\b/i;
const SARCASM_ANYWHERE =
  /\b(?:can't you tell|cant you tell|didn't I mention|didnt i mention|don't mind me|as if)\b|,\s*obviously\W*$/i;

/** A sentence that says the opposite of its words ("oh sure, I'm a millionaire astronaut"). */
export function isSarcastic(sentence: string): boolean {
  return SARCASM_START.test(sentence.trim()) || SARCASM_ANYWHERE.test(sentence);
}

const CONTRACTIONS: ReadonlyArray<[RegExp, string]> = [
  [/\bI'm\b/gi, "I am"],
  [/\bI've\b/gi, "I have"],
  [/\bI'll\b/gi, "I will"],
  [/\bI'd\b/gi, "I would"],
  [/\bcan't\b/gi, "cannot"],
  [/\bwon't\b/gi, "will not"],
  [/\bain't\b/gi, "am not"],
  [/\b(\w+)n't\b/gi, "$1 not"],
  // Chat leaves the apostrophe out: "i dont like olives", "cant stand", "didnt".
  [/\bcant\b/gi, "cannot"],
  [/\b(do|does|did|is|are|was|were|have|has|had|could|would|should)nt\b/gi, "$1 not"],
  [/\b(you|we|they)'re\b/gi, "$1 are"],
  [/\b(you|we|they)'ve\b/gi, "$1 have"],
  [/\b(you|we|they)'ll\b/gi, "$1 will"],
  [/\b(it|that|there|he|she)'s (?=a |an |the |not |been |\w+ing\b)/gi, "$1 is "],
  // "hes called Bruno", "shes a lop": the apostrophe left out.
  [/\b(he|she)s (?=a |an |the |not |been |called |named |my |\w+ing\b)/gi, "$1 is "],
  [/\bgonna\b/gi, "going to"],
  [/\bwanna\b/gi, "want to"],
  [/(^|\s)i(?=\s)/g, "$1I"],
];

export function expandContractions(text: string): string {
  let out = text;
  for (const [pattern, replacement] of CONTRACTIONS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Clause boundaries: a new subject after a conjunction or comma starts a new statement ("me and my
 * sister" is one subject, not two clauses).
 */
const CLAUSE_BREAK =
  /\s*;\s*|:\s+|\s+[-–—]+\s+|(?<!\b[Mm]e),?\s+(?:and|but|so|because|cause|plus|though|although|while|whereas|and now|and also)\s+(?=(?:I|my|My|we|We|our|Our)\s)|,\s+(?=(?:I|my|My)\s)|,\s+(?:so|but|and)\s+(?=(?:maybe|perhaps|probably|possibly|any|anything|what|how|which|can|could|would|should)\b)/;

/** Splits a sentence into clauses, each normalised for the pattern rules. */
export function splitClauses(sentence: string): string[] {
  return expandContractions(sentence)
    .split(CLAUSE_BREAK)
    .map(normalizeClause)
    .flatMap(sharedSubject)
    .filter((clause) => clause.length > 0);
}

/** A second verb of the same subject: "... and started working as", "... then moved to". */
const SECOND_VERB =
  /\s+(?:and then|and|then|but)\s+(?=(?:started|began|became|got|moved|quit|left|joined|switched|adopted|rescued|bought|now)\b|[a-z]+ed\b)/;

/** "I quit nursing and started working as a paramedic": each verb gets the subject ("I started ..."). */
function sharedSubject(clause: string): string[] {
  if (!/^(?:I|we) /.test(clause)) return [clause];
  // "we are leaving Phoenix and moving to Portland": a second -ing verb shares "we are".
  const progressive = /^(I am|we are) \w+ing\b/.exec(clause)?.[1];
  if (progressive) {
    const [first, ...rest] = clause.split(/\s+and\s+(?=[a-z]+ing\b)/);
    if (rest.length)
      return [first as string, ...rest.map((part) => normalizeClause(`${progressive} ${part}`))];
  }
  const subject = clause.startsWith("I ") ? "I" : "we";
  const parts = clause.split(SECOND_VERB);
  return parts.map((part, i) => (i === 0 ? part : normalizeClause(`${subject} ${part}`)));
}

const FILLER =
  /^(?:oh well|hiya|heya|howdy|he+y+|hi+|lowkey|highkey|ngl|oh|well|yeah|yes|yep|yup|no(?! longer)|nope|so|and|but|also|plus|anyway|anyways|btw|by the way|honestly|actually|ok|okay|hello|haha+|lol|lmao+|wow|um+|uh+|hmm+|ugh+|omg+|omfg|bro|bruh|dude|yo+|tbh|welp|oof|phew|meh|sure|right|fun fact|guess what|good news|big news|update|besides|then|now|these days|nowadays|currently|recently|lately|finally|luckily|sadly|unfortunately|fortunately|basically|just so you know|as you know|as I said|as I mentioned|like I said|for the record|to be honest|in fact|correction|wait|sorry|thanks|thank you)\b[\s,!.:;-]*/i;
const VOCATIVE = /^\p{Lu}[\p{L}'-]+[,!]\s+/u;
const ADVERBS =
  /\b(I|I am|I have|I will|I do|we|we are|we have|is|are|has)\s+((?:now|currently|actually|really|also|still|just|recently|finally|officially|absolutely|totally|definitely|truly|honestly|seriously|already|even|mostly|usually|generally|always|literally|personally|kinda|genuinely|happily|proudly|basically|originally|so|both|all|kind of|sort of)\s+)+/g;

/** Expands contractions, strips leading fillers and vocatives, and drops adverbs after the subject. */
export function normalizeClause(clause: string): string {
  let out = expandContractions(clause).trim().replace(/\s+/g, " ");
  for (let guard = 0; guard < 6; guard += 1) {
    const before = out;
    out = out
      .replace(/^[^\p{L}\p{N}"]+/u, "")
      .replace(FILLER, "")
      .replace(VOCATIVE, "");
    if (out === before) break;
  }
  out = out.replace(ADVERBS, "$1 ");
  // The subject word leads every rule, so "My sister" and "my sister" must read the same.
  return out.replace(/^(My|We|Our|You|Your|Call|Please)\b/, (word) => word.toLowerCase()).trim();
}

const RETRACTION_SUBJECT = "(I|we|(?:my|our)(?: [\\p{L}'-]+){1,3}?)";
const NO_LONGER = new RegExp(
  `^${RETRACTION_SUBJECT} (?:(am|is|are|have|has) |(?:do|does) )?no longer (.+)$`,
  "u",
);
const NOT_ANYMORE = new RegExp(
  `^${RETRACTION_SUBJECT} (am|is|are|have|has|do|does|did) not (.+?)(?:,? (?:anymore|any more|any longer))(?=$|[,.!;])(.*)$`,
  "u",
);
const PLAIN_NOT = new RegExp(`^${RETRACTION_SUBJECT} (am|is|are|do|does) not (.+)$`, "u");

/**
 * Rewrites a retraction as the statement it retracts: "I no longer live in Munich" -> "I live in Munich".
 * Plain negation ("I am not a biologist") counts only in a correction, where it denies a stored fact;
 * elsewhere "I do not like jazz" is a dislike, handled by its own rule.
 */
export function asRetraction(clause: string, correction: boolean): string | null {
  const noLonger = NO_LONGER.exec(clause);
  if (noLonger) return join(noLonger[1], noLonger[2], noLonger[3]);
  const notAnymore = NOT_ANYMORE.exec(clause);
  if (notAnymore) return join(notAnymore[1], notAnymore[2], `${notAnymore[3]}${notAnymore[4] ?? ""}`);
  const plain = correction ? PLAIN_NOT.exec(clause) : null;
  return plain ? join(plain[1], plain[2], plain[3]) : null;
}

function join(subject = "", aux = "", rest = ""): string {
  const keep = /^(?:am|is|are|have|has)$/.test(aux) ? ` ${aux}` : "";
  return `${subject}${keep} ${rest}`.trim();
}
