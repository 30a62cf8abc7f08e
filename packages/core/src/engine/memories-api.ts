import { z } from "zod";
import { ValidationError } from "../errors/index.js";
import {
  idString,
  MEMORY_KINDS,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  parseInput,
  passageCount,
  passageIds,
  passageOf,
  versionOf,
  withPassages,
} from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { embedJob, embedRecords, readOne, untilStored } from "../runtime/index.js";
import { assertWritable } from "../storage/index.js";
import { type HeatParts, heatParts, type SegmentState, segmentState } from "../updating/index.js";
import { withFactKeys, withTimes } from "./add-messages.js";
import { relinkFollower } from "./relink-context.js";
import {
  type ListInput,
  listInputSchema,
  type MemoryRef,
  memoryRefSchema,
  type UpdateInput,
  updateInputSchema,
} from "./schemas.js";

/** Reading and editing single memories; every call is scoped by userId. */
export interface MemoriesApi {
  get(ref: MemoryRef): Promise<MemoryRecord>;
  list(input: ListInput): Promise<MemoryRecord[]>;
  /** Changes text and/or metadata; the version goes up and the new state is appended to history. */
  update(input: UpdateInput): Promise<MemoryRecord>;
  /** Removes the memory with its vector, history and edges. */
  delete(ref: MemoryRef): Promise<void>;
  /** Every version of the memory, oldest first. */
  history(ref: MemoryRef): Promise<MemoryVersion[]>;
  /** The memory's edges in both directions (part_of, derived_from, supersedes...). */
  edges(ref: MemoryRef): Promise<MemoryEdge[]>;
  /** The user's mid-term segments, hottest first, with their heat and its parts at the clock's now. */
  segments(input: SegmentsInput): Promise<SegmentView[]>;
}

export interface SegmentView extends HeatParts {
  readonly memory: MemoryRecord;
  readonly state: SegmentState;
}

const segmentsInputSchema = z.object({
  userId: idString,
  limit: z.number().int().min(1).max(100_000).default(1000),
});
export type SegmentsInput = z.input<typeof segmentsInputSchema>;

const LISTED_KINDS = MEMORY_KINDS.filter((kind) => kind !== "passage");

export function memoriesApi(ctx: EngineContext): MemoriesApi {
  return {
    async get(raw) {
      const ref = parseInput(memoryRefSchema, raw, "memories.get");
      return readOne(ctx, { userId: ref.userId }, ref.id, "memories.get");
    },
    async list(raw) {
      const input = parseInput(listInputSchema, raw, "memories.list");
      return ctx.storage.scan(
        { userId: input.userId },
        {
          filter: {
            // Passages are listed when asked for: they are parts of the turns listed.
            kinds: input.kinds ?? LISTED_KINDS,
            ...(input.tiers ? { tiers: input.tiers } : {}),
            ...(input.sessionId ? { sessionId: input.sessionId } : {}),
            ...(input.includeExpired ? {} : { current: true }),
          },
          limit: input.limit,
          offset: input.offset,
          order: input.order,
        },
      );
    },
    async update(raw) {
      const input = parseInput(updateInputSchema, raw, "memories.update");
      assertWritable(ctx.storage, "memories.update");
      // Conditional on the memory (and the turn after it) as read: a job of this or another process may
      // embed or move it meanwhile, and the update is then made again on what it stored.
      return untilStored("memories.update", () => updateOnce(ctx, input));
    },
    async delete(raw) {
      const ref = parseInput(memoryRefSchema, raw, "memories.delete");
      assertWritable(ctx.storage, "memories.delete");
      const scope = { userId: ref.userId };
      // Conditional on the memory and the turn after it as read: the next turn takes the deleted one's
      // context, so a context another writer gave it meanwhile is read again rather than lost.
      await untilStored("memories.delete", async () => {
        const old = await readOne(ctx, scope, ref.id, "memories.delete");
        refusePassage(old, "memories.delete");
        const { upsert, jobs, read } = await relinkFollower(ctx, scope, old, null);
        const { conflicts } = await ctx.storage.write(scope, {
          // A long turn's passages go with it.
          deleteIds: [ref.id, ...passageIds(old)],
          upsert,
          jobs,
          expect: [old, ...read],
        });
        return conflicts.length ? null : true;
      });
    },
    async history(raw) {
      const ref = parseInput(memoryRefSchema, raw, "memories.history");
      const scope = { userId: ref.userId };
      await readOne(ctx, scope, ref.id, "memories.history");
      return ctx.storage.history(scope, ref.id);
    },
    async edges(raw) {
      const ref = parseInput(memoryRefSchema, raw, "memories.edges");
      const scope = { userId: ref.userId };
      await readOne(ctx, scope, ref.id, "memories.edges");
      const [from, to] = await Promise.all([
        ctx.storage.edges(scope, { from: ref.id }),
        ctx.storage.edges(scope, { to: ref.id }),
      ]);
      return [...from, ...to];
    },
    async segments(raw) {
      const input = parseInput(segmentsInputSchema, raw, "memories.segments");
      const segments = await ctx.storage.scan(
        { userId: input.userId },
        { filter: { kinds: ["segment"], current: true }, limit: input.limit },
      );
      const now = ctx.clock();
      return segments
        .map((memory) => {
          const state = segmentState(memory);
          return { memory, state, ...heatParts(state, now, ctx.policy) };
        })
        .sort((a, b) => b.heat - a.heat);
    },
  };
}

/** A passage is part of its turn: edited and deleted through it. */
function refusePassage(record: MemoryRecord, where: string): void {
  const of = passageOf(record);
  if (of) {
    throw new ValidationError(
      `${where}: ${record.id} is a passage of ${of.turn}; edit or delete that turn instead`,
      { details: { id: record.id, turn: of.turn } },
    );
  }
}

/** An edit that replaced a long turn's metadata keeps its passage count (its passages are unchanged). */
function keepPassageCount(edited: MemoryRecord, old: MemoryRecord): MemoryRecord {
  const count = passageCount(old);
  return count && passageCount(edited) !== count
    ? { ...edited, metadata: { ...edited.metadata, passages: count } }
    : edited;
}

async function updateOnce(
  ctx: EngineContext,
  input: z.output<typeof updateInputSchema>,
): Promise<MemoryRecord | null> {
  const scope = { userId: input.userId };
  const old = await readOne(ctx, scope, input.id, "memories.update");
  refusePassage(old, "memories.update");
  const now = ctx.clock().toISOString();
  const text = input.text ?? old.text;
  // A turn's relative dates (and fact keys) are read again from its new text, unless the caller gives
  // the metadata.
  const { times: _stale, factKeys: _keys, ...kept } = old.metadata;
  const metadata =
    input.metadata ??
    (text !== old.text && old.kind === "message"
      ? (
          await withFactKeys(ctx, {
            ...old,
            text,
            metadata: withTimes(kept, text, old.validFrom ?? old.createdAt),
          })
        ).metadata
      : old.metadata);
  const edited: MemoryRecord = {
    ...old,
    text,
    metadata,
    version: old.version + 1,
    updatedAt: now,
    // Re-embedded below when the text changed; embedRecords marks it pending again if that fails.
    status: input.text !== undefined && input.text !== old.text ? "ready" : old.status,
  };
  const textChanged = edited.text !== old.text;
  // A long turn's passages follow its text (new metadata given by the caller keeps their count).
  const { turn: next, passages } = textChanged
    ? withPassages(edited)
    : { turn: keepPassageCount(edited, old), passages: [] };
  const gone = textChanged ? passageIds(old).filter((id) => !passages.some((p) => p.id === id)) : [];
  // New metadata with the same text: the passages take it too (a metadata filter selects them with their
  // turn), each keeping its stored vector (left out of the upsert).
  const retagged = !textChanged && input.metadata !== undefined ? withPassages(edited).passages : [];
  const embedded = textChanged
    ? await embedRecords(ctx, [...passages, next])
    : { stored: [next, ...retagged].map((record) => ({ record })), error: null };
  const { error } = embedded;
  // The turn first: the caller gets it back; its passages after.
  const stored = [
    ...embedded.stored.filter((s) => s.record.id === next.id),
    ...embedded.stored.filter((s) => s.record.id !== next.id),
  ];
  const version = versionOf(next, "update", now);
  const relinked = textChanged
    ? await relinkFollower(ctx, scope, old, next)
    : { upsert: [], jobs: [], read: [] };
  const { conflicts } = await ctx.storage.write(scope, {
    upsert: [...stored, ...relinked.upsert],
    ...(gone.length ? { deleteIds: gone } : {}),
    history: [version],
    jobs: [
      ...(error ? [embedJob.create(ctx, { ids: [...passages.map((p) => p.id), next.id] }, now)] : []),
      ...relinked.jobs,
    ],
    expect: [old, ...relinked.read],
  });
  return conflicts.length ? null : (stored[0] as (typeof stored)[number]).record;
}
