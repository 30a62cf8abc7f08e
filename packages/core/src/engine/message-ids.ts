import type { z } from "zod";
import { ValidationError } from "../errors/index.js";
import { type Cube, type MemoryRecord, messageId, repeatCounts, type Scope } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import type { StoragePort } from "../storage/index.js";
import type { addInputSchema } from "./schemas.js";

type ParsedAdd = z.output<typeof addInputSchema>;

/**
 * The id of each message of an add, in order: its own `id` when given; else, when it has a time (its
 * own `at` or the call's), the content identity `messageId`; else a new random id, as a turn without a
 * time cannot be told apart from the same words said again later.
 */
export function assignMessageIds(ctx: EngineContext, input: ParsedAdd, cube: Cube): string[] {
  const identities = input.messages.map((m) => ({
    userId: input.userId,
    cube,
    sessionId: m.sessionId ?? input.sessionId ?? null,
    role: m.role,
    at: m.at ?? input.at ?? null,
    text: m.content,
  }));
  const repeats = repeatCounts(identities, (identity) => JSON.stringify(identity));
  const ids = input.messages.map((m, i) => {
    const identity = identities[i] as (typeof identities)[number];
    if (m.id !== undefined) return m.id;
    return identity.at === null ? ctx.ids() : messageId({ ...identity, repeat: repeats[i] as number });
  });
  const first = new Map<string, number>();
  ids.forEach((id, i) => {
    const earlier = first.get(id);
    if (earlier !== undefined) {
      throw new ValidationError(
        `add: messages.${i}.id: repeats the id of messages.${earlier} (${JSON.stringify(id)}); give each message its own id`,
        { details: { path: `messages.${i}.id` } },
      );
    }
    first.set(id, i);
  });
  return ids;
}

/** The messages among `ids` the user has stored already (a repeated add), by id. */
export async function storedAlready(
  storage: StoragePort,
  scope: Scope,
  ids: readonly string[],
): Promise<Map<string, MemoryRecord>> {
  const found = await storage.get(scope, ids);
  return new Map(found.map((record) => [record.id, record]));
}
