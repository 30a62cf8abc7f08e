// Preloaded (--import) into the MCP conformance CLI, which has no option for request headers: every request
// it sends, through fetch or undici, carries Engram's bearer token, as a configured MCP client's would.
import { createRequire } from "node:module";

const token = process.env.ENGRAM_CONFORMANCE_TOKEN;
if (!token)
  throw new Error("conformance-bearer.mjs: set ENGRAM_CONFORMANCE_TOKEN to the server's bearer token");

// undici as the CLI itself loads it, so that both share one global dispatcher.
const cli = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json");
const { getGlobalDispatcher, setGlobalDispatcher } = createRequire(cli)("undici");

const AUTHORIZATION = `Bearer ${token}`;

/** Request headers in any of the shapes undici passes them, with Authorization added when absent. */
function withBearer(headers) {
  if (headers == null) return { authorization: AUTHORIZATION };
  if (Array.isArray(headers)) {
    const names = headers.flat().filter((_, i) => i % 2 === 0);
    if (names.some((n) => String(n).toLowerCase() === "authorization")) return headers;
    return Array.isArray(headers[0])
      ? [...headers, ["authorization", AUTHORIZATION]]
      : [...headers, "authorization", AUTHORIZATION];
  }
  const entries = typeof headers[Symbol.iterator] === "function" ? [...headers] : Object.entries(headers);
  if (entries.some(([n]) => n.toLowerCase() === "authorization")) return headers;
  return { ...Object.fromEntries(entries), authorization: AUTHORIZATION };
}

setGlobalDispatcher(
  getGlobalDispatcher().compose(
    (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: withBearer(options.headers) }, handler),
  ),
);
