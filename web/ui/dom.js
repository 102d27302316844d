// dom.js — tiny DOM helpers. Every piece of text goes in as a text node:
// scenario text (titles, notes, values, error messages) is never parsed as HTML.

/**
 * h("div", {class: "x", "data-testid": "y", onclick: fn}, child, "text", [more])
 * Attribute values are set with setAttribute; `on*` functions become listeners;
 * children may be nodes, strings/numbers (text nodes), arrays, null/false (skipped).
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") {
        el.addEventListener(k.slice(2), v);
      } else if (k === "class") {
        el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
      } else if (k === "text") {
        el.textContent = String(v);
      } else if (v === true) {
        el.setAttribute(k, "");
      } else {
        el.setAttribute(k, String(v));
      }
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function $(sel, root = document) { return root.querySelector(sel); }
export function byTestId(id, root = document) { return root.querySelector(`[data-testid="${id}"]`); }

/** Replace the children of el (nodes or strings). */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

const drawnSig = new WeakMap(); // element → the signature of what fillIf last drew in it

/**
 * fillIf(el, sig, build): fill el with build()'s children unless what it shows now was drawn
 * for the same signature (a string covering everything build draws, change highlights
 * included): a step leaves the panels it did not change as they are, so the browser has
 * nothing there to style, lay out or paint again.
 */
export function fillIf(el, sig, build) {
  if (drawnSig.get(el) === sig) return el;
  drawnSig.set(el, sig);
  const out = build();
  return fill(el, ...(Array.isArray(out) ? out : [out]));
}

/** setText(el, text): el's text, written only when it differs. */
export function setText(el, text) {
  return fillIf(el, "\0" + text, () => text);
}

/**
 * Inline rich text for summaries: `code` and **bold** only, built as nodes.
 * Anything else (including "<script>") stays literal text.
 */
function richText(text) {
  const out = document.createDocumentFragment();
  const s = String(text ?? "");
  const re = /`([^`]+)`|\*\*([^*]+?)\*\*/g;
  let last = 0;
  let m;
  while ((m = re.exec(s)) !== null) {
    if (m.index > last) out.append(document.createTextNode(s.slice(last, m.index)));
    if (m[1] !== undefined) out.append(h("code", null, m[1]));
    else out.append(h("strong", null, m[2]));
    last = m.index + m[0].length;
  }
  if (last < s.length) out.append(document.createTextNode(s.slice(last)));
  return out;
}

/**
 * A summary as paragraphs: blank lines separate paragraphs, single line breaks are soft
 * (YAML block text is hard-wrapped); each paragraph goes through richText.
 */
export function richParagraphs(text) {
  const out = document.createDocumentFragment();
  for (const para of String(text ?? "").split(/\n\s*\n/)) {
    const t = para.replace(/\s*\n\s*/g, " ").trim();
    if (t) out.append(h("p", null, richText(t)));
  }
  return out;
}

/** Stable key for comparing JSON values between two views. */
export function key(v) { return JSON.stringify(v ?? null); }

// Keyed children: a long panel (256 builders, lanes, table rows …) keeps the node of every
// item whose signature is the same as at the last render and builds only the others, so a step
// touches the few nodes that changed instead of rebuilding (and re-laying out) the whole panel.
// An item's `sig` must cover everything its node shows, but for its change highlight, which is
// `hl` (a string, "" for none): an item whose highlight alone changed is patched in place by its
// `patch(node, hl)` (classes and the screen reader's "new: " words: the step after the one that
// changed an item only takes its highlight away), one without `patch` is rebuilt. A node whose
// content changed is rebuilt, never patched, so a highlight's flash restarts exactly as when
// everything was rebuilt (a highlight patched on starts its flash too: its animation is new).
const keyedState = new WeakMap(); // container → Map(key → {sig, hl, node})

/**
 * keyed(container, items) makes container's children the nodes of items, in order.
 * items: [{key, sig, hl?, build: () => Node, patch?: (node, hl) => void, inner?: (node) => void}];
 * sig null means always build; `inner` runs on the node (reused or new) to reconcile its own
 * keyed children. Repeated keys get #2, #3 … . Any other child of container is removed.
 */
export function keyed(container, items) {
  const old = keyedState.get(container);
  const next = new Map();
  const nodes = [];
  for (const it of items) {
    let k = String(it.key);
    if (next.has(k)) { let n = 2; while (next.has(k + "#" + n)) n++; k += "#" + n; }
    const o = old && old.get(k);
    const hl = it.hl || "";
    let node;
    if (o && it.sig !== null && o.sig === it.sig && o.node.parentNode === container && (o.hl === hl || it.patch)) {
      node = o.node;
      if (o.hl !== hl) it.patch(node, hl);
    } else {
      node = it.build();
    }
    if (it.inner) it.inner(node);
    next.set(k, { sig: it.sig, hl, node });
    nodes.push(node);
  }
  const keep = new Set(nodes);
  for (let c = container.firstChild; c;) {
    const n = c.nextSibling;
    if (!keep.has(c)) c.remove();
    c = n;
  }
  let cur = container.firstChild;
  for (const node of nodes) {
    if (node === cur) cur = cur.nextSibling;
    else container.insertBefore(node, cur);
  }
  keyedState.set(container, next);
  return container;
}

/** toggleClass(el, name, on): el's class `name`, written only when it differs. */
export function toggleClass(el, name, on) {
  if (el && el.classList.contains(name) !== !!on) el.classList.toggle(name, !!on);
}

/** A persistent part: the same node across renders, built once (inner reconciles its content). */
export function part(key, build, inner) {
  return { key, sig: "", build, inner };
}
