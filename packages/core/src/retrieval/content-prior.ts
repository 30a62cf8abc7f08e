import { type CacheSet, tokenize } from "../model/index.js";
import { rescored } from "./query-ports.js";

// Words that carry no content in a dialogue turn: function words, and the acknowledgements and
// interjections that make up replies like "Thanks, Mel! That's so sweet of you."
const EMPTY_WORDS = new Set(
  (
    "a about after again all also am an and any are as at be been being but by can could did do does doing " +
    "for from had has have having he her here him his how i if in into is it its just me my no not now of oh " +
    "on or our out really she so some such than that the their them then there these they this those to too " +
    "up us very was we were what when where which who will with would yes yeah yep you your " +
    "thanks thank thx cheers wow haha hahaha lol great awesome cool nice sweet glad sure okay ok totally " +
    "definitely absolutely amazing lovely good sounds hey hi hello bye appreciate means much lot love " +
    "s t m re ve ll d"
  ).split(" "),
);

/** Content words in a text, capped at `saturation`, as a weight in [0, 1]. */
export function contentWeight(text: string, saturation: number): number {
  let words = 0;
  for (const token of tokenize(text)) {
    if (!EMPTY_WORDS.has(token) && ++words >= saturation) return 1;
  }
  return words / saturation;
}

/** Content words at which a turn counts as fully informative. */
export const CONTENT_SATURATION = 4;

/**
 * A content prior on fused scores: a hit whose own text says little ("Noted!", "Haha yes") loses up to
 * `strength` (in the fused score's units) so it does not rank beside the sentence that holds the answer.
 * Its neighbouring context made it match; the neighbour itself is the better hit. Stable for ties.
 */
export function applyContentPrior<T extends { score: number }>(
  hits: readonly T[],
  ownText: (hit: T) => string | undefined,
  strength: number,
  questionStrength = 0,
  caches?: CacheSet,
): T[] {
  if (strength <= 0 && questionStrength <= 0) return [...hits];
  const read = contentOf(caches);
  return rescored(hits, (hit) => {
    const text = ownText(hit);
    const content = text === undefined ? null : read(text);
    return hit.score - strength * (1 - (content?.weight ?? 1)) - (content?.asks ? questionStrength : 0);
  });
}

interface TextContent {
  readonly weight: number;
  readonly asks: boolean;
}

/**
 * What a text says, by content weight and whether it only asks; with the engine's caches, kept per text
 * (4,096 texts, cleared by forget): the same turns come back query after query, and tokenizing them was
 * most of the priors' time.
 */
function contentOf(caches?: CacheSet): (text: string) => TextContent {
  const read = (text: string): TextContent => ({
    weight: contentWeight(text, CONTENT_SATURATION),
    asks: asksOnly(text),
  });
  const kept = caches?.cache<string, TextContent>("text content", 4096);
  return kept ? (text) => kept.memo(text, () => read(text)) : read;
}

/** Whether a turn ends by asking: its answer, not the question, is the better hit. */
export function endsWithQuestion(text: string): boolean {
  return /\?["'”’)\]]*\s*$/.test(text.replace(/\s*\[shares [^\]]*\]\s*$/, ""));
}

/** Content words at which a question says enough about its speaker to be evidence of them. */
const STATING_QUESTION_WORDS = 8;

/**
 * Whether a turn only asks: it ends with a question and holds few content words. "Did you go?" loses to
 * its answer; "I'm looking for mid-century modern ideas for the new dresser in my bedroom, any sites you
 * like?" says something about the speaker, and is evidence of it.
 */
export function asksOnly(text: string): boolean {
  return endsWithQuestion(text) && contentWeight(text, STATING_QUESTION_WORDS) < 1;
}
