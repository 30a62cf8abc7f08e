import { describe, expect, it } from "vitest";
import { UsageError } from "./cli-error.js";
import { storeTarget } from "./open-engram.js";

describe("storeTarget", () => {
  it("uses the SQLite file by default, and ENGRAM_DB when set", () => {
    expect(storeTarget({}, {})).toEqual({ kind: "sqlite", path: ".engram/engram.db" });
    expect(storeTarget({}, { ENGRAM_DB: "x.db" })).toEqual({ kind: "sqlite", path: "x.db" });
  });

  it("uses Qdrant from --qdrant-url or QDRANT_URL, with the key and prefix from the environment", () => {
    const env = { QDRANT_API_KEY: "k", ENGRAM_QDRANT_PREFIX: "team_" };
    expect(storeTarget({ "qdrant-url": "http://q:6333" }, env)).toEqual({
      kind: "qdrant",
      url: "http://q:6333",
      apiKey: "k",
      prefix: "team_",
    });
    expect(storeTarget({}, { QDRANT_URL: "https://q.example:443" })).toEqual({
      kind: "qdrant",
      url: "https://q.example:443",
    });
  });

  it("lets a flag beat the environment", () => {
    expect(storeTarget({ db: "x.db" }, { QDRANT_URL: "http://q:6333" })).toEqual({
      kind: "sqlite",
      path: "x.db",
    });
    expect(storeTarget({ "qdrant-url": "http://q:6333" }, { ENGRAM_DB: "x.db" }).kind).toBe("qdrant");
  });

  it("refuses both stores on the command line, and a URL that is not http(s)", () => {
    expect(() => storeTarget({ db: "x.db", "qdrant-url": "http://q:6333" }, {})).toThrow(UsageError);
    expect(() => storeTarget({ "qdrant-url": "localhost:6333" }, {})).toThrow(
      /expected http\(s\):\/\/host:port/,
    );
  });
});
