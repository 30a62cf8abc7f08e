export type { AddResult } from "./add-messages.js";
export { createEngram, Engram, type EngramOptions } from "./create-engram.js";
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportDump,
  exportDumpSchema,
  type ImportResult,
} from "./export-import.js";
export type { MemoriesApi } from "./memories-api.js";
export type {
  AddInput,
  FusionConfig,
  ListInput,
  MemoryRef,
  SearchInput,
  UpdateInput,
  UserInput,
} from "./schemas.js";
export { addInputSchema, messageSchema, searchInputSchema, timeSchema } from "./schemas.js";
export type { SearchResult } from "./search-memories.js";
