// A user's memory by tier: profile, facts, mid-term segments with their heat, short-term pages; and the
// changes made to a user as a whole (feedback, forget, export).
import { api, navigate, notify, refresh } from "./api.js";
import { afterNextPaint, firstOf, h, num, route, table, when } from "./dom.js";
import { memoryLink, userPath } from "./views.js";

function heatBar(heat, max) {
  const width = max > 0 ? Math.round((100 * heat) / max) : 0;
  const fill = h("span");
  // Through the CSSOM: the page's policy refuses inline style attributes.
  fill.style.width = `${width}%`;
  return h("span", { class: "bar", title: `heat ${heat.toFixed(3)}` }, fill);
}

function evidenceLinks(user, ids) {
  return ids.length ? ids.map((id, i) => [i ? " " : "", memoryLink(user, id, `turn ${i + 1}`)]) : "-";
}

function factsTable(user, facts) {
  const row = (f) =>
    h(
      "tr",
      {},
      h("td", { class: "text" }, memoryLink(user, f.id, f.text)),
      num(f.confidence, 2),
      h("td", {}, `${when(f.at)} - ${f.validTo ? when(f.validTo) : "now"}`),
      h("td", { class: "evidence" }, evidenceLinks(user, f.evidence)),
    );
  return facts.length
    ? firstOf(facts, row, (rows) => table(["fact", "confidence", "valid", "evidence"], rows))
    : h("p", { class: "muted" }, "None.");
}

function actions(user) {
  const feedback = h("input", {
    type: "text",
    name: "feedback",
    placeholder: "e.g. Actually I moved to Porto",
    size: 40,
  });
  const confirm = h("input", { type: "text", name: "confirm", placeholder: `type ${user} to confirm` });
  return h(
    "div",
    { class: "card" },
    h(
      "form",
      {
        class: "inline",
        id: "feedback-form",
        onsubmit: async (e) => {
          e.preventDefault();
          const result = await api(`${userPath(user)}/feedback`, {
            method: "POST",
            body: { text: feedback.value },
          }).catch((err) => notify(err.message, "error"));
          if (result) {
            notify(`Feedback applied: ${JSON.stringify(result.feedback)}`);
            refresh();
          }
        },
      },
      h("label", {}, "Feedback "),
      feedback,
      h("button", { class: "primary" }, "Apply"),
    ),
    h(
      "form",
      {
        class: "inline",
        id: "forget-form",
        onsubmit: async (e) => {
          e.preventDefault();
          const result = await api(`${userPath(user)}/forget`, {
            method: "POST",
            body: { confirm: confirm.value },
          }).catch((err) => notify(err.message, "error"));
          if (result) {
            navigate("#/", `Forgot ${user}: ${result.report.memories} memories removed`);
          }
        },
      },
      h("label", {}, "Forget this user "),
      confirm,
      h("button", { class: "danger" }, "Forget"),
    ),
    h(
      "button",
      {
        id: "export",
        onclick: async () => {
          const dump = await api(`${userPath(user)}/export`).catch((err) => notify(err.message, "error"));
          if (!dump) return;
          const link = h("a", { download: `engram-${user}.json` });
          link.href = URL.createObjectURL(
            new Blob([JSON.stringify(dump, null, 2)], { type: "application/json" }),
          );
          link.click();
          URL.revokeObjectURL(link.href);
        },
      },
      "Export JSON",
    ),
  );
}

export async function userView(user) {
  const u = await api(userPath(user));
  const maxHeat = Math.max(0, ...u.segments.map((s) => s.heat));
  const counts = h("div", { class: "grid", id: "counts" });
  const summary = h("span", { class: "muted" });
  // Counting scans every row of the user: asked for once the view is on screen, not before.
  afterNextPaint()
    .then(() => api(`${userPath(user)}/stats`))
    .then(
      ({ stats }) => {
        summary.textContent = `${stats.memories} memories, ${stats.edges} edges, ${stats.history} history rows`;
        counts.replaceChildren(
          ...["short", "mid", "long"].map((t) =>
            h("div", { class: "card stat" }, h("b", {}, stats.byTier[t] ?? 0), `${t}-term memories`),
          ),
        );
      },
      (err) => notify(err.message, "error"),
    );
  const shown = (list, limit, what) =>
    list.length >= limit ? h("p", { class: "muted" }, `The first ${limit} ${what} are shown.`) : null;
  const segment = (s) =>
    h(
      "tr",
      { class: "segment" },
      h(
        "td",
        { class: "text" },
        memoryLink(user, s.id, s.text),
        // One line of text, not a box per keyword: 16 keywords a row made a third of the view's elements.
        h("div", { class: "keywords" }, s.keywords.join(" · ")),
      ),
      h("td", { class: "num" }, heatBar(s.heat, maxHeat), ` ${s.heat.toFixed(2)}`),
      h("td", { class: "num" }, `${s.visits} -> ${s.parts.visits.toFixed(2)}`),
      h("td", { class: "num" }, `${s.pages} -> ${s.parts.pages.toFixed(2)}`),
      h("td", { class: "num" }, `${s.recency.toFixed(2)} -> ${s.parts.recency.toFixed(2)}`),
      h("td", { class: "num" }, s.size),
    );
  const trait = (t) =>
    h(
      "tr",
      { class: "trait" },
      h("td", {}, t.key),
      h("td", { class: "text" }, memoryLink(user, t.factId, t.value)),
      num(t.confidence, 2),
      h("td", {}, when(t.since)),
      h("td", { class: "evidence" }, evidenceLinks(user, t.evidence)),
    );
  const page = (p) =>
    h(
      "li",
      {},
      p.messages.map((m) =>
        h(
          "div",
          { class: "text" },
          h("span", { class: "tag" }, m.role ?? "?"),
          memoryLink(user, m.id, m.text),
          h("span", { class: "muted" }, ` ${when(m.at)}`),
        ),
      ),
    );
  return h(
    "section",
    { "data-view": "user" },
    h("h1", {}, `User ${user}`),
    h(
      "nav",
      { class: "nav" },
      h("a", { href: `${route("u", user, "search")}` }, "Search and context"),
      h("a", { href: route("u", user, "jobs") }, "Jobs"),
      summary,
    ),
    counts,
    actions(user),
    h("h2", {}, "Profile"),
    u.profile.length
      ? firstOf(u.profile, trait, (rows) =>
          table(["trait", "value", "confidence", "since", "evidence"], rows),
        )
      : h("p", { class: "muted" }, "No profile yet."),
    shown(u.profile, u.limits.profile, "traits"),
    h("h2", {}, "User facts"),
    factsTable(
      user,
      u.facts.filter((f) => f.subject === "user"),
    ),
    h("h2", {}, "Assistant knowledge"),
    factsTable(
      user,
      u.facts.filter((f) => f.subject === "assistant"),
    ),
    shown(u.facts, u.limits.facts, "current facts"),
    h("h2", {}, "Mid-term segments, hottest first"),
    u.segments.length
      ? firstOf(u.segments, segment, (rows) =>
          table(["segment", "heat", "visits", "pages", "recency", "# pages ever"], rows),
        )
      : h("p", { class: "muted" }, "No segments yet."),
    shown(u.segments, u.limits.segments, "hottest segments"),
    h("h2", {}, `Short-term pages, oldest first (next to leave)`),
    u.shortTerm.length
      ? firstOf(u.shortTerm, page, (items) => h("ol", { class: "pages" }, items), 10)
      : h("p", { class: "muted" }, "Short-term memory is empty."),
  );
}
