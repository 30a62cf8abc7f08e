export {
  type EngramAgentContext,
  type EngramAgentMiddlewareOptions,
  engramAgentMiddleware,
  engramContextSchema,
} from "./engram-agent-middleware.js";
