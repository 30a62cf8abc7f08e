import { tokenize } from "../model/index.js";
import { rescored } from "./query-ports.js";

/**
 * A speaker prior on fused scores: when the query names a speaker ("What did Caroline research?"), turns
 * that speaker said gain `strength` (in the fused score's units). The other party often says the name too
 * ("Wow, Caroline!") without saying anything about them, and full-text cannot tell the two apart.
 */
export function applySpeakerPrior<T extends { score: number }>(
  hits: readonly T[],
  query: string,
  speakerOf: (hit: T) => string | null | undefined,
  strength: number,
): T[] {
  if (strength <= 0) return [...hits];
  const named = namedSpeakers(
    query,
    hits.map((hit) => speakerOf(hit)),
  );
  if (named.size === 0) return [...hits];
  return rescored(hits, (hit) => {
    const speaker = speakerOf(hit)?.toLowerCase();
    return speaker && named.has(speaker) ? hit.score + strength : hit.score;
  });
}

/** The speakers (lower-cased) among `speakers` whose whole name appears in the query as words. */
export function namedSpeakers(query: string, speakers: readonly (string | null | undefined)[]): Set<string> {
  const words = ` ${tokenize(query).join(" ")} `;
  const named = new Set<string>();
  for (const speaker of new Set(speakers)) {
    if (!speaker) continue;
    const name = tokenize(speaker).join(" ");
    if (name && words.includes(` ${name} `)) named.add(speaker.toLowerCase());
  }
  return named;
}
