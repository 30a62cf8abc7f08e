// One memory: its text and fields, edit and delete, its version history, what it superseded and what
// superseded it, and its edges as a list of links to the memories at their other end.
import { api, navigate, notify, refresh } from "./api.js";
import { h, route, table, when } from "./dom.js";

const memoryPath = (user, id) => `users/${encodeURIComponent(user)}/memories/${encodeURIComponent(id)}`;

function link(user, linked, id) {
  const m = linked[id];
  if (!m) return h("span", { class: "muted" }, `${id} (no longer stored)`);
  return h("a", { href: route("u", user, "m", id), class: m.expiredAt ? "expired" : "" }, m.text);
}

function editor(user, d) {
  const text = h("textarea", { name: "text" });
  text.value = d.memory.text;
  const save = async (e) => {
    e.preventDefault();
    const done = await api(memoryPath(user, d.memory.id), {
      method: "PATCH",
      body: { text: text.value },
    }).catch((err) => notify(err.message, "error"));
    if (done) {
      notify(`Saved as version ${done.memory.version}`);
      refresh();
    }
  };
  const remove = async () => {
    if (!window.confirm("Delete this memory with its history and edges?")) return;
    const done = await api(memoryPath(user, d.memory.id), { method: "DELETE" }).catch((err) =>
      notify(err.message, "error"),
    );
    if (done) {
      navigate(route("u", user), `Deleted ${done.deleted}`);
    }
  };
  return h(
    "form",
    { id: "edit-form", class: "card", onsubmit: save },
    text,
    h(
      "div",
      { class: "inline" },
      h("button", { class: "primary" }, "Save"),
      " ",
      h("button", { type: "button", class: "danger", onclick: remove }, "Delete"),
    ),
  );
}

function timeline(d) {
  return h(
    "ol",
    { class: "timeline", id: "history" },
    d.history.map((v) =>
      h(
        "li",
        {},
        h("b", {}, `v${v.version} ${v.event}`),
        h("span", { class: "muted" }, ` ${when(v.at)}`),
        v.metadata?.reason ? h("span", { class: "tag" }, `by ${v.metadata.reason}`) : null,
        h("div", { class: "text" }, v.text),
      ),
    ),
  );
}

function chain(user, d) {
  const item = (label, ids) =>
    ids.length
      ? h(
          "p",
          {},
          `${label}: `,
          ids.map((id, i) => [
            i ? ", " : "",
            link(user, d.linked, id),
            h("span", { class: "muted" }, ` (${when(d.linked[id]?.expiredAt ?? d.linked[id]?.at)})`),
          ]),
        )
      : null;
  return [
    item("Superseded", d.supersedes),
    item("Superseded by", d.supersededBy),
    item("Changed by feedback", d.changedBy),
  ];
}

function edgesList(user, d) {
  const rows = d.edges.map((e) => {
    const out = e.from === d.memory.id;
    const other = out ? e.to : e.from;
    return h(
      "tr",
      { class: "edge" },
      h("td", {}, out ? "->" : "<-"),
      h("td", {}, e.type),
      h("td", { class: "text" }, link(user, d.linked, other)),
      h("td", {}, d.linked[other]?.kind ?? "-"),
      h("td", {}, when(e.createdAt)),
    );
  });
  return rows.length
    ? table(["dir", "type", "memory", "kind", "since"], rows)
    : h("p", { class: "muted" }, "No edges.");
}

export async function memoryView(user, id) {
  const d = await api(memoryPath(user, id));
  const m = d.memory;
  const facts = [
    ["kind", `${m.kind} (${m.tier}-term)${m.expiredAt ? `, expired ${when(m.expiredAt)}` : ""}`],
    ["speaker", m.role ?? "-"],
    ["valid", `${when(m.at)} - ${m.validTo ? when(m.validTo) : "now"}`],
    ["version", m.version],
    ...(d.fact
      ? [
          ["confidence", d.fact.confidence ?? "-"],
          ["slot", d.fact.slot ?? "-"],
        ]
      : []),
  ];
  return h(
    "section",
    { "data-view": "memory" },
    h("nav", { class: "nav" }, h("a", { href: route("u", user) }, `<- user ${user}`)),
    h("h1", {}, `Memory ${m.id}`),
    h("p", { class: `text ${m.expiredAt ? "expired" : ""}`, id: "memory-text" }, m.text),
    table(
      ["field", "value"],
      facts.map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, String(v)))),
    ),
    d.fact?.evidence.length
      ? [
          h("h2", {}, "Evidence"),
          h(
            "ul",
            { class: "evidence" },
            d.fact.evidence.map((e) => h("li", {}, link(user, d.linked, e))),
          ),
        ]
      : null,
    m.expiredAt ? null : [h("h2", {}, "Edit"), editor(user, d)],
    h("h2", {}, "History"),
    chain(user, d),
    timeline(d),
    h("h2", {}, "Edges"),
    edgesList(user, d),
  );
}
