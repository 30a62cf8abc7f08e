/** The user's children read from a parsed clause: how many ("we have two kids"), and their names. */
import { NOT_NAMES, NUMBER_WORDS } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import type { Clause } from "./clauses.js";
import { KIN } from "./lexicon.js";
import { aboutUser, asName, denied, find, foundAt, over } from "./match.js";

export function readChildren(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  // "we named our baby Rose".
  for (const f of find(
    clause,
    "(named|called) (our|my) (baby|son|daughter|boy|girl|little one) [<n>#ProperNoun]",
  ))
    out.push({
      slot: "child",
      value: asName(f.groups.n ?? ""),
      says: `has a child named ${asName(f.groups.n ?? "")}`,
      confidence: 0.7,
    });
  // Children: "we have two kids", "we've got twins, Noah and Lily", "a single mum of one".
  for (const f of find(
    clause,
    "(have|got|had|raising) [<n>(#Value|twins|triplets)] #Adjective? #Adjective? (adult|grown|teenage|young)? (kids|children|sons|daughters|boys|girls|son|daughter|boy|girl|little ones)?",
  )) {
    if (denied(f) || over(f)) continue;
    const word = (f.groups.n ?? "").toLowerCase();
    const count = word === "twins" ? 2 : word === "triplets" ? 3 : (NUMBER_WORDS[word] ?? Number(word));
    const noun = f.text.split(/\s+/).at(-1)?.toLowerCase() ?? "";
    if (
      !count ||
      count > 12 ||
      (word !== "twins" && word !== "triplets" && !/kid|child|son|daughter|boy|girl|ones/.test(noun))
    )
      continue;
    out.push(childCount(count, 0.75), ...childNames(f.after));
  }
  // "my two boys are 5 and 7", "our three kids": a count said with the possessive.
  for (const f of find(
    clause,
    "^(my|our) [<n>#Value] #Adjective? (kids|children|sons|daughters|boys|girls|little ones)",
  )) {
    const count = NUMBER_WORDS[(f.groups.n ?? "").toLowerCase()] ?? Number(f.groups.n);
    if (count > 1 && count <= 12) out.push(childCount(count));
  }
  // "mum to Ella and Finn", "my kids, Zara and Leo, love camping".
  for (const f of find(clause, "(mum|mom|dad|mother|father|parent) to [<k>#ProperNoun+]")) {
    // "taking my mum to Paris": the user's own mother going somewhere, not the user a mother to someone.
    const someones = /\b(?:my|our|his|her|their|your|the)\s+(?:\w+\s+)?$/i.test(f.before);
    if (!denied(f) && !someones)
      out.push(...childNames(f.text.slice(f.text.search(/\bto\b/i) + 2) + f.after));
  }
  // Read from the sentence: a dash, a colon or a bracket ends the clause before the names.
  for (const pattern of KIDS_NAMED) {
    const named = pattern.exec(clause.sentence);
    // The children are the user's when the clause that mentions them is about the user.
    const mention = named ? (named[0].split(/[,:(]|\s[-–—]|\s(?:named|called|are)\s/)[0] ?? "").trim() : "";
    const at = mention ? clause.text.indexOf(mention) : -1;
    if (!named?.[1] || at < 0) continue;
    const found = foundAt(clause, at, mention);
    if (aboutUser(clause, found) && !denied(found))
      out.push(...childNames(named[1].replace(/\s*\(\d+\)/g, "")));
  }
  for (const f of find(clause, "(mum|mom|dad|mother|father|parent) of [<n>#Value]")) {
    const count = NUMBER_WORDS[(f.groups.n ?? "").toLowerCase()] ?? Number(f.groups.n);
    if (count && !denied(f)) out.push(childCount(count));
  }
  // "we took our two boys (Rhys and Owen)": the count before an aside, anywhere in the sentence (the
  // names are KIDS_NAMED's).
  const kids =
    /\b(?:our|my) (one|two|three|four|five|\d) (?:kids|children|boys|girls|sons|daughters)\s*(?:\(|[-–—]+|:)/i.exec(
      clause.sentence,
    );
  if (kids?.[1]) out.push(childCount(NUMBER_WORDS[kids[1].toLowerCase()] ?? Number(kids[1])));
  return out;
}

/** Children's names after them, each perhaps with an age in brackets: "Isla (6) and Ruby (4)". */
const KID = String.raw`(?:(?:baby|little)\s+)?\p{Lu}[\p{L}'-]*(?:\s*\(\d+\))?`;
const KID_LIST = String.raw`${KID}(?:(?:,\s*|\s+and\s+|\s*&\s*)${KID})*`;
/**
 * "my kids, Zara and Leo", "my twins Leo and Mia", "two girls, Isla (6) and Ruby (4)", "3 kids - Ava, Sam
 * and Jo", "my boys are Jack and Harry"; "mum of two: Leo and Mia".
 */
const KIDS_NAMED = [
  new RegExp(
    String.raw`\b(?:my|our|two|three|four|five|six|\d)\s+(?:(?:two|three|four|five|six|\d)\s+)?(?:little\s+)?(?:kids|children|boys|girls|sons|daughters|twins|triplets)\s*(?:[,:(]|\s[-–—]|\s(?:named|called|are))?\s*(${KID_LIST})`,
    "u",
  ),
  new RegExp(
    String.raw`\b(?:mum|mom|dad|mother|father|parent) (?:of|to) (?:two|three|four|five|six|\d)\s*(?:[,:(]|\s[-–—])\s*(${KID_LIST})`,
    "u",
  ),
];

/** "The user has 3 children." */
const childCount = (count: number, confidence = 0.7): FactDraft => ({
  slot: "children",
  value: String(count),
  says: `has ${count} ${count === 1 ? "child" : "children"}`,
  confidence,
});

/** Children's names in a list: "Ella and Finn", "Ava, Noah and Zoe". */
function childNames(list: string): FactDraft[] {
  const m =
    /^\s*,?\s*((?:(?:baby|little)\s+)?\p{Lu}[\p{L}'-]*(?:(?:,\s+|\s+and\s+|\s*&\s*)(?:(?:baby|little)\s+)?\p{Lu}[\p{L}'-]*)*)/u.exec(
      list,
    );
  const out: FactDraft[] = [];
  for (const n of m?.[1]?.split(/,\s+|\s+and\s+|\s*&\s*/) ?? []) {
    const name = n.replace(/^(?:baby|little)\s+/, "");
    if (name && !NOT_NAMES.has(name.toLowerCase()) && !(name.toLowerCase() in KIN))
      out.push({ slot: "child", value: name, says: `has a child named ${name}`, confidence: 0.7 });
  }
  return out;
}
