// The Qdrant backend is imported from ./qdrant/ by those who use it, so the engine never loads it.
export { assertWritable } from "./read-only.js";
export {
  DEFAULT_DB_PATH,
  READ_ONLY_SNAPSHOT_MAX_BYTES,
  SqliteStorage,
  type SqliteStorageOptions,
  sqliteStorage,
} from "./sqlite/index.js";
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
