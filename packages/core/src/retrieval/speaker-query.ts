import type { Scope } from "../model/index.js";
import type { QueryPorts } from "./query-ports.js";
import { namedSpeakers } from "./speaker-prior.js";

/** The newest turns whose speakers a query's names are checked against. */
const SPEAKER_PROBE = 50;

/** A word after the first that starts with a capital and goes on with a letter: not "What", "I", "I'm". */
const NAME_LIKE = /[^\p{L}\p{N}'’]\p{Lu}\p{L}/u;

/** How the channels search a query: `dense` is embedded for the vector channel, `text` goes to full-text. */
export interface QueryForms {
  readonly dense: string;
  readonly text: string;
  /** The speaker the query is about, when it names exactly one; null leaves the query as it is. */
  readonly speaker: string | null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The name as whole words, and its possessive ("Melanie's", "Melanie’s"), case-insensitive. */
function namePatterns(name: string) {
  const words = name.trim().split(/\s+/).map(escapeRegExp).join("\\s+");
  return {
    possessive: new RegExp(`(?<![\\p{L}\\p{N}])${words}['’]s(?![\\p{L}\\p{N}])`, "giu"),
    plain: new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, "giu"),
  };
}

const PRONOUNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:herself|himself)\b/gi, "myself"],
  [/\b(?:her|his)\b/gi, "my"],
  [/\b(?:she|he)\b/gi, "I"],
  [/\bhim\b/gi, "me"],
];

/**
 * The question as the person it names would put it: the name becomes "I", the possessive "my", and the
 * third-person pronouns the first person ("What activities has Melanie done with her family?" -> "What
 * activities has I done with my family?"). A person's own turns speak of them that way, and the embedder
 * matches a sentence's form as well as its words; grammar beyond that does not move the vector much.
 */
export function firstPerson(query: string, name: string): string {
  const { possessive, plain } = namePatterns(name);
  let out = query.replace(possessive, "my").replace(plain, "I");
  for (const [pattern, replacement] of PRONOUNS) out = out.replace(pattern, replacement);
  return out.replace(/\s+/g, " ").trim();
}

/**
 * The question without the name, for full-text: the other party says the name ("Wow, Melanie!") far more
 * often than its owner does, so as a search term it lists the wrong person's turns.
 */
export function withoutName(query: string, name: string): string {
  const { possessive, plain } = namePatterns(name);
  return query.replace(possessive, " ").replace(plain, " ").replace(/\s+/g, " ").trim();
}

/** The query's forms when it names no speaker, or the stage is off. */
export const asGiven = (query: string): QueryForms => ({ dense: query, text: query, speaker: null });

/**
 * Stage 0, the speaker's query: when the query names exactly one speaker of the user's newest turns
 * (a two-party chat names its speakers in every exchange), the channels search it as that speaker would
 * say it: in the first person for the vector channel, without the name for full-text. The speaker prior
 * then lifts that speaker's turns, so the name is not lost. Off with the speaker prior; a query naming
 * both parties, or with no capitalised word after its first, is left as it is.
 */
export async function speakerQuery(
  ports: Pick<QueryPorts, "retrieval"> & { storage: Pick<QueryPorts["storage"], "scan"> },
  scope: Scope,
  query: string,
): Promise<QueryForms> {
  const { speakerQuery: on, speakerPrior } = ports.retrieval;
  // A name is a capitalised word; a query with none but its first word (and "I") is not looked into.
  if (!on || speakerPrior <= 0 || !NAME_LIKE.test(query)) return asGiven(query);
  const newest = await ports.storage.scan(scope, {
    filter: { kinds: ["message"], current: true },
    order: "desc",
    limit: SPEAKER_PROBE,
  });
  const named = namedSpeakers(
    query,
    newest.map((m) => m.name),
  );
  if (named.size !== 1) return asGiven(query);
  const speaker = newest.find((m) => m.name?.toLowerCase() === [...named][0])?.name as string;
  const text = withoutName(query, speaker);
  // A query that is only the name keeps it: there is nothing else to search for.
  if (!/[\p{L}\p{N}]/u.test(text)) return asGiven(query);
  return { dense: firstPerson(query, speaker), text, speaker };
}
