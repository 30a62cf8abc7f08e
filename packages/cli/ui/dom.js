// DOM helpers. Text is only ever added as text nodes or textContent: stored memory text is data, never
// markup, so a memory holding <script> or <img onerror> is shown and not run.

/** An element with attributes, event handlers (onclick...) and children (strings become text nodes). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const key in attrs) {
    const value = attrs[key];
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "href") el.setAttribute("href", value.startsWith("#") ? value : "#/");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** Appends children, arrays of them at any depth, in order; no array is built on the way. */
function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function show(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A link to a route of this page; route parts are percent-encoded. */
export function route(...parts) {
  return `#/${parts.map((p) => encodeURIComponent(p)).join("/")}`;
}

export function table(headers, rows) {
  return h(
    "table",
    {},
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        headers.map((x) => h("th", { class: /^#|score|heat|conf/i.test(x) ? "num" : "" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
}

/**
 * The first `first` of `items` drawn by `draw` in the list `wrap` makes, and a button that draws the
 * others: a long list costs its first screen only until asked for.
 */
export function firstOf(items, draw, wrap, first = 20) {
  const list = wrap(items.slice(0, first).map(draw));
  const box = h("div", { class: "list" }, list);
  if (items.length > first) {
    const more = h(
      "button",
      {
        class: "more",
        onclick: () => {
          (list.querySelector("tbody") ?? list).append(...items.slice(first).map(draw));
          more.remove();
        },
      },
      `Show all ${items.length}`,
    );
    box.append(more);
  }
  return box;
}

export const num = (value, digits = 3) =>
  h("td", { class: "num" }, value === null || value === undefined ? "-" : Number(value).toFixed(digits));

export const when = (iso) => (iso ? iso.replace("T", " ").replace(/:\d\d\.\d+Z$/, "Z") : "-");

/** Resolves after the next frame is produced: a message posted from requestAnimationFrame runs after it. */
export function afterNextPaint() {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      channel.port2.postMessage(null);
    }),
  );
}
