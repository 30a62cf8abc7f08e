// The users list, search with its context, and the job queue.
import { api } from "./api.js";
import { h, num, route, table, when } from "./dom.js";

export const userPath = (user) => `users/${encodeURIComponent(user)}`;
export const memoryLink = (user, id, text) => h("a", { href: route("u", user, "m", id) }, text ?? id);

export async function usersView() {
  const { users, backend, readOnly } = await api("users");
  document.getElementById("store").textContent = `${backend}${readOnly ? " (read-only)" : ""}`;
  const rows = users.map((u) =>
    h(
      "tr",
      {},
      h("td", {}, h("a", { href: route("u", u.userId) }, u.userId)),
      h("td", { class: "num" }, u.memories),
      ["short", "mid", "long"].map((t) => h("td", { class: "num" }, u.byTier[t] ?? 0)),
      h("td", { class: "num" }, (u.jobs.queued ?? 0) + (u.jobs.running ?? 0)),
      h("td", { class: "num" }, u.jobs.failed ?? 0),
      h("td", {}, when(u.lastActivity)),
    ),
  );
  return h(
    "section",
    { "data-view": "users" },
    h("h1", {}, "Users"),
    users.length
      ? table(
          ["user", "# memories", "# short", "# mid", "# long", "# pending jobs", "# failed", "last activity"],
          rows,
        )
      : h("p", { class: "muted" }, "No users in this store."),
  );
}

function channelCells(r) {
  return ["fulltext", "vector"].map((c) =>
    h(
      "td",
      { class: "num" },
      r.channels[c] ? `#${r.channels[c].rank} ${r.channels[c].score.toFixed(3)}` : "-",
    ),
  );
}

/** Rerank gives an order without a score: the place among the turns retrieve kept, or "-" for the others. */
function rerankCell(r) {
  const place = r.channels.rerank;
  if (!place) return null;
  return h(
    "td",
    { class: "num", title: "place among the turns retrieve kept after rerank" },
    place.rank === null ? "-" : `#${place.rank} of ${place.of}`,
  );
}

export async function searchView(user, query) {
  const input = h("input", {
    type: "search",
    name: "q",
    value: query,
    placeholder: "what does it remember about...",
    autofocus: true,
  });
  const form = h(
    "form",
    {
      class: "inline",
      onsubmit: (e) => {
        e.preventDefault();
        location.hash = `${route("u", user, "search")}?q=${encodeURIComponent(input.value)}`;
      },
    },
    input,
    h("button", { class: "primary" }, "Search"),
  );
  const head = [h("h1", {}, "Search and context for ", h("a", { href: route("u", user) }, user)), form];
  if (!query.trim()) return h("section", { "data-view": "search" }, head);
  const s = await api(`${userPath(user)}/search?q=${encodeURIComponent(query)}`);
  const rows = s.results.map((r, i) =>
    h(
      "tr",
      { class: "result" },
      h("td", { class: "num" }, i + 1),
      h("td", { class: "text" }, memoryLink(user, r.id, r.text)),
      h("td", {}, `${r.kind}/${r.tier}`),
      num(r.score),
      channelCells(r),
      rerankCell(r),
    ),
  );
  const c = s.context;
  const dropped = Object.entries(c.dropped)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  return h(
    "section",
    { "data-view": "search" },
    head,
    h("h2", {}, "Results with each channel's rank and raw score"),
    rows.length
      ? table(
          [
            "#",
            "memory",
            "kind",
            "fused score",
            "full text (BM25)",
            "vector (cosine)",
            ...(s.rerank ? ["rerank (retrieve)"] : []),
          ],
          rows,
        )
      : h("p", { class: "muted" }, "No results."),
    h("h2", {}, "The context retrieve gives a model"),
    h(
      "p",
      { id: "context-tokens" },
      `${c.tokens} tokens of a ${c.budget}-token budget; shows ${c.shown.profile} profile traits, ${c.shown.facts} facts, ${c.shown.pages} pages, ${c.shown.recent} recent turns. `,
      h(
        "span",
        { class: "muted", id: "context-dropped" },
        dropped.length ? `Left out for budget: ${dropped.join(", ")}.` : "Nothing left out for budget.",
      ),
    ),
    h("pre", { id: "context-text" }, c.text || "(empty: nothing fits or nothing is stored)"),
  );
}

export async function jobsView(user) {
  const { jobs } = await api(`${userPath(user)}/jobs`);
  const rows = jobs.map((j) =>
    h(
      "tr",
      { class: "job" },
      h("td", {}, j.type),
      h("td", {}, j.status),
      h("td", { class: "num" }, j.attempts),
      h("td", { class: "text" }, j.lastError ?? "-"),
      h("td", {}, when(j.runAt)),
      h("td", {}, when(j.updatedAt)),
    ),
  );
  return h(
    "section",
    { "data-view": "jobs" },
    h("h1", {}, "Jobs of ", h("a", { href: route("u", user) }, user)),
    rows.length
      ? table(["type", "state", "# attempts", "last error", "run at", "updated"], rows)
      : h("p", { class: "muted" }, "No jobs."),
  );
}
