import type { Engram } from "@engram/core";
import { z } from "zod";
import { HttpError } from "./http-error.js";
import { memoryDetail, searchView, userOverview, usersList } from "./ui-views.js";

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

export interface ApiResult {
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

interface Params {
  readonly user: string;
  readonly id: string;
}

type Handler = (engram: Engram, params: Params, req: ApiRequest) => Promise<ApiResult>;

// Bodies are checked here, at the boundary; the engine validates ids and texts again with its own schemas.
const editBody = z.strictObject({ text: z.string().trim().min(1, "text must not be empty").max(20_000) });
const feedbackBody = z.strictObject({ text: z.string().trim().min(1, "text must not be empty").max(4_000) });
const forgetBody = z.strictObject({ confirm: z.string() });
const searchQuery = z.object({
  q: z.string().trim().min(1, "type a query").max(2_000),
  k: z.coerce.number().int().min(1).max(100).default(10),
  budget: z.coerce.number().int().min(0).max(100_000).default(1500),
});

const ok = (body: unknown): ApiResult => ({ body });

const ROUTES: [method: string, pattern: RegExp, handler: Handler][] = [
  ["GET", /^\/api\/users$/, async (engram) => ok(await usersList(engram))],
  ["GET", /^\/api\/users\/(?<user>[^/]+)$/, async (engram, p) => ok(await userOverview(engram, p.user))],
  [
    "GET",
    /^\/api\/users\/(?<user>[^/]+)\/search$/,
    async (engram, p, req) =>
      ok(await searchView(engram, p.user, searchQuery.parse(Object.fromEntries(req.query)))),
  ],
  [
    "GET",
    /^\/api\/users\/(?<user>[^/]+)\/stats$/,
    async (engram, p) => ok({ stats: await engram.stats({ userId: p.user }) }),
  ],
  [
    "GET",
    /^\/api\/users\/(?<user>[^/]+)\/jobs$/,
    async (engram, p) => ok({ jobs: await engram.jobs({ userId: p.user }) }),
  ],
  [
    "GET",
    /^\/api\/users\/(?<user>[^/]+)\/export$/,
    async (engram, p) => ({
      body: await engram.export({ userId: p.user }),
      headers: { "content-disposition": `attachment; filename="engram-${encodeURIComponent(p.user)}.json"` },
    }),
  ],
  [
    "GET",
    /^\/api\/users\/(?<user>[^/]+)\/memories\/(?<id>[^/]+)$/,
    async (engram, p) => ok(await memoryDetail(engram, p.user, p.id)),
  ],
  [
    "PATCH",
    /^\/api\/users\/(?<user>[^/]+)\/memories\/(?<id>[^/]+)$/,
    async (engram, p, req) => {
      const { text } = editBody.parse(req.body);
      return ok({ memory: await engram.memories.update({ userId: p.user, id: p.id, text }) });
    },
  ],
  [
    "DELETE",
    /^\/api\/users\/(?<user>[^/]+)\/memories\/(?<id>[^/]+)$/,
    async (engram, p) => {
      await engram.memories.delete({ userId: p.user, id: p.id });
      return ok({ deleted: p.id });
    },
  ],
  [
    "POST",
    /^\/api\/users\/(?<user>[^/]+)\/feedback$/,
    async (engram, p, req) => {
      const { text } = feedbackBody.parse(req.body);
      return ok({ feedback: await engram.feedback({ userId: p.user, text }) });
    },
  ],
  [
    "POST",
    /^\/api\/users\/(?<user>[^/]+)\/forget$/,
    async (engram, p, req) => {
      // Typed confirmation: the page asks for the user id, so a stray click erases nothing.
      if (forgetBody.parse(req.body).confirm !== p.user) {
        throw new HttpError(400, `type the user id ${JSON.stringify(p.user)} to confirm forgetting it`);
      }
      return ok({ forgotten: p.user, report: await engram.forget({ userId: p.user }) });
    },
  ],
];

function decode(part: string | undefined): string {
  try {
    return decodeURIComponent(part ?? "");
  } catch {
    throw new HttpError(400, "a path part is not valid percent-encoding");
  }
}

/** Finds the handler of a request and runs it; 404 for an unknown path, 405 for a known one's other methods. */
export async function routeRequest(engram: Engram, req: ApiRequest): Promise<ApiResult> {
  let pathMatched = false;
  for (const [method, pattern, handler] of ROUTES) {
    const m = pattern.exec(req.path);
    if (!m) continue;
    pathMatched = true;
    if (method !== req.method) continue;
    return handler(engram, { user: decode(m.groups?.user), id: decode(m.groups?.id) }, req);
  }
  throw pathMatched
    ? new HttpError(405, `${req.method} is not allowed here`)
    : new HttpError(404, "not found");
}
