import { respond } from "../cli-output.js";
import { filterFlag, integerFlag, parseCommandArgs, READONLY_OPTION, requireFlag } from "../command-args.js";
import { requireKnownUser, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

export async function runContext(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    { user: { type: "string" }, budget: { type: "string" }, filter: { type: "string" }, ...READONLY_OPTION },
    { names: ["QUERY"] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memory to assemble)");
  const budgetTokens = integerFlag(values.budget, "budget", { min: 0, max: 1_000_000 }) ?? 1500;
  const filter = filterFlag(values.filter);
  const query = positionals[0] as string;
  const result = await withEngram(
    values,
    ctx.env,
    { mustExist: true, flush: true, warnFailing: { userId, stderr: ctx.io.stderr } },
    async (engram) => {
      await requireKnownUser(engram, userId);
      return engram.retrieve({ userId, query, budgetTokens, ...(filter ? { filter } : {}) });
    },
  );
  const json = {
    userId,
    query,
    tokens: result.context.tokens,
    budgetTokens,
    profile: result.context.profile,
    facts: result.context.facts,
    pages: result.context.pages,
    recent: result.context.recent,
    dropped: result.context.dropped,
    text: result.text,
  };
  return respond(
    values.json,
    json,
    () => `${result.text}\n(${result.context.tokens} of ${budgetTokens} tokens)`,
  );
}
