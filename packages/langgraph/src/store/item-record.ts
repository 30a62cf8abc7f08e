import type { ItemMetadata, MemoryRecord } from "@engram/core";
import type { Item, SearchItem } from "@langchain/langgraph-checkpoint";
import { textAtPath } from "./text-at-path.js";

/** The text an item is searched by: the texts at the indexed fields, one per line (LangGraph's paths). */
export function indexText(value: Record<string, unknown>, fields: readonly string[]): string {
  const texts = fields.flatMap((field) => textAtPath(value, field));
  return texts.filter((t) => t.trim() !== "").join("\n");
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
