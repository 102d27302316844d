// longlist.js — a long list drawn a page at a time. At 256 vnodes a panel holds 256 lanes,
// builders, progress entries or table rows, and drawing them all at every step (then styling,
// laying out and painting them) was most of a step's time, although a panel's scroll box shows a
// handful. longList draws the first page of items (for a log whose newest end is in view, the
// last page) and, after them, a marker that says how many more there are, with a button that
// draws the next page. The marker also draws the next page by itself as soon as it comes within a
// box's height of the part of its scroll box in view, so scrolling never reaches the end of what
// is drawn: the reader scrolls through every item as before, a page at a time. Nothing is drawn
// at an estimated size and nothing drawn is taken away while the scenario stays open, so what the
// page scrolled to stays where it is. A list shorter than a page is drawn as it always was.
import { h, keyed } from "../ui/dom.js";

const lists = new WeakMap(); // container → its state
let generation = 0;           // bumped by resetLongLists: every list starts from its first page

/**
 * longList(container, n, item, opts) makes container's children (dom.js keyed) the items
 * item(0) … item(n - 1), of which it draws a window: the first `limit` (opts.fromEnd: the last),
 * `limit` starting at opts.page and growing a page at a time; item(i) is called for the drawn
 * ones only. The rest are one marker: `<tag class="long-more">` (a `<td colspan>` in it for a
 * "tr") reading opts.more(rest) ("… 208 more builders") and a "Show N more" button.
 * opts: {page, more(rest) → text, tag = "div", colspan, markerClass, fromEnd, always (the marker
 * even when every item is drawn, without its button: it counts something else too),
 * head: [keyed items drawn first], tail: [keyed items drawn last], id (a list drawn anew in a new
 * container, as a rebuilt row's chips are, keeps the pages drawn for the same id)}.
 */
export function longList(container, n, item, opts) {
  let st = lists.get(container);
  if (!st || st.generation !== generation) {
    st?.io?.disconnect();
    const limit = Math.max(opts.page, (opts.id !== undefined && grown.get(opts.id)) || 0);
    st = { generation, id: opts.id, limit, page: opts.page, io: null, marker: null, observed: null, draw: null };
    lists.set(container, st);
  }
  st.draw = () => draw(container, st, n, item, opts);
  st.draw();
}

const grown = new Map(); // opts.id → the pages drawn for it (this generation)

/** resetLongLists(): every long list is drawn from its first page again (a new scenario). */
export function resetLongLists() { generation++; grown.clear(); }

function draw(container, st, n, item, opts) {
  const shown = Math.min(n, st.limit);
  const rest = n - shown;
  const from = opts.fromEnd ? n - shown : 0;
  const items = [...(opts.head || [])];
  const marker = rest > 0 || opts.always ? markerItem(container, st, rest, opts) : null;
  if (marker && opts.fromEnd) items.push(marker);
  for (let i = from; i < from + shown; i++) items.push(item(i));
  if (marker && !opts.fromEnd) items.push(marker);
  items.push(...(opts.tail || []));
  // (when the last page is drawn the marker goes: focus on its button goes to the scroll box)
  const focused = !marker && st.marker?.contains(document.activeElement);
  keyed(container, items);
  if (focused) (container.closest('[tabindex="0"]') || container).focus({ preventScroll: true });
  if (!rest) {
    st.io?.disconnect();
    st.io = null;
    st.marker = st.observed = null;
    return;
  }
  watch(container, st);
}

function markerItem(container, st, rest, opts) {
  const next = Math.min(rest, opts.page);
  const text = opts.more(rest);
  return {
    key: "\0long-more", sig: "", // the same node across draws: a focused button stays focused
    build: () => {
      const button = h("button", { type: "button", class: "btn small long-more-btn", onclick: () => grow(st) });
      const label = h("span", { class: "long-more-text" });
      const tag = opts.tag || "div";
      const inside = [label, button];
      const cls = ["long-more", opts.markerClass];
      return tag === "tr"
        ? h("tr", { class: cls }, h("td", { colspan: opts.colspan || 1 }, inside))
        : h(tag, { class: cls }, inside);
    },
    inner: (node) => {
      st.marker = node;
      const label = node.markerLabel ??= node.querySelector(".long-more-text");
      const button = node.markerButton ??= node.querySelector(".long-more-btn");
      if (label.textContent !== text) label.textContent = text;
      const say = rest ? `Show ${next} more` : "";
      if (button.textContent !== say) button.textContent = say;
      button.hidden = !rest;
    },
  };
}

function grow(st) {
  st.limit += st.page;
  if (st.id !== undefined) grown.set(st.id, st.limit);
  st.observed = null; // observed again after the draw: see watch
  st.draw();
}

// The marker draws the next page when it comes within a box's height of the scroll box's visible
// part (the panel body that scrolls; the viewport when there is none).
function watch(container, st) {
  // (a list drawn in a node not yet on the page is watched once it is: the same task)
  if (!container.isConnected) {
    if (!st.waiting) {
      st.waiting = true;
      queueMicrotask(() => { st.waiting = false; if (container.isConnected && st.marker) watch(container, st); });
    }
    return;
  }
  if (!st.io) {
    const root = container.closest(".panel-body") || null;
    st.io = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (!last.isIntersecting || last.target !== st.marker) return;
      grow(st);
    }, { root, rootMargin: "100% 0px" });
  }
  // Observing reports the marker's intersection once at once, even when it did not change: after
  // a page is drawn the marker is observed anew, so a page that still leaves it in reach draws
  // the next one.
  if (st.observed === st.marker) return;
  st.io.disconnect();
  st.io.observe(st.marker);
  st.observed = st.marker;
}
