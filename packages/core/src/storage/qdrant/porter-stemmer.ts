/**
 * The Porter stemming algorithm (M. F. Porter, 1980, in the form of his reference C implementation, with
 * `bli -> ble` and `logi -> log`), which is also what SQLite's FTS5 `porter` tokenizer applies. The Qdrant
 * backend stems with it so its full-text channel matches the same word forms as the SQLite backend.
 */
const STEP2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};
const STEP3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};

const c = "[^aeiou]";
const v = "[aeiouy]";
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
/** Measure > 0, = 1 and > 1, and "the stem contains a vowel", as in the paper. */
const M_GT0 = new RegExp(`^(${C})?${V}${C}`);
const M_EQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
const M_GT1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
const HAS_VOWEL = new RegExp(`^(${C})?${v}`);
const CVC = new RegExp(`^${C}${v}[^aeiouwxy]$`);
const STEP2_RE = new RegExp(`^(.+?)(${Object.keys(STEP2).join("|")})$`);
const STEP3_RE = new RegExp(`^(.+?)(${Object.keys(STEP3).join("|")})$`);
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;

function step1(word: string): string {
  let w = word;
  if (/^(.+?)(ss|i)es$/.test(w)) w = w.replace(/^(.+?)(ss|i)es$/, "$1$2");
  else if (/^(.+?)([^s])s$/.test(w)) w = w.replace(/^(.+?)([^s])s$/, "$1$2");
  const eed = /^(.+?)eed$/.exec(w);
  const edIng = /^(.+?)(ed|ing)$/.exec(w);
  if (eed) {
    if (M_GT0.test(eed[1] as string)) w = w.slice(0, -1);
  } else if (edIng && HAS_VOWEL.test(edIng[1] as string)) {
    w = edIng[1] as string;
    if (/(at|bl|iz)$/.test(w)) w += "e";
    else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
    else if (CVC.test(w)) w += "e";
  }
  const y = /^(.+?)y$/.exec(w);
  if (y && HAS_VOWEL.test(y[1] as string)) w = `${y[1]}i`;
  return w;
}

function steps2to4(word: string): string {
  let w = word;
  const s2 = STEP2_RE.exec(w);
  if (s2 && M_GT0.test(s2[1] as string)) w = (s2[1] as string) + STEP2[s2[2] as string];
  const s3 = STEP3_RE.exec(w);
  if (s3 && M_GT0.test(s3[1] as string)) w = (s3[1] as string) + STEP3[s3[2] as string];
  const s4 = STEP4_RE.exec(w);
  const ion = /^(.+?)(s|t)(ion)$/.exec(w);
  if (s4) {
    if (M_GT1.test(s4[1] as string)) w = s4[1] as string;
  } else if (ion) {
    const stem = (ion[1] as string) + (ion[2] as string);
    if (M_GT1.test(stem)) w = stem;
  }
  return w;
}

function step5(word: string): string {
  let w = word;
  const e = /^(.+?)e$/.exec(w);
  if (e) {
    const stem = e[1] as string;
    if (M_GT1.test(stem) || (M_EQ1.test(stem) && !CVC.test(stem))) w = stem;
  }
  if (/ll$/.test(w) && M_GT1.test(w)) w = w.slice(0, -1);
  return w;
}

/** The Porter stem of a lower-case ASCII word; other words (and words under 3 letters) come back as they are. */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  // A leading y is a consonant: mark it so the vowel patterns do not take it for one.
  const leadingY = word.startsWith("y");
  let w = leadingY ? `Y${word.slice(1)}` : word;
  w = step5(steps2to4(step1(w)));
  return leadingY ? `y${w.slice(1)}` : w;
}
