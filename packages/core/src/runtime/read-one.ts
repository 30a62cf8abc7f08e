import { NotFoundError } from "../errors/index.js";
import type { MemoryKind, MemoryRecord, Scope } from "../model/index.js";
import type { EngineContext } from "./engine-context.js";

/** The user's memory `id` (of `kind`, when given), or a NotFoundError that says how to find valid ids. */
export async function readOne(
  ctx: EngineContext,
  scope: Scope,
  id: string,
  where: string,
  kind?: MemoryKind,
): Promise<MemoryRecord> {
  const [record] = await ctx.storage.get(scope, [id]);
  if (record && (kind === undefined || record.kind === kind)) return record;
  throw new NotFoundError(
    `${where}: no ${kind ?? "memory"} ${id} for user ${scope.userId}; list the user's ${kind ? `${kind}s` : "memories"} to find valid ids`,
    { details: { id, userId: scope.userId } },
  );
}
