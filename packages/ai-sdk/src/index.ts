export type { EngramCallOptions, EngramErrorInfo, EngramMiddlewareOptions } from "./call-scope.js";
export { type EngramMiddleware, engramMiddleware } from "./engram-middleware.js";
export {
  type CorrectionResult,
  type EngramTools,
  type EngramToolsOptions,
  engramTools,
  type MemoryHit,
} from "./engram-tools.js";
