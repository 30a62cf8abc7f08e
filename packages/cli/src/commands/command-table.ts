// Every command's name, usage and help, with its code loaded when it runs: `engram --help` and the
// commands that need little start without loading what the others need (the MCP server, the inspector,
// the LoCoMo harness, the engine for help).

import type { CommandOutput } from "../cli-output.js";
import type { Command, CommandContext } from "./command.js";
import { DEFAULT_EVAL_DB, DEFAULT_LONGMEMEVAL_DB } from "./eval-store.js";

type Run = (args: readonly string[], ctx: CommandContext) => Promise<CommandOutput>;

function lazy(load: () => Promise<Run>): Run {
  return async (args, ctx) => (await load())(args, ctx);
}

/** The memory kinds `list --kind` takes (MEMORY_KINDS of @engram/core; a test keeps them equal). */
export const LIST_KINDS_TEXT = "message, passage, page, segment, fact, profile, item, trace, skill";

export const contextCommand: Command = {
  name: "context",
  usage: '--user U "QUERY" [--budget N] [--filter JSON]',
  summary: "the memory context a model would get for a query, within a token budget (default 1500)",
  details: [
    "--filter JSON: only memories whose metadata passes, as for search.",
    '--json prints {"tokens", "profile", "facts", "pages", "recent", "dropped", "text"}.',
  ],
  run: lazy(async () => (await import("./context-command.js")).runContext),
};

export const deleteCommand: Command = {
  name: "delete",
  usage: "ID --user U",
  summary: "remove one memory with its vector, history and edges",
  details: ['--json prints {"deleted": ID, "userId": U}.'],
  run: lazy(async () => (await import("./delete-command.js")).runDelete),
};

export const editCommand: Command = {
  name: "edit",
  usage: 'ID --user U --text "T"',
  summary: "replace a memory's text; the old text stays in its history",
  details: ['--json prints {"memory": the updated memory record}.'],
  run: lazy(async () => (await import("./edit-command.js")).runEdit),
};

export const evalCommand: Command = {
  name: "eval",
  usage:
    "locomo --data FILE [--k 5,10,20] [--fact-keys] | longmemeval --data FILE [--limit N] [--types T,...] [--fact-keys] | facts --data FILE",
  summary:
    "what search and the context hold on LoCoMo or LongMemEval (each conversation or question its own user)",
  details: [
    `locomo: --db defaults to ${DEFAULT_EVAL_DB} here, apart from the main store; its locomo/* users are replaced.`,
    `longmemeval: a .json or .json.gz file of LongMemEval questions; --db defaults to ${DEFAULT_LONGMEMEVAL_DB}, whose`,
    "lme/* users are replaced. Each question's sessions are added in date order with tier work after each, then it",
    "is asked with now = its date: session recall_all@5 and @10, turn recall@10, the evidence the 1,500-token context",
    "holds, whether a short answer is in it, per type, overall, and for the tuning half (first 5 of each type) and",
    "the check half apart. --limit N: the first N questions of each type; --types: some of single-session-user,",
    "single-session-assistant, single-session-preference, multi-session, temporal-reasoning, knowledge-update.",
    "--fact-keys (locomo, longmemeval): each turn indexed with the facts the offline rules read from it.",
    "facts: the offline extractor on labelled first-person statements (bench/data/persona-facts.json): precision,",
    "recall and F1 per slot and topic, supersession accuracy, false facts on statements that state none; overall",
    "and for the tuning and check halves (statements alternate within each topic).",
    "LoCoMo with --json:",
    '--json prints {"questions", "recall": {"5", "10", "20"}, "by_category": {"1": {"n", "recall"}, ...},',
    '"context_tokens_avg", "full_context_tokens_avg", "ingest_ms", "query_ms_p50", "query_ms_p95", "config"}.',
  ],
  run: lazy(async () => (await import("./eval-command.js")).runEval),
};

export const exportCommand: Command = {
  name: "export",
  usage: "--user U [--out FILE [--force]]",
  summary: "everything stored for a user as one JSON document (stdout, or FILE)",
  details: [
    "The document is what `engram import` reads; vectors are kept when both sides use the same embedder.",
    "--out never names the store or its files, and replaces an existing file only if export wrote it",
    "(--force replaces any other file); the document is written to a new file and renamed into place.",
    'With --out, --json prints {"userId", "out", "memories", "history"}.',
  ],
  run: lazy(async () => (await import("./export-command.js")).runExport),
};

export const feedbackCommand: Command = {
  name: "feedback",
  usage: '--user U "TEXT"',
  summary: 'correct memory in plain words ("Actually I moved to Berlin"); old facts stay in history',
  details: [
    '--json prints {"userId", "feedbackId", "created": [ids], "superseded": [ids], "edited": [ids], "affected": [ids]}.',
  ],
  run: lazy(async () => (await import("./feedback-command.js")).runFeedback),
};

export const forgetCommand: Command = {
  name: "forget",
  usage: "--user U [--verify [--wait S]]",
  summary: "erase everything stored for a user, including the deleted bytes on disk",
  details: [
    "Forgetting a user with nothing stored is not an error; the counts are then 0.",
    "While another process reads older pages of the store the bytes stay on disk: the erasure is then",
    "pending, and the store completes it once that read ends (or the next time it is opened).",
    "--verify waits up to S seconds (default 10) for that, then checks that the user's id is in none of",
    "the store's files (database, log, vector indexes);",
    "exit 1 if either fails.",
    '--json prints {"userId", "removed": {"memories", "history", "edges", "kv", "jobs"}, "erasure": {"state"}}.',
  ],
  run: lazy(async () => (await import("./forget-command.js")).runForget),
};

export const importCommand: Command = {
  name: "import",
  usage: "FILE",
  summary: "restore a user from a file written by `engram export`",
  details: [
    "The dump is validated before anything is written, and written in one transaction.",
    "Memories with the same ids are replaced. Vectors made by another embedder are recomputed,",
    "with a progress bar on a terminal.",
    '--json prints {"userId", "memories", "reembedded"}.',
  ],
  run: lazy(async () => (await import("./import-command.js")).runImport),
};

export const reembedCommand: Command = {
  name: "reembed",
  usage: "--embedder SPEC [--embedder-url URL] [--batch-size N]",
  summary: "move the store's vectors to another embedding model",
  details: [
    "Every memory that has a vector gets one from the embedder --embedder names (offline, openai:MODEL",
    "with --embedder-url and OPENAI_API_KEY, or onnx:DIR); the store then records that embedder, so",
    "opening it with the old one is refused. The move is recorded as it goes: an interrupted run (Ctrl-C,",
    "a failing model) is finished by running it again, and until then the store refuses both embedders",
    "rather than mix them.",
    '--json prints {"from", "to", "users", "memories", "resumed"}.',
  ],
  run: lazy(async () => (await import("./reembed-command.js")).runReembed),
};

export const ingestCommand: Command = {
  name: "ingest",
  usage: "--user U [--format chatgpt|claude] FILE",
  summary: "store dialogue turns from a JSONL file, a LoCoMo JSON file, or a ChatGPT or Claude data export",
  details: [
    'JSONL: one {"role": "user"|"assistant"|"system"|"tool", "content": "...", "at"?: ISO time, "name"?, "session"?, "id"?} per line.',
    "The whole file is validated first and stored in one transaction: a bad line or a failure stores nothing.",
    "Each line's identity is its id, else a hash of user, session, role, time and text (docs/message-identity.md):",
    "running the same file again stores nothing twice.",
    "LoCoMo (an array of {sample_id, conversation}): without --user each conversation becomes the user named",
    "by its sample_id; with --user U a single conversation goes to U and several to U/<sample_id>.",
    "--format chatgpt|claude: the conversations.json of the service's data export. Each conversation becomes a",
    "session with its times; system prompts, tool traffic, hidden messages and edited-away branches are left out.",
    "Stored in steps of 1,000 turns: run it again after an interruption to store the rest (nothing twice).",
    '--json prints {"format", "memories", "added", "users": [{"userId", "memories", "added", "pending", "heldUntil"?}]};',
    "pending: the user's jobs not done (a retry, or tier work a stopped run holds until heldUntil, its lease).",
    "A message holds at most 1 MiB of UTF-8 text; a longer one is refused before anything is stored.",
    "The file is UTF-8 (a byte-order mark is allowed): a byte that is not, or a UTF-16 file, is refused.",
    "SIGINT/SIGTERM stop it within about a second: exit 130/143, the interrupted batch not stored (JSONL: nothing).",
  ],
  interruptible: true,
  run: lazy(async () => (await import("./ingest-command.js")).runIngest),
};

export const listCommand: Command = {
  name: "list",
  usage: "--user U [--kind K] [--tier short|mid|long] [--limit N]",
  summary: "a user's memories, newest first",
  details: [
    `--kind: one of ${LIST_KINDS_TEXT}. --limit N: at most N memories (default 100).`,
    '--json prints {"userId", "memories": [memory record, ...]}.',
  ],
  run: lazy(async () => (await import("./list-command.js")).runList),
};

export const profileCommand: Command = {
  name: "profile",
  usage: "--user U [--at ISO-TIME]",
  summary: "the user's structured profile (current facts about them), or as it was at a time",
  details: [
    '--json prints {"userId", "profile": [{"key", "value", "confidence", "factId", "evidence", "since"}]}.',
  ],
  run: lazy(async () => (await import("./profile-command.js")).runProfile),
};

export const searchCommand: Command = {
  name: "search",
  usage: '--user U "QUERY" [--k N] [--filter JSON] [--min-score X]',
  summary: "hybrid full-text + vector search over a user's memories, best first",
  details: [
    "--k N: how many results (default 10, at most 1000).",
    `--filter JSON: only memories whose metadata passes, e.g. '{"project":"apollo","priority":{"$gte":2}}'`,
    "(a value for equality; $eq, $ne, $in, $nin; $gt, $gte, $lt, $lte on numbers).",
    "--min-score X: leave out results whose relevance (0 to 1, comparable across queries) is below X.",
    '--json prints {"results": [{"id", "text", "score", "relevance", "tier", "kind", "at", "channels"}]}, best first;',
    '"at" is the event time (ISO) or null; "channels" gives each channel\'s rank and raw score.',
  ],
  run: lazy(async () => (await import("./search-command.js")).runSearch),
};

export const serveCommand: Command = {
  name: "serve",
  usage:
    "mcp [--http [--host H] [--port P] [--token T | --token-file F] [--allowed-hosts LIST] " +
    "[--allowed-origins LIST] [--max-streams N] [--max-streams-per-token N] [--stream-idle-timeout S]] " +
    "[--user U]",
  summary: "serve the store to MCP clients over stdio (default) or Streamable HTTP, until stopped",
  details: [
    "stdio is for desktop clients that start the server themselves; see docs/mcp.md for their config.",
    "  --user U      the user for tool calls that pass no user_id (or $ENGRAM_USER)",
    "  --http        Streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    "  --host H      address to bind (default 127.0.0.1; any other address needs --token or --token-file)",
    "  --port P      port (default 8787; 0 picks a free one)",
    "  --token T     admin bearer token every request must send (or $ENGRAM_MCP_TOKEN); on 127.0.0.1 one",
    "                is generated and printed on stderr when omitted. A token needs at least 128 bits of",
    "                entropy by Engram's estimate: generate one with openssl rand -base64 32",
    "  --token-file F  JSON bearer tokens, each for some users or admin (or $ENGRAM_MCP_TOKEN_FILE):",
    '                {"tokens": [{"token": "...", "users": ["alice"]}, {"token": "...", "admin": true}]}',
    "                a request naming a user outside its token's users gets 403",
    "  --allowed-hosts LIST    comma-separated Host names to answer besides 127.0.0.1, localhost, [::1]",
    "                and the bound address, e.g. mcp.example.com (or $ENGRAM_MCP_ALLOWED_HOSTS); others get 403",
    "  --allowed-origins LIST  comma-separated browser origins to answer besides loopback ones, e.g.",
    "                https://app.example.com (or $ENGRAM_MCP_ALLOWED_ORIGINS); others get 403",
    "  --max-streams N            GET event streams open at once (default 100; more get 503; 0: none, 405)",
    "  --max-streams-per-token N  GET event streams open per token (default 8; more get 429)",
    "  --stream-idle-timeout S    seconds before a GET event stream that carried nothing is closed (default 300)",
    "Status lines go to stderr; stop with Ctrl-C (SIGINT) or SIGTERM.",
  ],
  run: lazy(async () => (await import("./serve-command.js")).runServe),
};

export const showCommand: Command = {
  name: "show",
  usage: "ID --user U",
  summary: "one memory with its version history and graph edges",
  details: [
    '--json prints {"memory": memory record, "history": [{"version", "event", "text", "at", ...}],',
    '"edges": [{"from", "to", "type", "createdAt"}]} (part_of segment, derived_from evidence, supersedes ...).',
  ],
  run: lazy(async () => (await import("./show-command.js")).runShow),
};

export const skillsCommand: Command = {
  name: "skills",
  usage:
    '[list | show ID | history ID | feedback ID "TEXT" | delete ID | traces] (--user U | --agent A) [--limit N]',
  summary: "procedures learned from the agent's traces: list, read, correct (a new version), delete",
  details: [
    "--agent A reads the skills shared with every user of agent A instead of one user's own.",
    '--json prints {"userId" or "agentId", and "skills": [...], "skill": {...}, "history": [...], "traces": [...] or "deleted": ID}.',
    "A skill: {id, name, trigger, steps: [{tool, args, note}], pitfalls, evidence, successes, failures, confidence, version, source, visibility}.",
  ],
  run: lazy(async () => (await import("./skills-command.js")).runSkills),
};

export const statsCommand: Command = {
  name: "stats",
  usage: "[--user U]",
  summary: "counts for the whole store, or for one user (0 for a user with nothing stored)",
  details: [
    '--json prints {"memories", "byKind", "byTier", "vectors", "history", "edges", "kv", "jobs", "users"}',
    '(plus "userId" and "failingJobs" with --user); "memories" counts every memory record in all tiers.',
    "With --user, background jobs that failed (retried, or failed for good) are listed with their error.",
  ],
  run: lazy(async () => (await import("./stats-command.js")).runStats),
};

export const uiCommand: Command = {
  name: "ui",
  usage: "[--host H] [--port P] [--allow-remote] [--allowed-hosts LIST] [--readonly]",
  summary: "serve the inspector: a local web page to see, search, correct and forget memories",
  details: [
    "Prints a URL with a random session token; every API request needs it, and changes must come from",
    "the page itself (same Origin). Host and Origin headers naming another site get 403.",
    "  --host H        address to bind (default 127.0.0.1; another one needs --allow-remote)",
    "  --port P        port (default 0: a free one)",
    "  --allow-remote  serve on a non-loopback --host: anyone who reaches it and has the URL sees all",
    "  --allowed-hosts LIST  comma-separated Host names to answer besides 127.0.0.1, localhost, [::1] and",
    "                the bound address, e.g. inspector.example.com (as serve mcp takes them); others get 403",
    "  --readonly      open the SQLite store read-only: browse and search, no edits",
    "Stop with Ctrl-C (SIGINT) or SIGTERM.",
  ],
  run: lazy(async () => (await import("./ui-command.js")).runUi),
};

export const usersCommand: Command = {
  name: "users",
  usage: "",
  summary: "the ids of the users with stored memory, one a line",
  details: ['--json prints {"users": ["u1", ...]}.'],
  run: lazy(async () => (await import("./users-command.js")).runUsers),
};
