/**
 * Typos in the words facts are read from: "i live in manchster", "my job is acountant", "i play guiter".
 * A lower-case word the parser's lexicon does not know is replaced by the one word of the fact
 * vocabulary (occupations, conditions, pets, pastimes, fields, diets, and the lexicon's places) one edit
 * away that starts with the same letter. Names (capitalised) are never touched, and neither is a word
 * whose nearest candidate is only its inflection ("nurses" stays "nurses").
 */
import { DIETS, FIELD_NAMES, HOBBIES, OCCUPATIONS, PETS, RELATIVES } from "../fact-lexicon.js";
import { CONDITION_ADJECTIVES, CONDITIONS, OBJECTS } from "./lexicon.js";
import type { Nlp } from "./parser.js";

/** Words of the fact readers beyond the word lists: the verbs and states they key on. */
const READER_WORDS =
  "living lived moved moving relocated studying studied working worked married divorced engaged separated widowed allergic allergy intolerant vegetarian vegan pescatarian university college favourite favorite diagnosed recovering girlfriend boyfriend husband daughter birthday retired volunteer widower divorcee really actually definitely currently recently finally basically literally probably seriously honestly absolutely".split(
    " ",
  );

interface Vocabulary {
  /** Every word the parser's lexicon or the fact vocabulary holds: never corrected. */
  readonly known: Set<string>;
  /** The fact vocabulary, with the places the parser's lexicon knows, by first letter. */
  readonly byInitial: Map<string, string[]>;
}
/** Built on first use for each parser. */
const VOCABULARY = new WeakMap<Nlp, Vocabulary>();

function vocabulary(nlp: Nlp): Vocabulary {
  const cached = VOCABULARY.get(nlp);
  if (cached) return cached;
  const lexicon = (
    nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }
  ).model().one.lexicon;
  const places = Object.entries(lexicon)
    .filter(([, tag]) =>
      (Array.isArray(tag) ? tag : [tag]).some((t) => /^(?:City|Country|Region|Place)$/.test(t)),
    )
    .map(([word]) => word);
  const words = [
    ...OCCUPATIONS,
    ...HOBBIES,
    ...DIETS,
    ...OBJECTS,
    ...Object.keys(PETS),
    ...Object.keys(RELATIVES),
    ...Object.keys(CONDITIONS),
    ...Object.keys(CONDITION_ADJECTIVES),
    ...Object.keys(FIELD_NAMES),
    ...READER_WORDS,
    ...places,
  ].filter((w) => /^[a-z]{5,}$/.test(w));
  const byInitial = new Map<string, string[]>();
  for (const w of new Set(words)) {
    const list = byInitial.get(w[0] as string);
    if (list) list.push(w);
    else byInitial.set(w[0] as string, [w]);
  }
  const built = { known: new Set([...Object.keys(lexicon), ...words]), byInitial };
  VOCABULARY.set(nlp, built);
  return built;
}

/** One insertion, deletion, substitution or swap of neighbours turns a into b. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** "nurses" and "nurse", "baker" and "bake": an inflection, not a typo. */
const inflected = (a: string, b: string) => {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short) && /^(?:s|d|r|y)$/.test(long.slice(short.length));
};

/** Chat shorthand, written out: "first yr nursing at Cardiff Uni n placements start next month". */
const SHORTHAND: Readonly<Record<string, string>> = {
  n: "and",
  yr: "year",
  yrs: "years",
  bc: "because",
  cuz: "because",
  coz: "because",
  atm: "at the moment",
  bday: "birthday",
  tmrw: "tomorrow",
  tmr: "tomorrow",
  nxt: "next",
  wk: "week",
  wks: "weeks",
  b4: "before",
  "w/": "with",
  w: "with",
  // The g dropped from a word too short for the rule below ("doin a masters"; the lexicon even knows "doin").
  doin: "doing",
  goin: "going",
};
const SHORTHAND_WORD = new RegExp(
  `(?<=^|\\s)(?:${Object.keys(SHORTHAND)
    .map((w) => w.replace("/", "\\/"))
    .join("|")})(?=$|[\\s,.!?])`,
  "g",
);

/** The text with chat shorthand written out and each typo in a fact word corrected; the rest as written. */
export function correctTypos(nlp: Nlp, raw: string): string {
  const text = raw.replace(SHORTHAND_WORD, (w) => SHORTHAND[w] ?? w);
  if (!/[a-z]{5,}/.test(text)) return text;
  const { known, byInitial } = vocabulary(nlp);
  return text.replace(/\b[a-z]{5,}\b/g, (word) => {
    if (known.has(word)) return word;
    // "been livin in brum", "workin nights": the g chat drops.
    if (word.endsWith("in") && known.has(`${word}g`)) return `${word}g`;
    if (word.length < 6) return word;
    const near = (byInitial.get(word[0] as string) ?? []).filter(
      (w) => oneEditApart(word, w) && !inflected(word, w),
    );
    return near.length === 1 ? (near[0] as string) : word;
  });
}
