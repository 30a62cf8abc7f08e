import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ValidationError } from "@engram/core";
import { afterAll, describe, expect, it } from "vitest";
import { BearerTokenError } from "./bearer-token.js";
import { serveSettings } from "./serve-settings.js";
import { loadTokenFile, parseTokenGrants, TokenFileError } from "./token-grants.js";

const dir = mkdtempSync(join(tmpdir(), "engram-mcp-tokens-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = "s3cret-token-that-must-never-be-shown";
let files = 0;

function tokenFile(content: unknown): string {
  const file = join(dir, `tokens-${files++}.json`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

function failure(run: () => unknown): TokenFileError {
  try {
    run();
  } catch (error) {
    return error as TokenFileError;
  }
  throw new Error("expected an error");
}

describe("token files", () => {
  it("loads scoped and admin tokens", () => {
    const file = tokenFile({
      tokens: [
        { name: "alice's phone", token: SECRET, users: ["alice", " alice "] },
        { token: "admin-TAgOvab9CBSzxYjtTE3ShG1rK_4dTV9T", admin: true },
      ],
    });
    expect(loadTokenFile(file)).toEqual([
      { name: "alice's phone", token: SECRET, users: ["alice"] },
      { token: "admin-TAgOvab9CBSzxYjtTE3ShG1rK_4dTV9T", admin: true },
    ]);
  });

  it.each([
    ["tokens[0].users", { tokens: [{ token: SECRET }] }, /needs users: \["alice", \.\.\.\] or admin: true/],
    ["tokens[0].admin", { tokens: [{ token: SECRET, admin: true, users: ["a"] }] }, /admin: true or users/],
    ["tokens[0].users", { tokens: [{ token: SECRET, users: [] }] }, /at least one user/],
    ["tokens[0].users[1]", { tokens: [{ token: SECRET, users: ["a", " "] }] }, /must not be empty/],
    ["tokens[0].token", { tokens: [{ token: "short-secret", users: ["a"] }] }, /too easy to guess/],
    ["tokens[0].token", { tokens: [{ token: "password12345678", users: ["a"] }] }, /about 10 bits/],
    ["tokens[0].token", { tokens: [{ token: `${SECRET} x`, users: ["a"] }] }, /contains a space/],
    ["tokens[0].token", { tokens: [{ token: `${SECRET}\n`, users: ["a"] }] }, /ends with whitespace/],
    ["tokens[0].token", { tokens: [{ token: `${SECRET}"`, users: ["a"] }] }, /contains "\\""/],
    [
      "tokens[1].token",
      {
        tokens: [
          { token: SECRET, users: ["a"] },
          { token: SECRET, admin: true },
        ],
      },
      /twice/,
    ],
    ["tokens[0]", { tokens: [{ token: SECRET, user: "a", users: ["a"] }] }, /Unrecognized key: "user"/],
    ["tokens", { tokens: [] }, /at least one token/],
    ["", [{ token: SECRET, users: ["a"] }], /expected a JSON object with a tokens array/],
  ])("names %s in a clear TokenFileError and never shows the token", (path, content, message) => {
    const file = tokenFile(content);
    const error = failure(() => loadTokenFile(file));
    expect(error).toBeInstanceOf(TokenFileError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(new RegExp(`^token file ${file.replace(/[\\.]/g, "\\$&")}: `));
    expect(error.message).toMatch(message);
    expect(error.details).toEqual({ file, ...(path ? { path } : {}) });
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain("short-secret");
    expect(error.message).not.toContain("password12345678");
  });

  it("reports bad JSON and a missing file without quoting the file's text", () => {
    const bad = failure(() => loadTokenFile(tokenFile(`{"tokens": [{"token": "${SECRET}", }]}`)));
    expect(bad).toBeInstanceOf(TokenFileError);
    expect(bad.message).toMatch(/is not valid JSON; expected \{"tokens"/);
    expect(bad.message).not.toContain(SECRET);
    expect(bad.cause).toBeUndefined();
    const missing = failure(() => loadTokenFile(join(dir, "nope.json")));
    expect(missing).toBeInstanceOf(TokenFileError);
    expect(missing.message).toMatch(/nope\.json: cannot be read \(ENOENT\)/);
  });

  it("checks grants given in code the same way", () => {
    expect(() => parseTokenGrants([{ token: SECRET, users: ["a"], admin: true }])).toThrow(
      /^tokens\[0\]\.admin: give admin: true or users, not both/,
    );
  });

  it("refuses a weak or malformed token given in code with a BearerTokenError naming the entry", () => {
    const weak = failure(() =>
      parseTokenGrants([
        { token: SECRET, users: ["a"] },
        { token: "a".repeat(40), admin: true },
      ]),
    );
    expect(weak).toBeInstanceOf(BearerTokenError);
    expect(weak.details).toEqual({ path: "tokens[1].token", problem: "weak" });
    expect(weak.message).toMatch(/^tokens\[1\]\.token: token is too easy to guess: about 4 bits/);
    expect(weak.message).toContain("openssl rand -base64 32");
    const spaced = failure(() => parseTokenGrants([{ token: `${SECRET} 2`, users: ["a"] }]));
    expect(spaced).toBeInstanceOf(BearerTokenError);
    expect(spaced.details).toMatchObject({ path: "tokens[0].token", problem: "syntax" });
    expect(spaced.message).not.toContain(SECRET);
  });
});

describe("serveSettings", () => {
  it("loads --token-file (or ENGRAM_MCP_TOKEN_FILE) and splits the allow-lists", () => {
    const file = tokenFile({ tokens: [{ token: SECRET, users: ["alice"] }] });
    const flags = { http: true, "token-file": file, "allowed-hosts": "mcp.example.com, b.example.com:8443" };
    const s = serveSettings(flags, { ENGRAM_MCP_ALLOWED_ORIGINS: "https://app.example.com" });
    expect(s).toMatchObject({
      token: undefined,
      tokenFile: file,
      tokens: [{ token: SECRET, users: ["alice"] }],
      allowedHosts: ["mcp.example.com", "b.example.com:8443"],
      allowedOrigins: ["https://app.example.com"],
    });
    expect(serveSettings({ http: true }, { ENGRAM_MCP_TOKEN_FILE: file }).tokens).toHaveLength(1);
    // A flag decides over the environment, so a token file on the command line drops ENGRAM_MCP_TOKEN.
    expect(serveSettings({ http: true, "token-file": file }, { ENGRAM_MCP_TOKEN: SECRET }).token).toBe(
      undefined,
    );
  });

  it("reads the event-stream bounds, the idle timeout in seconds", () => {
    const flags = {
      http: true,
      "max-streams": "3",
      "max-streams-per-token": "1",
      "stream-idle-timeout": "30",
    };
    expect(serveSettings(flags, {})).toMatchObject({
      maxStreams: 3,
      maxStreamsPerToken: 1,
      streamIdleTimeoutMs: 30_000,
    });
    expect(serveSettings({ http: true }, {})).toMatchObject({ maxStreams: undefined });
  });

  it.each([
    [{ "max-streams": "3" }, {}, /--max-streams applies to the HTTP transport only/],
    [{ http: true, "max-streams": "-1" }, {}, /bad --max-streams "-1": expected a whole number from 0/],
    [{ http: true, "max-streams-per-token": "0" }, {}, /bad --max-streams-per-token "0": .* from 1 to/],
    [{ http: true, "stream-idle-timeout": "1.5" }, {}, /bad --stream-idle-timeout "1\.5"/],
    [{ http: true, token: "password12345678" }, {}, /bearer token is too easy to guess/],
    [{ http: true }, { ENGRAM_MCP_TOKEN: `${SECRET} ` }, /bearer token starts or ends with whitespace/],
    [{ http: true, token: SECRET, "token-file": "t.json" }, {}, /--token and --token-file both given/],
    [{ http: true }, { ENGRAM_MCP_TOKEN: SECRET, ENGRAM_MCP_TOKEN_FILE: "t.json" }, /ENGRAM_MCP_TOKEN and/],
    [{ "token-file": "t.json" }, {}, /--token-file applies to the HTTP transport only/],
    [{ "allowed-hosts": "a.example.com" }, {}, /--allowed-hosts applies to the HTTP transport only/],
    [{ http: true, "allowed-origins": "app.example.com" }, {}, /allowedOrigins\[0\] "app\.example\.com"/],
    [{ http: true, host: "0.0.0.0", "allowed-hosts": "a.example.com" }, {}, /without a bearer token/],
  ])("refuses %j with %j", (flags, env, message) => {
    expect(() => serveSettings(flags, env)).toThrow(message);
  });
});
