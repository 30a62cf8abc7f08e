export type { AddResult } from "./add-messages.js";
export { createEngram, type EngramOptions } from "./create-engram.js";
export { Engram } from "./engram.js";
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportDump,
  exportDumpSchema,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from "./export-import.js";
export type { ItemChanges, ItemListInput, ItemMetadata, ItemPut, ItemsApi } from "./items-api.js";
export type { KvApi, KvChanges, KvListInput } from "./kv-api.js";
export type { MemoriesApi, SegmentsInput, SegmentView } from "./memories-api.js";
export type { ProfileTrait } from "./profile.js";
export type { ReembedInput, ReembedProgress, ReembedResult } from "./reembed.js";
export { type RetrieveInput, type RetrieveResult, retrieveInputSchema } from "./retrieve-context.js";
export type {
  AddInput,
  FeedbackInput,
  FusionConfig,
  ListInput,
  MemoryRef,
  MessageInput,
  SearchInput,
  UpdateInput,
  UserInput,
} from "./schemas.js";
export { messageSchema, searchInputSchema, timeSchema } from "./schemas.js";
export type { SearchResult } from "./search-memories.js";
export { type StampedTurn, stampTurn, type WrapperTurn } from "./stamp-turn.js";
