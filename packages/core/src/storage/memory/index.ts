export { MemoryStorage, memoryStorage } from "./memory-storage.js";
