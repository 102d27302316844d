// render-executor.js — the EXECUTOR column: upstream buffer, builders filling to capacity,
// per-vnode progress, the state table (committed vs pending) and the progress table
// (committed vs durable). Rendering only: every value comes from the view.
import { h, fill, key, keyed, part } from "./dom.js";
import { chipList, chipListPart, rowChip, stepBadge, vnodeLabel, fmtTuple, fmtValue } from "./chips.js";

export function renderExecutor(view, prev, els) {
  const cfg = view.config || {};
  fill(els.sub, cfg.actor !== undefined ? `actor ${cfg.actor}, fragment ${cfg.fragment}` : "");
  renderBuffer(view, prev, els.buffer);
  renderBuilders(view, prev, els.builders, els.buildersSub);
  renderProgress(view, prev, els.progress);
  renderStateTable(view, prev, els.stateTable, els.stateTableSub);
  renderProgressTable(view, prev, els.progressTable, els.progressTableSub);
}

function renderBuffer(view, prev, box) {
  const buf = view.buffer || [];
  if (!buf.length) {
    fill(box, h("p", { class: "empty" }, "empty"));
    return;
  }
  const prevKeys = new Set((prev?.buffer || []).map(key));
  const ol = h("ol", { class: "msgs" });
  for (const entry of buf) {
    const isNew = prev && !prevKeys.has(key(entry));
    ol.append(h("li", { class: ["msg", "msg-chunk", isNew && "changed"] },
      stepBadge(entry.arrived_step),
      h("span", { class: "pill chunk" }, "chunk"),
      chipList(entry.rows, { empty: "empty (all rows were invisible)", markVisible: false })));
  }
  fill(box, h("p", { class: "meta" }, `${buf.length} chunk${buf.length === 1 ? "" : "s"} held until the next barrier marks ${buf.length === 1 ? "it" : "them"}`), ol);
}

function renderBuilders(view, prev, box, sub) {
  const bs = view.builders || [];
  if (!bs.length) {
    fill(sub, "");
    fill(box, h("p", { class: "empty" }, "no builders (they exist only while backfilling)"));
    return;
  }
  const cap = bs[0].capacity;
  fill(sub, bs.every((b) => b.capacity === cap) ? `capacity ${cap} rows each` : "");
  const prevB = new Map((prev?.builders || []).map((b) => [b.vnode, b]));
  // One keyed node per builder: a step rebuilds only the builders whose rows or highlights moved.
  const items = bs.map((b) => {
    const rows = b.rows || [];
    const pb = prevB.get(b.vnode);
    const pkeys = new Set((pb?.rows || []).map(key));
    const changedCount = !!(prev && (pb ? pb.rows.length !== rows.length : rows.length > 0));
    const rowChanged = rows.map((r) => !!(prev && !pkeys.has(key(r))));
    return {
      key: b.vnode,
      sig: key(b) + (changedCount ? "1" : "0") + rowChanged.map(Number).join(""),
      build: () => builderNode(b, changedCount, rowChanged),
    };
  });
  keyed(box, [part("builders", () => h("div", { class: "builders" }), (list) => keyed(list, items))]);
}

function builderNode(b, changedCount, rowChanged) {
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
  return h("div", { class: "builder", "aria-label": `builder for vnode ${b.vnode}: ${rows.length} of ${b.capacity} rows` },
    vnodeLabel(b.vnode),
    gauge,
    h("span", { class: ["count", changedCount && "changed"] }, `${rows.length} / ${b.capacity}`),
    h("div", { class: "builder-rows" }, chipList(rows, {
      empty: "empty",
      op: "+",
      changed: (r, i) => rowChanged[i],
    })));
}

const STATE_TEXT = { not_started: "not started", in_progress: "in progress", completed: "completed" };
const STATE_GLYPH = { not_started: "○", in_progress: "◐", completed: "●" };

function renderProgress(view, prev, box) {
  const ps = view.progress || [];
  if (!ps.length) {
    fill(box, h("p", { class: "empty" }, "not loaded yet (progress is loaded after the first barrier)"));
    return;
  }
  const prevP = new Map((prev?.progress || []).map((p) => [p.vnode, p]));
  const items = ps.map((p) => {
    const k = key(p);
    const changed = !!(prev && key(prevP.get(p.vnode)) !== k);
    return { key: p.vnode, sig: (changed ? "1" : "0") + k, build: () => progressNode(p, changed) };
  });
  keyed(box, [part("progress", () => h("ul", { class: "progress" }), (list) => keyed(list, items))]);
}

function progressNode(p, changed) {
  return h("li", { class: ["prog", "st-" + p.state, changed && "changed"] },
    vnodeLabel(p.vnode),
    h("span", { class: "state" }, h("span", { "aria-hidden": "true" }, STATE_GLYPH[p.state] || "?"), " ", STATE_TEXT[p.state] || p.state),
    p.pos ? h("span", { class: "pos" }, h("span", { class: "k" }, "pos "), fmtTuple(p.pos)) : null,
    p.state !== "not_started" ? h("span", { class: "rows" }, `${p.rows} row${p.rows === 1 ? "" : "s"}`) : null);
}

function renderStateTable(view, prev, box, sub) {
  const st = view.state_table || { rows: [], pending: [] };
  fill(sub, `committed e${st.epoch ?? 0} · durable e${st.durable_epoch ?? 0}`);
  const prevRows = new Set((prev?.state_table?.rows || []).map(key));
  const prevPend = new Set((prev?.state_table?.pending || []).map(key));
  // Group committed rows by vnode for reading.
  const byV = new Map();
  for (const r of st.rows || []) {
    if (!byV.has(r.vnode)) byV.set(r.vnode, []);
    byV.get(r.vnode).push(r);
  }
  // Keyed: one node per vnode row and per pending chip, rebuilt only when it changes.
  const committed = [part("h4", () => h("h4", null, "committed", h("span", { class: "h-sub" }, " what a snapshot created now reads")))];
  if (!byV.size) committed.push(part("empty", () => h("p", { class: "empty" }, "empty")));
  for (const [v, rows] of [...byV.entries()].sort((a, b) => a[0] - b[0])) {
    const vals = rows.map((r) => r.values);
    const flags = vals.map((x) => (prev && !prevRows.has(key({ vnode: v, values: x })) ? "1" : "0")).join("");
    committed.push({
      key: "v" + v, sig: flags + key(vals),
      build: () => h("div", { class: "vrow" }, vnodeLabel(v),
        chipList(vals, { changed: (x, i) => flags[i] === "1" })),
    });
  }
  const pend = st.pending || [];
  const pending = [part("h4", () => h("h4", null, "pending", h("span", { class: "h-sub" }, " written, committed at the next barrier")))];
  if (!pend.length) pending.push(part("empty", () => h("p", { class: "empty" }, "none")));
  else {
    const chips = pend.map((p) => {
      const k = key(p);
      const changed = !!(prev && !prevPend.has(k));
      return {
        key: k, sig: changed ? "1" : "0",
        build: () => h("span", { class: "withv" }, vnodeLabel(p.vnode, "mini"),
          rowChip({ op: p.op, values: p.values }, { changed })),
      };
    });
    pending.push(part("chips", () => h("span", { class: "chips" }), (el) => keyed(el, chips)));
  }
  keyed(box, [part("split", () => h("div", { class: "split" }), (split) => keyed(split, [
    part("committed", () => h("div", { class: "subpanel" }), (el) => keyed(el, committed)),
    part("pending", () => h("div", { class: "subpanel pending" }), (el) => keyed(el, pending)),
  ]))]);
}

function renderProgressTable(view, prev, box, sub) {
  const pt = view.progress_table || { rows: [], durable: [] };
  fill(sub, `durable as of e${pt.durable_epoch ?? 0}`);
  const pk = view.config?.pk || [];
  const prevRows = new Set((prev?.progress_table?.rows || []).map(key));
  const prevDur = new Set((prev?.progress_table?.durable || []).map(key));
  keyed(box, [part("split", () => h("div", { class: "split" }), (split) => keyed(split, [
    tableOf("committed", "by the last barrier", pt.rows || [], pk, (r) => prev && !prevRows.has(key(r))),
    tableOf("durable", "the last checkpoint: what recovery restores", pt.durable || [], pk, (r) => prev && !prevDur.has(key(r))),
  ]))]);
}

// A subpanel with one progress table, as a keyed part: one keyed <tr> per row.
function tableOf(title, hint, rows, pk, changed) {
  const items = [part("h4", () => h("h4", null, title, h("span", { class: "h-sub" }, " " + hint)))];
  if (!rows.length) {
    items.push(part("empty", () => h("p", { class: "empty" }, "no rows (NotStarted vnodes are never persisted)")));
  } else {
    const n = rows[0].length;
    const posCols = Math.max(0, n - 3);
    const names = ["vnode"];
    for (let i = 0; i < posCols; i++) names.push("pos." + (pk[i] ?? i));
    names.push("finished", "rows");
    const trs = rows.map((r) => {
      const ch = !!changed(r);
      return {
        key: r[0], sig: (ch ? "1" : "0") + key(r),
        build: () => h("tr", { class: ch && "changed" },
          r.map((v, i) => h("td", { class: i === n - 2 ? "fin" : null },
            i === 0 ? "v" + v : i === n - 2 ? (v ? "✓ true" : "✗ false") : fmtValue(v)))),
      };
    });
    items.push(part("tablebox",
      () => h("div", { class: "tablebox", tabindex: "0", role: "region", "aria-label": "progress table, " + title }),
      (box) => keyed(box, [part("table", () => h("table", { class: "ptable" }), (table) => keyed(table, [
        part("caption", () => h("caption", { class: "sr-only" }, "progress table, " + title)),
        { key: "thead", sig: key(names), build: () => h("thead", null, h("tr", null, names.map((c) => h("th", { scope: "col" }, c)))) },
        part("tbody", () => h("tbody"), (tbody) => keyed(tbody, trs)),
      ]))])));
  }
  return part(title, () => h("div", { class: "subpanel" }), (wrap) => keyed(wrap, items));
}
