// render-executor.js — the EXECUTOR column: upstream buffer, builders filling to capacity,
// per-vnode progress, the state table (committed vs pending) and the progress table
// (committed vs durable). Rendering only: every value comes from the view.
import { h, fill, key } from "./dom.js";
import { chipList, rowChip, stepBadge, vnodeLabel, fmtTuple, fmtValue } from "./chips.js";

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
  const list = h("div", { class: "builders" });
  for (const b of bs) {
    const rows = b.rows || [];
    const pb = prevB.get(b.vnode);
    const pkeys = new Set((pb?.rows || []).map(key));
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
    const changedCount = prev && (pb ? pb.rows.length !== rows.length : rows.length > 0);
    list.append(h("div", { class: "builder", "aria-label": `builder for vnode ${b.vnode}: ${rows.length} of ${b.capacity} rows` },
      vnodeLabel(b.vnode),
      gauge,
      h("span", { class: ["count", changedCount && "changed"] }, `${rows.length} / ${b.capacity}`),
      h("div", { class: "builder-rows" }, chipList(rows, {
        empty: "empty",
        op: "+",
        changed: (r) => prev && !pkeys.has(key(r)),
      }))));
  }
  fill(box, list);
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
  const list = h("ul", { class: "progress" });
  for (const p of ps) {
    const changed = prev && key(prevP.get(p.vnode)) !== key(p);
    list.append(h("li", { class: ["prog", "st-" + p.state, changed && "changed"] },
      vnodeLabel(p.vnode),
      h("span", { class: "state" }, h("span", { "aria-hidden": "true" }, STATE_GLYPH[p.state] || "?"), " ", STATE_TEXT[p.state] || p.state),
      p.pos ? h("span", { class: "pos" }, h("span", { class: "k" }, "pos "), fmtTuple(p.pos)) : null,
      p.state !== "not_started" ? h("span", { class: "rows" }, `${p.rows} row${p.rows === 1 ? "" : "s"}`) : null));
  }
  fill(box, list);
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
  const committed = h("div", { class: "subpanel" }, h("h4", null, "committed", h("span", { class: "h-sub" }, " what a snapshot created now reads")));
  if (!byV.size) committed.append(h("p", { class: "empty" }, "empty"));
  for (const [v, rows] of [...byV.entries()].sort((a, b) => a[0] - b[0])) {
    committed.append(h("div", { class: "vrow" }, vnodeLabel(v),
      chipList(rows.map((r) => r.values), {
        changed: (vals) => prev && !prevRows.has(key({ vnode: v, values: vals })),
      })));
  }
  const pend = st.pending || [];
  const pending = h("div", { class: "subpanel pending" }, h("h4", null, "pending", h("span", { class: "h-sub" }, " written, committed at the next barrier")));
  if (!pend.length) pending.append(h("p", { class: "empty" }, "none"));
  else {
    const chips = h("span", { class: "chips" });
    for (const p of pend) {
      chips.append(h("span", { class: "withv" }, vnodeLabel(p.vnode, "mini"),
        rowChip({ op: p.op, values: p.values }, { changed: prev && !prevPend.has(key(p)) })));
    }
    pending.append(chips);
  }
  fill(box, h("div", { class: "split" }, committed, pending));
}

function renderProgressTable(view, prev, box, sub) {
  const pt = view.progress_table || { rows: [], durable: [] };
  fill(sub, `durable as of e${pt.durable_epoch ?? 0}`);
  const pk = view.config?.pk || [];
  const prevRows = new Set((prev?.progress_table?.rows || []).map(key));
  const prevDur = new Set((prev?.progress_table?.durable || []).map(key));
  fill(box, h("div", { class: "split" },
    tableOf("committed", "by the last barrier", pt.rows || [], pk, (r) => prev && !prevRows.has(key(r))),
    tableOf("durable", "the last checkpoint: what recovery restores", pt.durable || [], pk, (r) => prev && !prevDur.has(key(r)))));
}

function tableOf(title, hint, rows, pk, changed) {
  const wrap = h("div", { class: "subpanel" }, h("h4", null, title, h("span", { class: "h-sub" }, " " + hint)));
  if (!rows.length) {
    wrap.append(h("p", { class: "empty" }, "no rows (NotStarted vnodes are never persisted)"));
    return wrap;
  }
  const n = rows[0].length;
  const posCols = Math.max(0, n - 3);
  const names = ["vnode"];
  for (let i = 0; i < posCols; i++) names.push("pos." + (pk[i] ?? i));
  names.push("finished", "rows");
  const table = h("table", { class: "ptable" },
    h("caption", { class: "sr-only" }, "progress table, " + title),
    h("thead", null, h("tr", null, names.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", null, rows.map((r) => h("tr", { class: changed(r) && "changed" },
      r.map((v, i) => h("td", { class: i === n - 2 ? "fin" : null },
        i === 0 ? "v" + v : i === n - 2 ? (v ? "✓ true" : "✗ false") : fmtValue(v)))))));
  wrap.append(h("div", { class: "tablebox", tabindex: "0", role: "region", "aria-label": "progress table, " + title }, table));
  return wrap;
}
