import { describe, expect, it } from "vitest";
import { testRecord } from "../testing/index.js";
import { messageMarks, withMessageMarks } from "./message-marks.js";

describe("message marks", () => {
  it("read the keys stores already hold, and set them without touching the caller's metadata", () => {
    // Stores written by earlier versions hold these exact keys: renaming one would re-screen every turn.
    const stored = testRecord("m", "u", "I live in Oslo.", { metadata: { screened: true, topic: "home" } });
    expect(messageMarks(stored)).toEqual({ analyzed: false, screened: true });
    const marked = withMessageMarks(stored, { analyzed: true });
    expect(marked.metadata).toEqual({ screened: true, topic: "home", analyzed: true });
    expect(messageMarks(testRecord("n", "u", "hi", { metadata: { analyzed: "yes" } })).analyzed).toBe(false);
  });
});
