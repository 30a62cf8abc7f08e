import type { SearchResult } from "@engram/core";
import { formatTable, respond, shortTime, truncate } from "../cli-output.js";
import {
  filterFlag,
  fractionFlag,
  integerFlag,
  parseCommandArgs,
  READONLY_OPTION,
  requireFlag,
} from "../command-args.js";
import { requireKnownUser, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

/** The JSON shape of one result: the search result without the full record. */
function resultJson(r: SearchResult) {
  return {
    id: r.id,
    text: r.text,
    score: r.score,
    relevance: r.relevance ?? null,
    tier: r.tier,
    kind: r.kind,
    at: r.at,
    channels: r.channels,
  };
}

function channelSummary(r: SearchResult): string {
  const parts: string[] = [];
  if (r.channels.fulltext) parts.push(`text#${r.channels.fulltext.rank}`);
  if (r.channels.vector) parts.push(`vector#${r.channels.vector.rank}`);
  return parts.join(" ");
}

function renderResults(results: readonly SearchResult[], query: string): string {
  if (results.length === 0) return `no memories match ${JSON.stringify(query)}`;
  return formatTable(
    ["#", "score", "relevance", "tier", "at", "found by", "id", "text"],
    results.map((r, i) => [
      String(i + 1),
      r.score.toFixed(3),
      r.relevance === undefined ? "-" : r.relevance.toFixed(2),
      r.tier,
      shortTime(r.at),
      channelSummary(r),
      r.id,
      truncate(r.memory.name ? `${r.memory.name}: ${r.text}` : r.text, 100),
    ]),
  );
}

export async function runSearch(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      user: { type: "string" },
      k: { type: "string" },
      filter: { type: "string" },
      "min-score": { type: "string" },
      ...READONLY_OPTION,
    },
    { names: ["QUERY"] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memories to search)");
  const k = integerFlag(values.k, "k", { min: 1, max: 1000 }) ?? 10;
  const query = positionals[0] as string;
  const filter = filterFlag(values.filter);
  const minScore = fractionFlag(values["min-score"], "min-score");
  const results = await withEngram(
    values,
    ctx.env,
    { mustExist: true, warnFailing: { userId, stderr: ctx.io.stderr } },
    async (engram) => {
      await requireKnownUser(engram, userId);
      return engram.search({
        userId,
        query,
        limit: k,
        ...(filter ? { filter } : {}),
        ...(minScore === undefined ? {} : { minScore }),
      });
    },
  );
  return respond(values.json, { results: results.map(resultJson) }, () => renderResults(results, query));
}
