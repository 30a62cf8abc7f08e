export {
  ClosedError,
  ConflictError,
  EngramError,
  type EngramErrorCode,
  type EngramErrorOptions,
  ERROR_CODES,
  ModelError,
  NotFoundError,
  ScopeError,
  StorageError,
  UnsupportedError,
  ValidationError,
} from "./engram-error.js";
