export {
  BearerTokenError,
  type BearerTokenProblem,
  estimateTokenBits,
  generateToken,
  MIN_TOKEN_BITS,
} from "./bearer-token.js";
export {
  createEngramMcpServer,
  type EngramMcpServerOptions,
  SERVER_NAME,
  SERVER_VERSION,
} from "./create-mcp-server.js";
export {
  DEFAULT_MAX_STREAMS,
  DEFAULT_MAX_STREAMS_PER_TOKEN,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  type EventStreamLimits,
} from "./event-streams.js";
export {
  checkHttpAccess,
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  type HttpAccessOptions,
  type HttpServerHandle,
  type HttpServerOptions,
  isLoopback,
  MCP_PATH,
  startHttpServer,
} from "./http-server.js";
export { createRequestGuard, type RequestGuard, type RequestGuardOptions } from "./request-guard.js";
export { type RunMcpServerOptions, runMcpServer } from "./run-mcp-server.js";
export { type ServeFlags, type ServeSettings, serveSettings } from "./serve-settings.js";
export {
  loadTokenFile,
  parseTokenGrants,
  TokenFileError,
  type TokenGrant,
} from "./token-grants.js";
export { ForbiddenError } from "./user-scope.js";
