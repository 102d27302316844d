// format-help.js — the editor's help on the scenario format, made from the format's JSON Schema
// (scenario.schema.json, which the engine carries: the bridge's `schema`), so it is in the page
// and in the offline file alike: a section listing every key with its description, and the keys
// that fit where the caret is (the editor offers them).
import { h } from "../ui/dom.js";

/** The schema node a node stands for: $ref followed, and the mapping among oneOf/anyOf/allOf. */
export function resolve(schema, node) {
  for (let i = 0; node && i < 8; i++) {
    if (node.$ref) { node = node.$ref.replace(/^#\//, "").split("/").reduce((n, k) => n?.[k], schema); continue; }
    const alts = node.oneOf || node.anyOf || node.allOf;
    if (!node.properties && alts) { node = alts.find((a) => resolve(schema, a)?.properties) || null; continue; }
    return node;
  }
  return node || null;
}

/** Text with `code` shown as code. */
function rich(text) {
  return String(text || "").split(/(`[^`]+`)/).map((p) => (/^`[^`]+`$/.test(p) ? h("code", null, p.slice(1, -1)) : p.replace(/\*\*/g, "")));
}

/** One mapping's keys as a definition list, with the mappings under them (to `depth`). */
function keyList(schema, node, depth) {
  const n = resolve(schema, node);
  if (!n?.properties) return null;
  const req = new Set(n.required || []);
  return h("dl", { class: "fh-keys" }, Object.entries(n.properties).flatMap(([k, v]) => {
    const r = resolve(schema, v);
    const inner = depth > 0 ? keyList(schema, r?.type === "array" || r?.items ? r.items : r, depth - 1) : null;
    return [
      h("dt", null, h("code", null, k), req.has(k) ? h("span", { class: "tag" }, "required") : null),
      h("dd", null, rich(v.description || r?.description || ""), inner),
    ];
  }));
}

/** The format help section (the editor's "Format help"). */
export function formatHelp(schema) {
  const step = schema.$defs?.step;
  const words = (step?.oneOf || []).find((a) => a.enum);
  return [
    h("p", null, "A scenario is a YAML (or JSON) mapping. Any key not listed here is an error, and the engine names its line and column. Ctrl+Space in the text, or a key below the text, writes a key that fits where the caret is."),
    h("h3", null, "The top level"),
    keyList(schema, schema, 0),
    h("h3", null, "table, vnodes, start"),
    ["table", "vnodes", "start"].map((k) => h("div", { class: "fh-group" }, h("h4", null, h("code", null, k)), keyList(schema, schema.properties?.[k], 1))),
    h("h3", null, "Steps"),
    h("p", null, rich(step?.description || "")),
    words ? h("p", null, "Written alone: ", words.enum.map((w, i) => [i ? ", " : "", h("code", null, w)]), ". ", rich(words.description || "")) : null,
    keyList(schema, step, 0),
    h("h4", null, h("code", null, "barrier"), " as a mapping"),
    keyList(schema, schema.$defs?.barrier, 0),
  ];
}

// ---- where the caret is ----

/** A line's indentation, its list dash, its key: {indent, item, inner (where its content starts), key, blank}. */
function lineInfo(line) {
  const m = /^(\s*)(-\s+)?(?:([A-Za-z_][A-Za-z0-9_]*)\s*:(?=\s|$))?/.exec(line);
  return { indent: m[1].length, item: !!m[2], inner: m[1].length + (m[2] ? m[2].length : 0), key: m[3] || null, blank: !line.trim() || /^\s*#/.test(line) };
}

/**
 * keysAt(text, caret, schema) → {where, keys: [{key, description}]}: the keys the schema allows in
 * the mapping the caret's line belongs to, less those already there. Block style only: inside a
 * value or a flow mapping ({…}) there are none.
 */
export function keysAt(text, caret, schema) {
  const none = { where: "", keys: [] };
  const all = text.split("\n");
  const at = text.slice(0, caret).split("\n").length - 1;
  const typed = all[at].slice(0, caret - text.slice(0, caret).lastIndexOf("\n") - 1);
  const m = /^(\s*)(-\s+)?([A-Za-z_][A-Za-z0-9_]*)?$/.exec(typed);
  if (!m) return none; // in a value, a comment or a flow collection
  const newItem = !!m[2];
  const col = m[1].length + (m[2] ? m[2].length : 0);
  // Up the lines: the list item the line is in (when it continues one), then each key that opens
  // a block around it, nearest last.
  const path = [];
  let limit = newItem ? m[1].length : col;
  let item = -1;
  for (let i = at - 1; i >= 0 && limit > 0; i--) {
    const li = lineInfo(all[i]);
    if (li.blank) continue;
    if (li.item && li.inner === col && !newItem && item < 0 && path.length === 0) { item = i; limit = li.indent; continue; }
    if (li.item && li.inner < limit) { if (li.key) path.unshift(li.key); limit = li.indent; continue; }
    if (li.indent < limit) { if (!li.key) return none; path.unshift(li.key); limit = li.indent; }
  }
  // Down the schema: a key whose value is a list goes into its items.
  let node = resolve(schema, schema);
  for (const k of path) {
    const v = resolve(schema, node?.properties?.[k]);
    node = v && (v.type === "array" || v.items) ? resolve(schema, v.items) : v;
    if (!node) return none;
  }
  if (!node?.properties) return none;
  // The keys already there: the mapping's other lines at the caret's column.
  const here = new Set();
  if (!newItem) {
    let lo = at;
    if (item >= 0) lo = item;
    else while (lo > 0) { const li = lineInfo(all[lo - 1]); if (!li.blank && (li.indent < col || (li.item && li.inner <= col))) break; lo--; }
    for (let i = lo; i < all.length; i++) {
      const li = lineInfo(all[i]);
      if (li.blank || i === at) continue;
      if (i > lo && (li.indent < col || (li.item && li.inner <= col))) break;
      if ((li.item ? li.inner : li.indent) === col && li.key) here.add(li.key);
    }
  }
  const typing = m[3] || "";
  return {
    where: path.join(".") || "the top level",
    keys: Object.entries(node.properties).filter(([k]) => !here.has(k) && k.startsWith(typing))
      .map(([k, v]) => ({ key: k, description: String(v.description || resolve(schema, v)?.description || "") })),
  };
}
