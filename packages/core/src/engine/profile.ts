import { readFact, type Scope } from "../model/index.js";
import type { StoragePort } from "../storage/index.js";

/** One trait of the user's profile, derived from a current fact, with its evidence. */
export interface ProfileTrait {
  readonly key: string;
  readonly value: string;
  readonly confidence: number;
  /** The fact it comes from. */
  readonly factId: string;
  /** Ids of the messages the fact was extracted from. */
  readonly evidence: readonly string[];
  readonly since: string | null;
}

/**
 * The user's profile: a structured view of the current user facts (one trait per slot and value), never
 * a free-text blob that a bad rewrite could erase. With `at`, the profile as it was then.
 */
export async function readProfile(storage: StoragePort, scope: Scope, at?: string): Promise<ProfileTrait[]> {
  const facts = await storage.scan(scope, {
    filter: { kinds: ["fact"], roles: ["user"], ...(at ? { at } : { current: true }) },
    order: "asc",
  });
  return facts.map((f) => {
    const { slot, value, confidence, evidence } = readFact(f);
    return { key: slot, value, confidence, factId: f.id, evidence: [...evidence], since: f.validFrom };
  });
}
