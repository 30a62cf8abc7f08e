export { BoundedCache, CacheSet } from "./bounded-cache.js";
export {
  consoleLogger,
  type EngramEvent,
  type EngramEventType,
  type EventSink,
  errorMessage,
  eventSink,
  type JobRef,
  type Logger,
  reportSlow,
  type SlowOperation,
} from "./events.js";
export { factMetadata, readFact } from "./fact-metadata.js";
export { type Clock, type IdGenerator, randomIds, sequentialIds, systemClock } from "./ids.js";
export {
  EDGE_TYPES,
  type EdgeType,
  HISTORY_EVENTS,
  type HistoryEvent,
  MEMORY_KINDS,
  MEMORY_STATUSES,
  type MemoryEdge,
  type MemoryKind,
  type MemoryRecord,
  type MemoryStatus,
  type MemoryVersion,
  ROLES,
  type Role,
  type StoredMemory,
  TIERS,
  type Tier,
} from "./memory-record.js";
export { type MessageIdentity, messageId, repeatCounts, turnMessageId } from "./message-id.js";
export { messageMarks, withMessageMarks } from "./message-marks.js";
export { newRecord, versionOf } from "./new-record.js";
export { parseInput } from "./parse-input.js";
export {
  EMBEDDED_PASSAGES,
  PASSAGE_CHARS,
  passageEmbedded,
  passageIds,
  passageOf,
  passageSpans,
  withPassages,
} from "./passages.js";
export { queryTerms, tokenize } from "./query-terms.js";
export {
  AGENT_TENANT_PREFIX,
  assertScope,
  type Cube,
  cubeKey,
  cubeSchema,
  idString,
  parseCubeKey,
  type Scope,
  scopeSchema,
  storedIdString,
  userCube,
} from "./scope.js";
export {
  contextLine,
  EMBEDDED_CHARS,
  embeddedPart,
  embeddingText,
  fullTextBody,
  isContextLineOf,
  ownLine,
  passageCount,
  searchText,
} from "./search-text.js";
export { inSpan, SPAN_ERROR, type SpanAttribute, type SpanLike, type TracerLike } from "./telemetry.js";
export { MAX_MESSAGE_BYTES, withinTextLimit } from "./text-limits.js";
export { timeSchema } from "./time-schema.js";
export { cosine, dot, normalize, normalizedMean } from "./vectors.js";
