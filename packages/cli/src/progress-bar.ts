import type { CliStream } from "./cli-io.js";

export interface ProgressBar {
  update(done: number, total: number): void;
  /** Clears the bar so the next line starts clean. */
  finish(): void;
}

const WIDTH = 28;
const REDRAW_MS = 80;

/** A one-line progress bar on a terminal; does nothing when the stream is not a TTY (pipes, files, CI). */
export function progressBar(stream: CliStream, label: string, now: () => number = Date.now): ProgressBar {
  if (!stream.isTTY) return { update() {}, finish() {} };
  // Its own control sequence goes past the escaping of a terminalStream; the text goes through it.
  const clearLine = () => (stream.raw ?? stream).write("\r\x1b[K");
  const started = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(done, total) {
      const t = now();
      if (done < total && t - lastDraw < REDRAW_MS) return;
      lastDraw = t;
      const ratio = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(ratio * WIDTH);
      const rate = done / Math.max(0.001, (t - started) / 1000);
      const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
      const pct = `${Math.floor(ratio * 100)}`.padStart(3);
      clearLine();
      stream.write(`${label} ${bar} ${pct}% ${done}/${total} (${rate.toFixed(0)}/s)`);
      drawn = true;
    },
    finish() {
      if (drawn) clearLine();
      drawn = false;
    },
  };
}
