// dom.mjs — the little DOM the page's render modules use (web/ui/dom.js's h, fill, keyed …), for
// running them under Node with no browser: elements, text nodes, fragments, attributes, classes,
// data-*, inline style, listeners, and querySelector(All)/matches/closest for selector lists of
// tag, *, #id, .class, [attr], [attr="v"] (also ^= $= *= ~=), :scope, :not(…), :first-child and
// :last-child, joined by descendant (space) or child (>) combinators. install() makes it
// globalThis.document and Node (with a served page's location, online, and an
// IntersectionObserver that never reports: there is no layout). html(el) is a snapshot of what
// was drawn, outline(el) the same one node a line; parseHTML(text) reads the page's own markup.
// No layout, style or focus order: those are the browser suite's.

class Node {
  constructor() { this.parentNode = null; this.childNodes = []; }
  /** the document (one per install(); a Document is its own owner in this stand-in) */
  get ownerDocument() { return globalThis.document; }
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
    const scope = this instanceof Element ? this : null;
    const walk = (n) => { for (const c of n.children) { if (c.matches(sel, scope)) out.push(c); walk(c); } };
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
  matches(sel, scope = null) { return parse(sel).some((cx) => matchFrom(this, cx, cx.length - 1, scope)); }
  get style() { return (this._style ??= styleOf(this)); }
  // (in the document installed last: a new page leaves the old one's elements behind)
  get isConnected() { let n = this; while (n.parentNode) n = n.parentNode; return n === globalThis.document; }
  get colSpan() { return Number(this.getAttribute("colspan") ?? 1); }
  focus() { globalThis.document.activeElement = this; }
  blur() { if (globalThis.document.activeElement === this) globalThis.document.activeElement = null; }
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

// Selectors: parse(sel) → a list of complex selectors, each [{comb, simple: [test…]}] from left to
// right (comb: how it joins the one before, " " or ">"); a simple test is (el, scope) → bool.
const parsed = new Map();
function parse(sel) {
  let out = parsed.get(sel);
  if (!out) parsed.set(sel, (out = parseList(sel, { s: sel, at: 0 }, false)));
  return out;
}

const TOKEN = /\s*(>)\s*|\s*(,)\s*|(\s+)|(\*)|([a-zA-Z][\w-]*)|#([\w-]+)|\.([\w-]+)|\[\s*([\w-]+)\s*(?:([~^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([\w-]+))\s*)?\]|:(scope|first-child|last-child)\b|:not\(|\s*(\))/y;
const ATTR = {
  "=": (a, v) => a === v, "~=": (a, v) => a.split(/\s+/).includes(v),
  "^=": (a, v) => v !== "" && a.startsWith(v), "$=": (a, v) => v !== "" && a.endsWith(v), "*=": (a, v) => v !== "" && a.includes(v),
};
const PSEUDO = {
  scope: (el, scope) => el === (scope ?? globalThis.document?.documentElement),
  "first-child": (el) => el.parentNode?.children[0] === el,
  "last-child": (el) => el.parentNode?.children.at(-1) === el,
};

function parseList(sel, p, nested) {
  const list = [];
  let cx = [{ comb: null, simple: [] }];
  const fail = () => { throw new Error(`dom.mjs: selector ${JSON.stringify(sel)} is more than this DOM knows (at ${p.at})`); };
  const last = () => cx.at(-1);
  while (p.at < sel.length) {
    TOKEN.lastIndex = p.at;
    const m = TOKEN.exec(sel);
    if (!m) fail();
    p.at = TOKEN.lastIndex;
    const [t, child, comma, space, star, tag, id, cls, attr, op, v1, v2, v3, pseudo, close] = m;
    if (close) { if (!nested) fail(); break; }
    if (child || space) {
      if (p.at >= sel.length || !last().simple.length) { if (child) fail(); continue; }
      // (a space before a comma or a closing paren joins nothing)
      TOKEN.lastIndex = p.at;
      const peek = TOKEN.exec(sel);
      if (space && peek && (peek[2] || peek[14])) continue;
      cx.push({ comb: child ? ">" : " ", simple: [] });
    } else if (comma) {
      if (!last().simple.length) fail();
      list.push(cx);
      cx = [{ comb: null, simple: [] }];
    } else if (star) last().simple.push(() => true);
    else if (tag) last().simple.push((el) => el.localName === tag.toLowerCase());
    else if (id) last().simple.push((el) => el.id === id);
    else if (cls) last().simple.push((el) => el.classList.contains(cls));
    else if (attr) {
      const v = v1 ?? v2 ?? v3;
      last().simple.push((el) => el.hasAttribute(attr) && (!op || ATTR[op](el.getAttribute(attr), v)));
    } else if (pseudo) last().simple.push(PSEUDO[pseudo]);
    else if (t === ":not(") {
      const inner = parseList(sel, p, true);
      last().simple.push((el, scope) => !inner.some((c) => matchFrom(el, c, c.length - 1, scope)));
    } else fail();
  }
  if (!last().simple.length) fail();
  list.push(cx);
  return list;
}

function matchFrom(el, cx, i, scope) {
  if (!cx[i].simple.every((f) => f(el, scope))) return false;
  if (i === 0) return true;
  if (cx[i].comb === ">") return el.parentNode instanceof Element && matchFrom(el.parentNode, cx, i - 1, scope);
  for (let n = el.parentNode; n instanceof Element; n = n.parentNode) if (matchFrom(n, cx, i - 1, scope)) return true;
  return false;
}

// el.style: the properties set, written through to the style attribute ("width: 12%;").
function styleOf(el) {
  const props = new Map();
  const write = () => { if (props.size) el.setAttribute("style", [...props].map(([k, v]) => `${k}: ${v};`).join(" ")); else el.removeAttribute("style"); };
  const css = (k) => k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
  return new Proxy({}, {
    get: (_, k) => (k === "cssText" ? el.getAttribute("style") ?? "" : k === "setProperty" ? (n, v) => { props.set(n, v); write(); }
      : k === "getPropertyValue" ? (n) => props.get(n) ?? "" : props.get(css(String(k))) ?? ""),
    set: (_, k, v) => { if (v === "" || v == null) props.delete(css(String(k))); else props.set(css(String(k)), String(v)); write(); return true; },
  });
}

class Document extends Node {
  constructor() { super(); this.documentElement = new Element("html"); this.append(this.documentElement); this.body = new Element("body"); this.documentElement.append(this.body); }
  get activeElement() { return this._active ?? null; }
  set activeElement(el) { this._active = el; }
  getElementById(id) { return this.querySelector(`#${id}`); }
  createElement(tag) { return new Element(tag); }
  createTextNode(t) { return new Text(String(t)); }
  createDocumentFragment() { return new DocumentFragment(); }
}

/** install(): a fresh document as globalThis.document (and Node, for dom.js's instanceof). */
export function install() {
  globalThis.Node = Node;
  globalThis.document = new Document();
  globalThis.IntersectionObserver ??= class { observe() {} unobserve() {} disconnect() {} takeRecords() { return []; } };
  // a served page, online (a test may say otherwise: location.protocol = "file:")
  globalThis.location = new URL("http://localhost/index.html");
  if (!("navigator" in globalThis)) globalThis.navigator = { onLine: true };
  return globalThis.document;
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** html(node): what was drawn, as HTML (attributes in the order they were set). */
export function html(n) {
  if (n instanceof Text) return esc(n.data);
  const inner = n.childNodes.map(html).join("");
  if (!(n instanceof Element)) return inner;
  const attrs = [...n.attributes].map(([k, v]) => (v === "" ? ` ${k}` : ` ${k}="${esc(v).replace(/"/g, "&quot;")}"`)).join("");
  return `<${n.localName}${attrs}>` + (VOID.has(n.localName) && !inner ? "" : `${inner}</${n.localName}>`);
}

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const ENTITY = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const unesc = (s) => s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e) => (e[0] === "#"
  ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITY[e] ?? m));

/**
 * parseHTML(text) → a fragment of the page's own markup (index.html): elements, attributes, text
 * and comments (dropped); a script's or style's body is kept as text. Not a browser's parser: it
 * throws on a closing tag that closes nothing open, and closes no tag by itself but void ones.
 */
export function parseHTML(text) {
  const root = new DocumentFragment();
  const open = [root];
  const re = /<!--[\s\S]*?-->|<!doctype[^>]*>|<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s=>\/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)/giy;
  let m;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    const [, close, tag, attrs, selfClose, txt] = m;
    const top = open.at(-1);
    if (txt !== undefined) { top.append(new Text(unesc(txt))); continue; }
    if (!tag) continue; // a comment or the doctype
    const name = tag.toLowerCase();
    if (close) {
      if (!(top instanceof Element) || top.localName !== name) throw new Error(`parseHTML: </${name}> closes <${top.localName ?? "nothing"}> at ${m.index}`);
      open.pop();
      continue;
    }
    const el = new Element(name);
    for (const a of attrs.matchAll(/([^\s=>\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) el.setAttribute(a[1].toLowerCase(), unesc(a[2] ?? a[3] ?? a[4] ?? ""));
    top.append(el);
    if (VOID.has(name) || selfClose) continue;
    if (name === "script" || name === "style") {
      const end = text.toLowerCase().indexOf(`</${name}>`, re.lastIndex);
      if (end < 0) throw new Error(`parseHTML: <${name}> is not closed`);
      if (end > re.lastIndex) el.append(new Text(text.slice(re.lastIndex, end)));
      re.lastIndex = end + name.length + 3;
      continue;
    }
    open.push(el);
  }
  if (re.lastIndex < text.length) throw new Error(`parseHTML: cannot read the markup at ${re.lastIndex}`);
  if (open.length > 1) throw new Error(`parseHTML: <${open.at(-1).localName}> is not closed`);
  return root;
}

/**
 * outline(node): html(node) one node a line, indented, text nodes quoted (a snapshot that reads
 * and diffs well); text that is a line break and indentation alone is left out.
 */
export function outline(n, depth = 0) {
  const pad = "  ".repeat(depth);
  if (n instanceof Text) return pad + JSON.stringify(n.data);
  // (the markup's own line breaks and indentation are left out)
  const kids = n.childNodes.filter((c) => !(c instanceof Text && /^\s*\n\s*$/.test(c.data)));
  if (!(n instanceof Element)) return kids.map((c) => outline(c, depth)).join("\n");
  const open = html(Object.assign(Object.create(Element.prototype), { tagName: n.tagName, attributes: n.attributes, childNodes: [] })).replace(/<\/\w+>$/, "");
  if (kids.every((c) => c instanceof Text)) return pad + open + kids.map(html).join("") + `</${n.localName}>`;
  return [pad + open, ...kids.map((c) => outline(c, depth + 1)), `${pad}</${n.localName}>`].join("\n");
}
