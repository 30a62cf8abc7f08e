import { describe, expect, it } from "vitest";
import { captureIo, terminalStream } from "./cli-io.js";
import { progressBar } from "./progress-bar.js";

describe("progressBar", () => {
  it("draws on a terminal, throttles redraws, always draws completion and clears on finish", () => {
    const io = captureIo({ isTTY: true });
    let t = 0;
    const bar = progressBar(io.stderr, "ingest", () => t);
    bar.update(1, 4);
    bar.update(2, 4); // within the redraw interval: skipped
    t = 1000;
    bar.update(4, 4);
    bar.finish();
    const frames = io.stderrText().split("\r\x1b[K").filter(Boolean);
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatch(/^ingest █{7}░{21} {2}25% 1\/4 /);
    expect(frames[1]).toMatch(/^ingest █{28} 100% 4\/4 \(4\/s\)$/);
    expect(io.stderrText().endsWith("\r\x1b[K")).toBe(true);
  });

  it("clears its line through a terminal-safe stream, whose escaping would show the sequence as text", () => {
    const io = captureIo({ isTTY: true });
    let t = 0;
    const bar = progressBar(terminalStream(io.stderr), "ingest", () => t);
    bar.update(1, 2);
    t = 1000;
    bar.update(2, 2);
    bar.finish();
    expect(io.stderrText()).not.toContain("\\u001b");
    expect(io.stderrText().split("\r\x1b[K").filter(Boolean)).toHaveLength(2);
  });

  it("writes nothing when the stream is not a terminal", () => {
    const io = captureIo({ isTTY: false });
    const bar = progressBar(io.stderr, "ingest");
    bar.update(5, 10);
    bar.finish();
    expect(io.stderrText()).toBe("");
  });
});
