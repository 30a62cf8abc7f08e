import type { MemoryRecord } from "@engram/core";
import { newRecord } from "@engram/core/integration";
import type { Item, SearchItem } from "@langchain/langgraph-checkpoint";
import { textAtPath } from "./text-at-path.js";

/** How a store item sits in a memory's metadata: the value itself, and whether it was embedded. */
export interface ItemMetadata {
  readonly value: Record<string, unknown>;
  readonly indexed: boolean;
}

/** The text an item is searched by: the texts at the indexed fields, one per line (LangGraph's paths). */
export function indexText(value: Record<string, unknown>, fields: readonly string[]): string {
  const texts = fields.flatMap((field) => textAtPath(value, field));
  return texts.filter((t) => t.trim() !== "").join("\n");
}

export interface ItemDraft {
  readonly id: string;
  readonly userId: string;
  readonly namespace: readonly string[];
  readonly key: string;
  readonly value: Record<string, unknown>;
  /** false: not embedded; otherwise the fields to index. */
  readonly fields: false | readonly string[];
  readonly now: string;
  /** The memory this put replaces, if the key exists. */
  readonly previous?: MemoryRecord;
}

/**
 * A store item as an Engram memory of kind `item`: the namespace is its cube, the key its key, the indexed
 * text its text, and the value lives in its metadata. An unindexed item keeps its JSON as text so people
 * reading the memory (the CLI, exports) still see what it holds.
 */
export function itemRecord(draft: ItemDraft): { record: MemoryRecord; embed: boolean } {
  const text = draft.fields === false ? "" : indexText(draft.value, draft.fields);
  const embed = text !== "";
  const metadata: ItemMetadata = { value: draft.value, indexed: embed };
  const shown = embed ? text : JSON.stringify(draft.value);
  if (draft.previous) {
    return {
      record: {
        ...draft.previous,
        text: shown,
        metadata: { ...metadata },
        version: draft.previous.version + 1,
        updatedAt: draft.now,
        status: "ready",
      },
      embed,
    };
  }
  const record = newRecord(
    {
      id: draft.id,
      userId: draft.userId,
      cube: [...draft.namespace],
      kind: "item",
      tier: "long",
      key: draft.key,
      text: shown,
      metadata: { ...metadata },
    },
    draft.now,
  );
  return { record, embed };
}

export function itemMetadata(record: MemoryRecord): ItemMetadata {
  const { value, indexed } = record.metadata as Partial<ItemMetadata>;
  return { value: value ?? {}, indexed: indexed === true };
}

export function toItem(record: MemoryRecord): Item {
  return {
    namespace: [...record.cube],
    key: record.key ?? "",
    value: itemMetadata(record).value,
    createdAt: new Date(record.createdAt),
    updatedAt: new Date(record.updatedAt),
  };
}

export function toSearchItem(record: MemoryRecord, score: number | undefined): SearchItem {
  return { ...toItem(record), score };
}
