// The API client. The session token comes from the URL engram ui printed, is kept for this tab only, and
// goes with every API call as a bearer token.
import { h, show } from "./dom.js";

const TOKEN_KEY = "engram-ui-token";

function sessionToken() {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    // Out of the address bar, so it is not shared with a screenshot or a copied link.
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

export const token = sessionToken();

/** The call index.html's script started before the modules loaded, taken once by the first view asking for it. */
function firstCall(path, method) {
  const first = window.engramFirstCall;
  if (!first || first.path !== path || method !== "GET") return undefined;
  window.engramFirstCall = undefined;
  return first.response;
}

/** Calls the API; a refusal becomes an Error with the server's message. */
export async function api(path, options = {}) {
  const init = { method: options.method ?? "GET", headers: { authorization: `Bearer ${token}` } };
  if (options.body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const res = await (firstCall(path, init.method) ?? fetch(`/api/${path}`, init));
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

/** A message above the view: info after a change, error when a call failed. */
export function notify(message, kind = "info") {
  show(document.getElementById("status"), message ? h("div", { class: kind }, message) : null);
}

/** Renders the current view again, after a change. */
export function refresh() {
  window.dispatchEvent(new Event("engram:refresh"));
}

let keepStatus = false;

/** Goes to another view with a message that outlives the navigation (after a change left the view). */
export function navigate(hash, message) {
  notify(message);
  keepStatus = true;
  location.hash = hash;
}

/** On navigation the previous view's message goes, unless `navigate` set it for the next view. */
export function statusOnNavigation() {
  if (!keepStatus) notify("");
  keepStatus = false;
}
