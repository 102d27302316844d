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
export function $$(sel, root = document) { return Array.from(root.querySelectorAll(sel)); }
export function byTestId(id, root = document) { return root.querySelector(`[data-testid="${id}"]`); }

/** Replace the children of el (nodes or strings). */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/**
 * Inline rich text for summaries: `code` and **bold** only, built as nodes.
 * Anything else (including "<script>") stays literal text.
 */
export function richText(text) {
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
