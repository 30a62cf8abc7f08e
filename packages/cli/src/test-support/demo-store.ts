import { createEngram, type Engram } from "@engram/core";
import { loadSessions } from "../demo-data.js";

export const DEMO_USER = "maya";

/**
 * The store `pnpm demo` builds, without its printing: the sample conversation ingested session by session
 * under the demo's policy and clock, so every tier holds something, then the demo's feedback correction.
 */
export async function buildDemoStore(path: string): Promise<void> {
  const clock = { now: new Date("2026-01-01T00:00:00Z") };
  const engram: Engram = await createEngram({
    path,
    policy: { preset: "paper", shortTermCapacity: 4, evictionBatch: 4, retrieveFacts: 5 },
    background: false,
    clock: () => clock.now,
  });
  try {
    for (const session of loadSessions()) {
      const last = session.turns.at(-1)?.at ?? session.turns[0]?.at ?? "";
      clock.now = new Date(Date.parse(last) + 60_000);
      const messages = session.turns.map(({ role, content, at }) => ({ role, content, at }));
      await engram.add({ userId: DEMO_USER, sessionId: session.id, messages });
      await engram.flush();
    }
    clock.now = new Date("2026-02-25T09:00:00Z");
    await engram.feedback({ userId: DEMO_USER, text: "Actually I work at Lumen Grid now, not Freightly." });
    await engram.flush();
  } finally {
    await engram.close();
  }
}
