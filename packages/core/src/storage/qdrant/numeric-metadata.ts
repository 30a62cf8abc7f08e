import { match, type QFilter } from "./filter.js";
import { NUMERIC_METADATA, PAYLOAD_VERSION, type Payload } from "./payload.js";
import type { Operation, Points } from "./points.js";

/** Point ids per update, as the reads bound theirs. */
const IDS_PER_UPDATE = 1000;

/** Points not yet carrying `meta_num`: written by a version of Engram before range filters. */
const OUTDATED: QFilter = { must_not: [match(PAYLOAD_VERSION, 1)] };

/** The numeric fields of a point's `meta` keywords (`JSON.stringify([name, value])`, see payload.ts). */
function numbersOf(payload: Payload): { k: string; v: number }[] {
  const terms = Array.isArray(payload.meta) ? payload.meta : [];
  return terms.flatMap((term) => {
    if (typeof term !== "string") return [];
    const parsed: unknown = JSON.parse(term);
    if (!Array.isArray(parsed)) return [];
    const [k, v] = parsed as [unknown, unknown];
    return typeof k === "string" && typeof v === "number" ? [{ k, v }] : [];
  });
}

/**
 * Gives every point of these collections written before `meta_num` existed its numeric metadata, read
 * back from its `meta` keywords, so a range filter sees old memories as it sees new ones. Each update
 * applies only while the point is still outdated: a write that replaced it meanwhile is left as written.
 * A store written by this version has no outdated point, and this is one empty scroll per collection.
 */
export async function upgradeNumericMetadata(
  points: Points,
  collections: readonly string[],
): Promise<number> {
  let upgraded = 0;
  for (const collection of collections) {
    const outdated = await points.scroll(collection, OUTDATED, { include: ["meta"] });
    if (outdated.length === 0) continue;
    const byValue = new Map<string, string[]>();
    for (const point of outdated) {
      const key = JSON.stringify(numbersOf(point.payload));
      const ids = byValue.get(key);
      if (ids) ids.push(point.id);
      else byValue.set(key, [point.id]);
    }
    const ops: Operation[] = [];
    for (const [numbers, ids] of byValue) {
      for (let i = 0; i < ids.length; i += IDS_PER_UPDATE) {
        ops.push({
          set_payload: {
            payload: { [NUMERIC_METADATA]: JSON.parse(numbers), [PAYLOAD_VERSION]: 1 },
            filter: { must: [{ has_id: ids.slice(i, i + IDS_PER_UPDATE) }], ...OUTDATED },
          },
        });
      }
    }
    await points.apply(collection, ops);
    upgraded += outdated.length;
  }
  return upgraded;
}
