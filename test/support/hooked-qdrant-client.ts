import { QdrantClient } from "@qdrant/js-client-rest";

/**
 * Stands between one client and the network: gets each request as `fetch` would (URL and init) and the
 * `fetch` to send it with, and returns the response (the one `send` gave, or another).
 */
export type RequestHook = (
  url: string,
  init: RequestInit,
  send: (url: string, init: RequestInit) => Promise<Response>,
) => Promise<Response>;

const TAG = "x-engram-test-client";
const hooks = new Map<string, RequestHook>();
let installed = false;

/**
 * A user-made `QdrantClient` (as `qdrantStorage({ client })` takes it) whose every request goes through
 * `hook`. The client calls the global `fetch`; each hooked client sends a header of its own, so a wrapper
 * of `fetch` finds its hook and leaves every other request alone.
 */
export function hookedQdrantClient(url: string, hook: RequestHook): QdrantClient {
  if (!installed) {
    installed = true;
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const tag = new Headers(init?.headers).get(TAG);
      const found = tag === null ? undefined : hooks.get(tag);
      if (!found) return original(input, init);
      const href = input instanceof Request ? input.url : String(input);
      return found(href, init ?? {}, (u, i) => original(u, i));
    };
  }
  const tag = String(hooks.size + 1);
  hooks.set(tag, hook);
  return new QdrantClient({ url, headers: { [TAG]: tag }, checkCompatibility: false });
}

/** A hook that only watches: `see` gets the URL, method and JSON body of each request before it leaves. */
export const watching =
  (see: (request: { url: string; method: string; body: string }) => Promise<void> | void): RequestHook =>
  async (url, init, send) => {
    await see({ url, method: init.method ?? "GET", body: typeof init.body === "string" ? init.body : "" });
    return send(url, init);
  };
