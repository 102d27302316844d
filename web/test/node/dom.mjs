// dom.mjs — the little DOM the page's render modules use (web/dom.js's h, fill, keyed …), for
// running them under Node with no browser: elements, text nodes, fragments, attributes, classes,
// data-*, listeners, and querySelector(All) for tag, .class, #id and [attr="value"] (one compound
// selector, or several joined by spaces). install() makes it globalThis.document and Node; html(el)
// is a snapshot of what was drawn. No layout, style or focus: those are the browser suite's.

class Node {
  constructor() { this.parentNode = null; this.childNodes = []; }
  get firstChild() { return this.childNodes[0] ?? null; }
  get lastChild() { return this.childNodes.at(-1) ?? null; }
  get nextSibling() {
    const s = this.parentNode?.childNodes;
    return s ? s[s.indexOf(this) + 1] ?? null : null;
  }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
  set textContent(t) { this.replaceChildren(...(String(t ?? "") ? [new Text(String(t))] : [])); }
  append(...nodes) { for (const n of nodes) this.insertBefore(typeof n === "string" ? new Text(n) : n, null); }
  insertBefore(node, ref) {
    if (node instanceof DocumentFragment) { for (const c of [...node.childNodes]) this.insertBefore(c, ref); return node; }
    node.remove();
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    if (i < 0) this.childNodes.push(node); else this.childNodes.splice(i, 0, node);
    node.parentNode = this;
    return node;
  }
  appendChild(node) { return this.insertBefore(node, null); }
  replaceChildren(...nodes) {
    for (const c of this.childNodes) c.parentNode = null;
    this.childNodes = [];
    this.append(...nodes);
  }
  remove() {
    if (!this.parentNode) return;
    const s = this.parentNode.childNodes;
    s.splice(s.indexOf(this), 1);
    this.parentNode = null;
  }
  contains(n) { for (; n; n = n.parentNode) if (n === this) return true; return false; }
  get children() { return this.childNodes.filter((c) => c instanceof Element); }
  querySelectorAll(sel) {
    const out = [];
    const walk = (n) => { for (const c of n.children) { if (c.matches(sel)) out.push(c); walk(c); } };
    walk(this);
    return out;
  }
  querySelector(sel) { return this.querySelectorAll(sel)[0] ?? null; }
}

class Text extends Node {
  constructor(data) { super(); this.data = data; }
  get textContent() { return this.data; }
  set textContent(t) { this.data = String(t); }
}

class DocumentFragment extends Node {}

class Element extends Node {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.listeners = {};
    const el = this;
    this.dataset = new Proxy({}, {
      get: (_, k) => el.getAttribute(dataAttr(k)) ?? undefined,
      set: (_, k, v) => { el.setAttribute(dataAttr(k), v); return true; },
      has: (_, k) => el.hasAttribute(dataAttr(k)),
      deleteProperty: (_, k) => { el.removeAttribute(dataAttr(k)); return true; },
    });
    this.classList = {
      contains: (c) => el.className.split(/\s+/).includes(c),
      add: (...cs) => { for (const c of cs) if (!el.classList.contains(c)) el.className = (el.className + " " + c).trim(); },
      remove: (...cs) => { el.className = el.className.split(/\s+/).filter((x) => x && !cs.includes(x)).join(" "); },
      toggle: (c, on = !el.classList.contains(c)) => { if (on) el.classList.add(c); else el.classList.remove(c); return on; },
    };
  }
  get localName() { return this.tagName.toLowerCase(); }
  getAttribute(k) { return this.attributes.has(k) ? this.attributes.get(k) : null; }
  setAttribute(k, v) { this.attributes.set(k, String(v)); }
  hasAttribute(k) { return this.attributes.has(k); }
  removeAttribute(k) { this.attributes.delete(k); }
  get className() { return this.getAttribute("class") ?? ""; }
  set className(v) { this.setAttribute("class", v); }
  get id() { return this.getAttribute("id") ?? ""; }
  set id(v) { this.setAttribute("id", v); }
  addEventListener(type, fn) { (this.listeners[type] ??= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] ?? []).filter((f) => f !== fn); }
  dispatchEvent(e) { for (const fn of this.listeners[e.type] ?? []) fn.call(this, e); return true; }
  click() { this.dispatchEvent({ type: "click", target: this }); }
  closest(sel) { for (let n = this; n instanceof Element; n = n.parentNode) if (n.matches(sel)) return n; return null; }
  matches(sel) {
    // "a b" (descendant) and one compound each: tag, #id, .class, [attr] and [attr="v"]
    const parts = sel.trim().split(/\s+(?![^[]*\])/);
    if (!matchOne(this, parts.at(-1))) return false;
    let n = this.parentNode;
    for (let i = parts.length - 2; i >= 0; i--) {
      while (n instanceof Element && !matchOne(n, parts[i])) n = n.parentNode;
      if (!(n instanceof Element)) return false;
      n = n.parentNode;
    }
    return true;
  }
}

// Boolean and reflected properties the render modules set (hidden, open, disabled …).
for (const p of ["hidden", "open", "disabled"]) {
  Object.defineProperty(Element.prototype, p, {
    get() { return this.hasAttribute(p); },
    set(v) { if (v) this.setAttribute(p, ""); else this.removeAttribute(p); },
  });
}
for (const p of ["title", "href", "value", "type"]) {
  Object.defineProperty(Element.prototype, p, {
    get() { return this.getAttribute(p) ?? ""; },
    set(v) { this.setAttribute(p, v); },
  });
}

const dataAttr = (k) => "data-" + String(k).replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());

function matchOne(el, compound) {
  const re = /^[a-zA-Z][a-zA-Z0-9-]*|#[\w-]+|\.[\w-]+|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let m;
  let at = 0;
  while ((m = re.exec(compound)) && m.index === at) {
    at = re.lastIndex;
    const t = m[0];
    if (t[0] === "#") { if (el.id !== t.slice(1)) return false; }
    else if (t[0] === ".") { if (!el.classList.contains(t.slice(1))) return false; }
    else if (t[0] === "[") { if (m[2] === undefined ? !el.hasAttribute(m[1]) : el.getAttribute(m[1]) !== m[2]) return false; }
    else if (el.localName !== t.toLowerCase()) return false;
  }
  if (at !== compound.length) throw new Error(`dom.mjs: selector ${JSON.stringify(compound)} is more than this DOM knows`);
  return true;
}

class Document extends Node {
  constructor() { super(); this.documentElement = new Element("html"); this.append(this.documentElement); this.body = new Element("body"); this.documentElement.append(this.body); }
  createElement(tag) { return new Element(tag); }
  createTextNode(t) { return new Text(String(t)); }
  createDocumentFragment() { return new DocumentFragment(); }
}

/** install(): a fresh document as globalThis.document (and Node, for dom.js's instanceof), on a
 *  page served over http and online (location, navigator.onLine: render-narration.js asks). */
export function install() {
  globalThis.Node = Node;
  globalThis.document = new Document();
  globalThis.location = new URL("http://127.0.0.1:8080/index.html");
  if (!globalThis.navigator) globalThis.navigator = {};
  Object.defineProperty(globalThis.navigator, "onLine", { value: true, configurable: true });
  return globalThis.document;
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** html(node): what was drawn, as HTML (attributes in the order they were set). */
export function html(n) {
  if (n instanceof Text) return esc(n.data);
  const inner = n.childNodes.map(html).join("");
  if (!(n instanceof Element)) return inner;
  const attrs = [...n.attributes].map(([k, v]) => (v === "" ? ` ${k}` : ` ${k}="${esc(v).replace(/"/g, "&quot;")}"`)).join("");
  return `<${n.localName}${attrs}>${inner}</${n.localName}>`;
}
