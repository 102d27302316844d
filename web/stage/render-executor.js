// render-executor.js — the EXECUTOR column: upstream buffer, builders filling to capacity,
// per-vnode progress, the state table (committed vs pending) and the progress table
// (committed vs durable, its columns named by the view). Rendering only: every value comes from
// the view, and what the last step changed from its changed_vnodes.
import { h, fillIf, setText, key, keyed, part, toggleClass } from "../ui/dom.js";
import { longList } from "./longlist.js";
import { chipList, rowChip, stepBadge, vnodeLabel, fmtTuple, fmtValue, legend } from "./chips.js";

export function renderExecutor(view, els) {
  const cfg = view.config || {};
  const changed = (panel) => new Set(view.changed_vnodes?.[panel] || []);
  renderActor(view, cfg, els.sub);
  renderBuffer(view, els.buffer);
  renderBuilders(view, changed("builders"), els.builders, els.buildersSub);
  renderProgress(view, changed("progress"), els.progress);
  renderStateTable(view, changed("state_table"), els.stateTable, els.stateTableSub);
  renderProgressTable(view, changed("progress_table"), changed("progress_table_durable"), els.progressTable, els.progressTableSub);
}

// The header's line: the actor and fragment, and the actor's state in the engine's one word
// (view.actor.label) with its sentence as the title; the state goes to a line of its own, whole,
// when the column is too narrow for both.
function renderActor(view, cfg, sub) {
  const head = cfg.actor !== undefined ? `actor ${cfg.actor}, fragment ${cfg.fragment}` : "";
  const a = view.actor;
  // (the actor and fragment in a span of their own: presenter mode leaves them out, not the state)
  // (the space between them outside both: a line may break there, and only there)
  fillIf(sub, key([head, a?.state, a?.label, a?.text]), () => [head && h("span", { class: "actor-id" }, head), a && " ", a && h("span", {
    class: ["actor-state", a.state !== "running" && "actor-out"], "data-testid": "actor-state", "data-state": a.state, title: a.text,
  }, `· ${a.label}`)]);
}

function renderBuffer(view, box) {
  const buf = view.buffer || [];
  // (drawn again only when the chunks, or which of them arrived with this step, changed)
  fillIf(box, key(buf) + buf.map((e) => (e.arrived_step === view.step ? "1" : "0")).join(""), () => bufferParts(view, buf));
}

function bufferParts(view, buf) {
  if (!buf.length) return h("p", { class: "empty" }, "empty");
  const ol = h("ol", { class: "msgs" });
  for (const entry of buf) {
    const isNew = entry.arrived_step === view.step; // arrived with this step
    ol.append(h("li", { class: ["msg", "msg-chunk", isNew && "changed"] },
      stepBadge(entry.arrived_step, "buffer"),
      h("span", { class: "pill chunk" }, "chunk"),
      chipList(entry.rows, { empty: "empty (all rows were invisible)", markVisible: false })));
  }
  // one flex item (.meta is a flex row: a glossary term would split a bare text into items, a
  // gap before the colon and a line that starts with it), the count and its colon unbroken
  return [h("p", { class: "meta" }, h("span", null,
    h("span", { class: "meta-count" }, `${buf.length} chunk${buf.length === 1 ? "" : "s"}:`), " ", h("span", { class: "gloss" }, legend("buffer.held")))), ol];
}

function renderBuilders(view, changedVnodes, box, sub) {
  const bs = view.builders || [];
  if (!bs.length) {
    setText(sub, "");
    keyed(box, [{ key: "\0none", sig: "", build: () => h("p", { class: "empty" }, legend("builders.none")) }]);
    return;
  }
  const cap = bs[0].capacity;
  setText(sub, bs.every((b) => b.capacity === cap) ? `capacity ${cap} rows each` : "");
  // One keyed node per builder: a step rebuilds only the builders whose rows or highlights moved;
  // a long list is drawn a page at a time (longlist.js).
  const item = (i) => {
    const b = bs[i];
    const changed = changedVnodes.has(b.vnode);
    return {
      key: b.vnode, sig: key(b), hl: changed ? "1" : "", build: () => builderNode(b, changed),
      patch: (node, hl) => {
        toggleClass(node, "builder-changed", hl === "1");
        toggleClass(node.querySelector(":scope > .count"), "changed", hl === "1");
      },
    };
  };
  keyed(box, [part("builders", () => h("div", { class: "builders" }),
    (list) => longList(list, bs.length, item, { page: 32, more: (n) => `… ${n} more builder${n === 1 ? "" : "s"}` }))]);
}

function builderNode(b, changed) {
  const rows = b.rows || [];
  const pct = b.capacity ? Math.min(100, (rows.length / b.capacity) * 100) : 0;
  let gauge;
  if (b.capacity <= 16) {
    gauge = h("span", { class: "slots", "aria-hidden": "true" });
    for (let i = 0; i < b.capacity; i++) gauge.append(h("span", { class: ["slot", i < rows.length && "full"] }));
  } else {
    const bar = h("span", { class: "bar", "aria-hidden": "true" }, h("span", { class: "bar-fill" }));
    bar.firstChild.style.width = (rows.length ? Math.max(pct, 1.5) : 0) + "%";
    gauge = bar;
  }
  return h("div", { class: ["builder", changed && "builder-changed"], "data-vnode": b.vnode, "aria-label": `builder for vnode ${b.vnode}: ${rows.length} of ${b.capacity} rows` },
    vnodeLabel(b.vnode),
    gauge,
    h("span", { class: ["count", changed && "changed"] }, `${rows.length} / ${b.capacity}`),
    // an empty builder is its gauge and "0 / N": no line of its own saying so
    rows.length ? h("div", { class: "builder-rows" }, chipList(rows, { op: "+" })) : null);
}

/** hlChanged(node, hl): an item drawn before gets (hl "1") or loses its change highlight. */
function hlChanged(node, hl) { toggleClass(node, "changed", hl === "1"); }

const STATE_TEXT = { not_started: "not started", in_progress: "in progress", completed: "completed" };
const STATE_GLYPH = { not_started: "○", in_progress: "◐", completed: "●" };

function renderProgress(view, changedVnodes, box) {
  const ps = view.progress || [];
  if (!ps.length) {
    keyed(box, [{ key: view.dropped ? "\0dropped" : "\0none", sig: "", build: () => h("p", { class: "empty" }, view.dropped ? legend("progress.dropped") : legend("progress.none")) }]);
    return;
  }
  const item = (i) => {
    const p = ps[i];
    const changed = changedVnodes.has(p.vnode);
    return { key: p.vnode, sig: key(p), hl: changed ? "1" : "", build: () => progressNode(p, changed), patch: hlChanged };
  };
  keyed(box, [part("progress", () => h("ul", { class: "progress" }),
    (list) => longList(list, ps.length, item, { page: 32, tag: "li", more: (n) => `… ${n} more vnode${n === 1 ? "" : "s"}` }))]);
}

function progressNode(p, changed) {
  return h("li", { class: ["prog", "st-" + p.state, changed && "changed"], "data-vnode": p.vnode },
    vnodeLabel(p.vnode),
    h("span", { class: "state" }, h("span", { "aria-hidden": "true" }, STATE_GLYPH[p.state] || "?"), " ", STATE_TEXT[p.state] || p.state),
    p.pos ? h("span", { class: "pos" }, h("span", { class: "k" }, "pos "), fmtTuple(p.pos)) : null,
    p.pos ? h("span", { class: "rows" }, `${p.rows} row${p.rows === 1 ? "" : "s"}`) : null);
}

function renderStateTable(view, changedVnodes, box, sub) {
  const st = view.state_table || { rows: [], pending: [] };
  setText(sub, `committed e${st.epoch ?? 0} · durable e${st.durable_epoch ?? 0}`);
  if (droppedWithTheJob(view, box, legend("state_table.dropped"), st.rows, st.pending)) return;
  // Group committed rows by vnode for reading.
  const byV = new Map();
  for (const r of st.rows || []) {
    if (!byV.has(r.vnode)) byV.set(r.vnode, []);
    byV.get(r.vnode).push(r);
  }
  // Keyed: one node per vnode row and per pending chip, rebuilt only when it changes; a long
  // list is drawn a page at a time (longlist.js).
  const committedHead = [part("h4", () => h("h4", null, "committed", h("span", { class: "h-sub" }, " " + legend("state_table.committed"))))];
  if (!byV.size) committedHead.push(part("empty", () => h("p", { class: "empty" }, "empty")));
  const groups = [...byV.entries()].sort((a, b) => a[0] - b[0]);
  const vrow = (i) => {
    const [v, rows] = groups[i];
    const vals = rows.map((r) => r.values);
    const changed = changedVnodes.has(v);
    return {
      key: "v" + v, sig: key(vals), hl: changed ? "1" : "", patch: hlChanged,
      build: () => {
        // a vnode's rows too are drawn a page at a time (they keep their pages when the row is rebuilt)
        const chips = h("span", { class: "chips" });
        longList(chips, vals.length, (j) => ({ key: j, sig: "", build: () => rowChip(vals[j]) }),
          { page: 48, tag: "span", id: "state-table-v" + v, more: (n) => `… ${n} more row${n === 1 ? "" : "s"}` });
        return h("div", { class: ["vrow", changed && "changed"], "data-vnode": v }, vnodeLabel(v), chips);
      },
    };
  };
  const pend = st.pending || [];
  const pending = [part("h4", () => h("h4", null, "pending", h("span", { class: "h-sub" }, " " + legend("state_table.pending"))))];
  if (!pend.length) pending.push(part("empty", () => h("p", { class: "empty" }, "none")));
  else {
    const chip = (i) => {
      const p = pend[i];
      return {
        key: key(p), sig: "",
        build: () => h("span", { class: "withv" }, vnodeLabel(p.vnode, "mini"), rowChip({ op: p.op, values: p.values })),
      };
    };
    pending.push(part("chips", () => h("span", { class: "chips" }),
      (el) => longList(el, pend.length, chip, { page: 120, tag: "span", more: (n) => `… ${n} more write${n === 1 ? "" : "s"}` })));
  }
  keyed(box, [part("split", () => h("div", { class: "split" }), (split) => keyed(split, [
    part("committed", () => h("div", { class: "subpanel" }),
      (el) => longList(el, groups.length, vrow, { page: 16, head: committedHead, more: (n) => `… ${n} more vnode${n === 1 ? "" : "s"}` })),
    part("pending", () => h("div", { class: "subpanel pending" }), (el) => keyed(el, pending)),
  ]))]);
}

function renderProgressTable(view, changedRows, changedDurable, box, sub) {
  const pt = view.progress_table || { rows: [], durable: [], columns: [] };
  setText(sub, `durable as of e${pt.durable_epoch ?? 0}`);
  if (droppedWithTheJob(view, box, legend("progress_table.dropped"), pt.rows, pt.durable)) return;
  const cols = pt.columns || [];
  keyed(box, [part("split", () => h("div", { class: "split" }), (split) => keyed(split, [
    tableOf("committed", legend("progress_table.committed"), pt.rows || [], cols, changedRows),
    tableOf("durable", legend("progress_table.durable"), pt.durable || [], cols, changedDurable),
  ]))]);
}

/**
 * A dropped job's table went with it: one line says so, in place of an empty committed and
 * pending (or durable) half. It reports whether it drew that line.
 */
function droppedWithTheJob(view, box, text, ...halves) {
  if (!view.dropped || halves.some((rows) => rows?.length)) return false;
  keyed(box, [{ key: "\0dropped", sig: "", build: () => h("p", { class: "empty" }, text) }]);
  return true;
}

/** One cell of a table the view gives as tuples, shown by what its column holds. */
function cell(col, v) {
  switch (col && col.kind) {
    case "vnode": return h("td", null, "v" + v);
    case "bool": return h("td", { class: "fin" }, v ? "✓ yes" : "✗ no");
    default: return h("td", null, fmtValue(v));
  }
}

/**
 * The progress table's headings: the pos columns (one per pk column, "pos.a") under one
 * "position" heading, each named by its column ("a"); the others by their names.
 */
function headOf(cols) {
  const pos = cols.filter((c) => c.kind === "value" && c.of);
  if (!pos.length) return h("thead", null, h("tr", null, cols.map((c) => h("th", { scope: "col" }, c.name))));
  const top = [];
  for (const c of cols) {
    if (c === pos[0]) top.push(h("th", { scope: "colgroup", colspan: String(pos.length) }, "position"));
    else if (!pos.includes(c)) top.push(h("th", { scope: "col", rowspan: "2" }, c.name));
  }
  return h("thead", null, h("tr", null, top), h("tr", null, pos.map((c) => h("th", { scope: "col" }, c.of))));
}

// A subpanel with one progress table, as a keyed part: one keyed <tr> per row, keyed by vnode.
function tableOf(title, hint, rows, cols, changedVnodes) {
  const items = [part("h4", () => h("h4", null, title, h("span", { class: "h-sub" }, " " + hint)))];
  const vnodeAt = Math.max(0, cols.findIndex((c) => c.kind === "vnode"));
  if (!rows.length) {
    items.push(part("empty", () => h("p", { class: "empty" }, legend("progress_table.none"))));
  } else {
    const tr = (j) => {
      const r = rows[j];
      const ch = changedVnodes.has(r[vnodeAt]);
      return {
        key: r[vnodeAt], sig: key(r), hl: ch ? "1" : "", patch: hlChanged,
        build: () => h("tr", { class: ch && "changed" }, r.map((v, i) => cell(cols[i], v))),
      };
    };
    items.push(part("tablebox",
      () => h("div", { class: "tablebox", tabindex: "0", role: "region", "aria-label": "progress table, " + title }),
      (box) => keyed(box, [part("table", () => h("table", { class: "ptable" }), (table) => keyed(table, [
        part("caption", () => h("caption", { class: "sr-only" }, "progress table, " + title)),
        { key: "thead", sig: key(cols), build: () => headOf(cols) },
        part("tbody", () => h("tbody"), (tbody) => longList(tbody, rows.length, tr,
          { page: 32, tag: "tr", colspan: Math.max(1, cols.length), more: (n) => `… ${n} more row${n === 1 ? "" : "s"}` })),
      ]))])));
  }
  return part(title, () => h("div", { class: "subpanel" }), (wrap) => keyed(wrap, items));
}
