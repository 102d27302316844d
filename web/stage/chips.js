// chips.js — how rows, tuples and messages look: small chips in pk order.
// A chip is "op + values", e.g. +(3,102), with ✓/✗ for visibility (glyph and colour).
import { h, keyed, part, toggleClass } from "../ui/dom.js";
import { longList } from "./longlist.js";

const OP_NAMES = { "+": "insert", "-": "delete", "U-": "update-delete", "U+": "update-insert" };
const OP_CLASS = { "+": "ins", "-": "del", "U-": "upd", "U+": "upd" };

/** One value as text: numbers as is, NULL for null, bare words bare, other strings quoted. */
export function fmtValue(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && v !== "NULL" && v !== "null"
      ? v
      : "'" + v.replace(/'/g, "''") + "'";
  }
  return String(v);
}

/** A tuple as text: (3,102). */
export function fmtTuple(values) {
  if (values === null || values === undefined) return "—";
  if (!Array.isArray(values)) return fmtValue(values);
  return "(" + values.map(fmtValue).join(",") + ")";
}

/**
 * A row chip.
 * row: an array of values, or {op, values, visible, vnode, why}.
 * opts: {changed, showVnode, op}
 */
export function rowChip(row, opts = {}) {
  const r = Array.isArray(row) ? { values: row } : (row || {});
  const op = r.op ?? opts.op;
  const tuple = fmtTuple(r.values);
  const cls = ["chip"];
  if (op) cls.push("op-" + (OP_CLASS[op] || "ins"));
  let mark = null;
  let label = (op ? (OP_NAMES[op] || op) + " " : "") + tuple;
  if (r.visible === true && opts.markVisible !== false) { cls.push("vis"); mark = h("span", { class: "mark", "aria-hidden": "true" }, "✓"); label += ", visible"; }
  if (r.visible === false) { cls.push("hid"); mark = h("span", { class: "mark", "aria-hidden": "true" }, "✗"); label += ", hidden"; }
  if (opts.showVnode && r.vnode !== undefined && r.vnode !== null) label += ", vnode " + r.vnode;
  if (r.why) label += ": " + r.why;
  if (opts.changed) cls.push("changed");
  if (opts.extraClass) cls.push(opts.extraClass);
  return h("span", { class: cls, title: r.why || null, "aria-label": label, role: "img" },
    op ? h("span", { class: "op", "aria-hidden": "true" }, op) : null,
    h("span", { class: "tuple", "aria-hidden": "true" }, tuple),
    mark,
  );
}

/** A list of chips in a wrapping row. */
export function chipList(rows, opts = {}) {
  const list = h("span", { class: "chips" });
  if (!rows || rows.length === 0) {
    list.append(h("span", { class: "empty" }, opts.empty ?? "empty"));
    return list;
  }
  rows.forEach((r, i) => {
    const changed = typeof opts.changed === "function" ? opts.changed(r, i) : false;
    list.append(rowChip(r, { ...opts, changed }));
  });
  return list;
}

/**
 * chipList as a keyed part (see keyed in dom.js): the same span.chips across renders, each chip
 * kept while its row and its change highlight stay the same. Same look as chipList.
 */
export function chipListPart(partKey, rows, opts = {}) {
  return part(partKey, () => h("span", { class: "chips" }), (list) => {
    if (!rows || rows.length === 0) {
      const text = opts.empty ?? "empty";
      keyed(list, [{ key: "\0empty", sig: text, build: () => h("span", { class: "empty" }, text) }]);
      return;
    }
    // a long list of rows is drawn a page at a time (longlist.js)
    longList(list, rows.length, (i) => {
      const r = rows[i];
      const changed = typeof opts.changed === "function" ? opts.changed(r, i) : false;
      return {
        key: JSON.stringify(r), sig: "", hl: changed ? "1" : "", build: () => rowChip(r, { ...opts, changed }),
        patch: (chip, hl) => toggleClass(chip, "changed", hl === "1"),
      };
    }, { page: 120, tag: "span", more: (n) => `… ${n} more row${n === 1 ? "" : "s"}` });
  });
}

/** A vnode label: v0, v1 … */
export function vnodeLabel(v, extra) {
  return h("span", { class: ["vnode", extra], title: "vnode " + v }, "v" + v);
}

/**
 * A step badge (#12) saying which script step delivered or emitted something; `what` (output,
 * buffer, upstream) names the legend's step.<what>, its tooltip and spoken label: "emitted at step 12".
 */
export function stepBadge(step, what) {
  if (step === undefined || step === null) return null;
  const label = `${legendOf("step", what)} ${step}`; // what the number is: the legend's step.output…
  return h("span", { class: "stepno", title: label, "aria-label": label }, "#" + step);
}

/** A barrier pill: barrier e4 (+ tags for mutation and checkpoint). */
function barrierPill(msg) {
  const tags = [];
  if (msg.checkpoint === false) tags.push(h("span", { class: "tag" }, "non-checkpoint"));
  if (msg.start_backfill && msg.start_backfill.length)
    tags.push(h("span", { class: "tag tag-start" }, "start backfill [" + msg.start_backfill.join(", ") + "]"));
  if (msg.rescale) tags.push(h("span", { class: "tag tag-warn" }, "rescale"));
  return [h("span", { class: "pill barrier", "aria-label": "barrier epoch " + msg.epoch },
    h("span", { "aria-hidden": "true" }, legendOf("message", "barrier")), " e" + msg.epoch), ...tags];
}

/**
 * An upstream message or an output, rendered inline (without its step badge).
 * opts.markVisible: false shows ✗ on invisible rows only (upstream input, where ✓ is noise).
 */
export function messageBody(msg, opts = {}) {
  switch (msg.type) {
    case "barrier":
      return barrierPill(msg);
    case "chunk":
      return [
        h("span", { class: "pill chunk" }, legendOf("message", "chunk")),
        msg.source ? h("span", { class: "tag tag-src", title: legendOf("source", msg.source) }, msg.source) : null,
        chipList(msg.rows, { empty: "empty chunk", changed: opts.rowChanged, markVisible: opts.markVisible }),
      ];
    case "watermark":
      return [h("span", { class: "pill wm", "aria-label": "watermark " + msg.column + " = " + fmtValue(msg.value) },
        h("span", { "aria-hidden": "true" }, legendOf("message", "watermark")), " " + msg.column + " = " + fmtValue(msg.value))];
    case "recovery":
      return [h("span", { class: "pill recovery" }, "⟲ recovery"), " rolled back to checkpoint e" + msg.epoch];
    default: // any other kind of step (engine/event.go): its pill from the engine's legend, then its message
      return [h("span", { class: "pill " + msg.type }, legendOf("message", msg.type)),
        ...(msg.message == null ? [] : [" ", h("span", { class: "errtext" }, msg.message)])];
  }
}

/** The legend's text for a value of a view field (e.g. a chunk's source), or the value itself. */
export function legendOf(field, value) {
  const t = legendTexts[`${field}.${value}`];
  return t ?? String(value);
}

// The engine's legend (glossary/legend.go): texts about the protocol shown beside the data.
let legendTexts = {};

/** setLegend installs the engine's legend (app.js, once at start). */
export function setLegend(texts) { legendTexts = texts || {}; }

/** legend(k) is the engine's text for key k (k itself until the legend is in). */
export function legend(k) { return legendTexts[k] ?? k; }
