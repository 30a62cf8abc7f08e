// The inspector page: a hash router over the JSON API.
import { notify, statusOnNavigation, token } from "./api.js";
import { afterNextPaint, h, show } from "./dom.js";
import { memoryView } from "./memory-view.js";
import { userView } from "./user-view.js";
import { jobsView, searchView, usersView } from "./views.js";

const ROUTES = [
  [/^\/?$/, () => usersView()],
  [/^\/u\/([^/]+)$/, (m) => userView(m[1])],
  [/^\/u\/([^/]+)\/search$/, (m, q) => searchView(m[1], q.get("q") ?? "")],
  [/^\/u\/([^/]+)\/jobs$/, (m) => jobsView(m[1])],
  [/^\/u\/([^/]+)\/m\/([^/]+)$/, (m) => memoryView(m[1], m[2])],
];

async function render() {
  const main = document.getElementById("main");
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  const found = ROUTES.map(([re, view]) => [re.exec(path), view]).find(([m]) => m);
  main.removeAttribute("data-ready");
  try {
    if (!token) throw new Error("No session token: open the URL that engram ui printed.");
    if (!found) throw new Error(`no such view: ${path}`);
    const [m, view] = found;
    const parts = m.map((p, i) => (i === 0 ? p : decodeURIComponent(p)));
    const content = await view(parts, new URLSearchParams(query));
    show(main, content);
  } catch (error) {
    show(main, h("p", { class: "muted" }, "Could not load this view."));
    notify(error.message, "error");
  }
  // Tests and the load measurement wait for this mark, set once the frame showing the view is produced: the
  // time counts layout and paint, not only building the view.
  await afterNextPaint();
  main.setAttribute("data-ready", String(performance.now()));
}

window.addEventListener("hashchange", () => {
  statusOnNavigation();
  void render();
});
// A view that changed something asks for a fresh render, keeping its status message.
window.addEventListener("engram:refresh", () => void render());
void render();
