#!/usr/bin/env node
import { parseArgs } from "node:util";
import { createEngram, type EmbeddingModel, EngramError, ValidationError } from "@engram/core";
import { embedderFromSpec, parseEmbedderSpec } from "@engram/core/integration";
import { DEFAULT_DB_PATH } from "@engram/core/sqlite";
import { runMcpServer } from "./run-mcp-server.js";
import { serveSettings } from "./serve-settings.js";

const USAGE = `Usage: engram-mcp [--db PATH] [--user U] [--no-embed | --embedder SPEC [--embedder-url URL]]
                  [--http [--host H] [--port P]
                  [--token T | --token-file F] [--allowed-hosts LIST] [--allowed-origins LIST]
                  [--max-streams N] [--max-streams-per-token N] [--stream-idle-timeout S]]

Serves Engram memory to MCP clients: over stdio by default (for desktop clients that spawn it),
or over Streamable HTTP at http://127.0.0.1:8787/mcp with --http.

  --db PATH     the store (default ${DEFAULT_DB_PATH}, or $ENGRAM_DB); use an absolute path in client configs
  --user U      the user for calls that pass no user_id (or $ENGRAM_USER)
  --no-embed    full-text only, no embedding model (or ENGRAM_EMBEDDER=none)
  --embedder SPEC  the embedding model: offline (default), none, openai:MODEL, or onnx:DIR (a local ONNX
                model folder; or $ENGRAM_EMBEDDER); the store records the model that made its vectors and
                refuses another
  --embedder-url URL  the OpenAI-compatible API of openai:MODEL: OpenAI, Ollama, vLLM, LM Studio
                (or $ENGRAM_EMBEDDER_URL; the key in $OPENAI_API_KEY)
  --http        serve Streamable HTTP instead of stdio
  --host H      address to bind (default 127.0.0.1; any other address needs --token or --token-file)
  --port P      port (default 8787; 0 picks a free one)
  --token T     admin bearer token clients must send (or $ENGRAM_MCP_TOKEN; generated and printed if
                omitted on 127.0.0.1); at least 128 bits of entropy, e.g. from: openssl rand -base64 32
  --token-file F  JSON file of bearer tokens, each for some users or admin (or $ENGRAM_MCP_TOKEN_FILE):
                {"tokens": [{"token": "...", "users": ["alice"]}, {"token": "...", "admin": true}]}
  --allowed-hosts LIST    comma-separated Host names to answer besides 127.0.0.1, localhost, [::1] and
                the bound address, e.g. mcp.example.com (or $ENGRAM_MCP_ALLOWED_HOSTS)
  --allowed-origins LIST  comma-separated browser origins to answer besides loopback ones, e.g.
                https://app.example.com (or $ENGRAM_MCP_ALLOWED_ORIGINS)
  --max-streams N            GET event streams open at once (default 100; more get 503; 0: none, 405)
  --max-streams-per-token N  GET event streams open per token (default 8; more get 429)
  --stream-idle-timeout S    seconds before a GET event stream that carried nothing is closed (default 300)`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      db: { type: "string" },
      user: { type: "string" },
      "no-embed": { type: "boolean" },
      embedder: { type: "string" },
      "embedder-url": { type: "string" },
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      token: { type: "string" },
      "token-file": { type: "string" },
      "allowed-hosts": { type: "string" },
      "allowed-origins": { type: "string" },
      "max-streams": { type: "string" },
      "max-streams-per-token": { type: "string" },
      "stream-idle-timeout": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const env = process.env;
  const settings = serveSettings(values, env);
  const engram = await createEngram({
    path: values.db ?? (env.ENGRAM_DB || DEFAULT_DB_PATH),
    ...(await embedderOption(values, env)),
  });
  try {
    await runMcpServer({ engram, ...settings });
  } finally {
    await engram.close();
  }
  return 0;
}

/** --no-embed, else --embedder, else ENGRAM_EMBEDDER, else the offline model (the CLI's rule). */
async function embedderOption(
  values: { "no-embed"?: boolean; embedder?: string; "embedder-url"?: string },
  env: NodeJS.ProcessEnv,
): Promise<{ embedder?: EmbeddingModel | null }> {
  if (values["no-embed"]) {
    if (values.embedder !== undefined && values.embedder !== "none") {
      throw new ValidationError(`pass either --no-embed or --embedder ${values.embedder}, not both`);
    }
    return { embedder: null };
  }
  const [text, source] =
    values.embedder !== undefined
      ? [values.embedder, "--embedder"]
      : [env.ENGRAM_EMBEDDER || "offline", "ENGRAM_EMBEDDER"];
  const spec = parseEmbedderSpec(text, source);
  if (values["embedder-url"] !== undefined && spec.kind !== "openai") {
    throw new ValidationError("--embedder-url applies to an openai:MODEL embedder (--embedder openai:MODEL)");
  }
  if (spec.kind === "offline") return {};
  const url = values["embedder-url"] ?? (env.ENGRAM_EMBEDDER_URL || undefined);
  return { embedder: await embedderFromSpec(spec, { url, apiKey: env.OPENAI_API_KEY || undefined }) };
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`engram-mcp: ${message}\n`);
  process.exitCode = EngramError.isInstance(error) || error instanceof TypeError ? 2 : 1;
}
