import { stemmer } from "stemmer";
import { type CacheSet, dot, queryTerms, type Scope, tokenize } from "../model/index.js";
import type { QueryPorts, SearchResult } from "./query-ports.js";

/**
 * The share of the query's words (stopwords left out, compared by stem) that the text holds, in [0, 1];
 * 0 for a query of stopwords only.
 */
export function wordCoverage(query: string, text: string): number {
  return coverageOf(query)(text);
}

/**
 * wordCoverage for one query, its words stemmed once for every text it is measured on; with the engine's
 * caches, each text's stems are kept too: the same turns come back query after query.
 */
function coverageOf(query: string, caches?: CacheSet): (text: string) => number {
  const wanted = new Set(queryTerms(query).map((t) => stemmer(t)));
  const kept = caches?.cache<string, ReadonlySet<string>>("text stems", 4096);
  const stemsOf = (text: string) => (kept ? kept.memo(text, () => textStems(text)) : textStems(text));
  return (text) => (wanted.size === 0 ? 0 : covered(wanted, stemsOf(text)));
}

/** The distinct stems of every word of a text. */
function textStems(text: string): ReadonlySet<string> {
  return new Set(tokenize(text).map((token) => stemmer(token)));
}

function covered(wanted: ReadonlySet<string>, stems: ReadonlySet<string>): number {
  let found = 0;
  for (const stem of wanted) if (stems.has(stem)) found++;
  return found / wanted.size;
}

/**
 * Gives each result its `relevance` in [0, 1], which means the same whatever the query: the better of the
 * cosine similarity of its vector with the query's (below 0 read as 0) and the share of the query's words
 * its text holds. The fused `score` orders one list; `relevance` is what a threshold can be set on. A
 * result the vector channel did not list has its similarity computed from its stored vector.
 */
export async function withRelevance(
  ports: { readonly storage: Pick<QueryPorts["storage"], "getVectors">; readonly caches?: CacheSet },
  scope: Scope,
  query: string,
  vector: Float32Array | null,
  results: readonly SearchResult[],
): Promise<SearchResult[]> {
  const unscored = vector ? results.filter((r) => r.channels.vector === undefined).map((r) => r.id) : [];
  const stored = unscored.length ? await ports.storage.getVectors(scope, unscored) : new Map();
  const coverage = coverageOf(query, ports.caches);
  return results.map((r) => {
    const own = stored.get(r.id);
    const cosine =
      r.channels.vector?.score ?? (vector && own && own.length === vector.length ? dot(vector, own) : 0);
    const text = r.passage ? r.passage.text : r.text;
    const relevance = Math.max(0, Math.min(1, Math.max(cosine, coverage(text))));
    return { ...r, relevance };
  });
}
