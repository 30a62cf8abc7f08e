// The storage port alone. Backends (./sqlite/, ./qdrant/) are imported by those who use them: the
// default SQLite store by createEngram, the Qdrant one by the user, so a program loads only its own.
export {
  type MetadataCondition,
  type MetadataFilter,
  type MetadataValue,
  matchesMetadata,
  metadataConditions,
  metadataMatcher,
} from "./metadata-filter.js";
export { assertWritable } from "./read-only.js";
export { assertStorageSpecification, STORAGE_SPECIFICATION_VERSION } from "./specification.js";
export type {
  ClaimOptions,
  EdgeQuery,
  Erasure,
  ForgetCounts,
  ForgetReport,
  Hit,
  Job,
  JobStatus,
  KvEntry,
  KvListOptions,
  KvPut,
  MemoryFilter,
  NewJob,
  RestoredJobState,
  ScanOptions,
  StorageCapabilities,
  StoragePort,
  StorageStats,
  TextQuery,
  TextStats,
  VectorQuery,
  VectorStats,
  WriteBatch,
  WriteResult,
} from "./storage-port.js";
export { JOB_STATUSES } from "./storage-port.js";
