// The MCP server over stdio, started from the installed engram-mcp command, driven by the SDK's client.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { check, tempDb } from "./check.js";

// The command an MCP client configuration names: the package's bin, as npm installed it.
const bin = join(process.cwd(), "node_modules", ".bin", "engram-mcp");

const transport = new StdioClientTransport({
  command: bin,
  args: ["--db", tempDb("mcp"), "--user", "ada", "--no-embed"],
  stderr: "inherit",
});
const client = new Client({ name: "engram-consumer", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
check(
  tools.some((t) => t.name === "add_memory"),
  "the server lists add_memory",
);
await client.callTool({ name: "add_memory", arguments: { user_input: "My beagle is called Biscuit." } });
const found = await client.callTool({ name: "search_memory", arguments: { query: "beagle" } });
check(JSON.stringify(found).includes("Biscuit"), "search_memory finds what add_memory stored");
await client.close();
console.log(`mcp: stdio server answered ${tools.length} tools, stored and found a memory`);
