export { EngramCheckpointer, type EngramCheckpointerOptions } from "./checkpoint/engram-checkpointer.js";
export {
  EngramGraphMemory,
  type EngramGraphMemoryOptions,
  EngramMemory,
  type EngramMemoryOptions,
  EngramMemoryState,
  type EngramMemoryStateType,
} from "./memory/engram-memory.js";
export { EngramStore, type EngramStoreOptions } from "./store/engram-store.js";
