// render-stage.test.mjs — the stage (web/stage/render.js with render-upstream.js,
// render-executor.js, render-downstream.js, chips.js and longlist.js) drawn under Node into index.html's markup
// (stage.mjs) from the real engine's views: at every step of a few built-ins, under each release
// and under bug modes, walked forward and then back (a step redraws only what changed: dom.js
// keyed), what the stage shows is what the view says — the queue, the snapshot lanes and their
// cursors, the content, the actor's state, the buffer, the builders' fill, the progress rows, the
// state and progress tables, the output log, downstream's rows, the invariant and the panels
// marked changed. A few steps are also kept as snapshots (snapshots.mjs). Layout, scrolling and
// keys stay with the browser suite.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { call } from "./engine.mjs";
import { newStage } from "./stage.mjs";
import { outline } from "./dom.mjs";
import { matchSnapshot } from "./snapshots.mjs";

let stage;
before(async () => { stage = await newStage(); });

// A value and a tuple as the page writes them (chips.js), written again here.
const fmt = (v) => (v === null || v === undefined ? "NULL" : typeof v !== "string" ? String(v)
  : /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && v !== "NULL" && v !== "null" ? v : `'${v.replace(/'/g, "''")}'`);
const tuple = (vals) => (Array.isArray(vals) ? `(${vals.map(fmt).join(",")})` : vals == null ? "—" : fmt(vals));
const valuesOf = (r) => (Array.isArray(r) ? r : r.values);
const tuples = (el) => el.querySelectorAll(".chip .tuple").map((t) => t.textContent);
const squash = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
/** The items a long list draws (longlist.js): the first `page` (fromEnd: the last). */
const page = (xs, n, fromEnd = false) => (fromEnd ? xs.slice(Math.max(0, xs.length - n)) : xs.slice(0, n));
const items = (list, sel) => list.querySelectorAll(`:scope > ${sel}:not(.long-more)`);
const marker = (list) => list.querySelector(":scope > .long-more .long-more-text")?.textContent ?? null;

function checkUpstream(v, at) {
  const up = v.upstream || {};
  const next = up.next || [];
  const lis = stage.el("upstream-next").querySelectorAll(":scope > li");
  if (!next.length) {
    assert.deepEqual(lis.map((li) => [li.className, li.textContent]), [["msg empty", stage.legend(up.ended ? "upstream.ended" : "upstream.nothing")]], at);
  } else {
    const msgs = lis.filter((li) => !li.matches(".ended, .more"));
    assert.equal(lis[0].matches(".ended"), !!up.ended, `${at}: the ended line first`);
    assert.deepEqual(msgs.map((li) => li.querySelector(".stepno").textContent), next.map((m) => `#${m.step}`), `${at}: the queue`);
    msgs.forEach((li, i) => {
      const m = next[i];
      assert.ok(li.classList.contains(`msg-${m.type}`), `${at}: message ${i} is a ${m.type}`);
      assert.equal(li.classList.contains("is-next"), i === 0, `${at}: message ${i} next`);
      assert.equal(li.querySelectorAll(".sr-next").length, i === 0 ? 1 : 0, `${at}: message ${i} said next`);
      if (m.type === "chunk") assert.deepEqual(tuples(li), m.rows.map((r) => tuple(r.values)), at);
      if (m.type === "barrier") assert.equal(li.querySelector(".pill.barrier").textContent, `barrier e${m.epoch}`, at);
    });
    assert.equal(lis.at(-1).matches(".more") ? lis.at(-1).textContent : null, up.more > 0 ? `… and ${up.more} more` : null, at);
  }
  const content = stage.el("upstream-content").querySelector(".chips");
  assert.deepEqual(tuples(content), page(up.content || [], 120).map(tuple), `${at}: upstream content`);
}

function checkSnapshot(v, at) {
  const box = stage.el("snapshot");
  const snap = v.snapshot;
  assert.equal(stage.el("h-snapshot").textContent, snap ? `Snapshot as of e${snap.epoch}` : "Snapshot", at);
  if (!snap) {
    assert.equal(squash(box.textContent), stage.legend("snapshot.none"), at);
    return;
  }
  assert.match(box.querySelector(".meta").textContent, new RegExp(`^${plural(snap.remaining, "item")} to deliver`), at);
  const lanes = items(box.querySelector(".lanes"), ".lane");
  const vnodes = snap.vnodes || [];
  assert.deepEqual(lanes.map((l) => Number(l.dataset.vnode)), page(vnodes, 16).map((l) => l.vnode), `${at}: lanes`);
  assert.equal(marker(box.querySelector(".lanes")), vnodes.length > 16 ? `… ${plural(vnodes.length - 16, "more lane")}` : null, at);
  const moved = new Set(v.changed_vnodes?.snapshot || []);
  lanes.forEach((el, i) => {
    const lane = vnodes[i];
    const where = `${at}, lane v${lane.vnode}`;
    const rows = lane.rows || [];
    const total = lane.total ?? (lane.offset || 0) + rows.length;
    assert.deepEqual(tuples(el), rows.map(tuple), where);
    assert.deepEqual(el.querySelectorAll(".chip").map((c) => c.classList.contains("read")), rows.map((_, j) => j < lane.next), `${where}: rows read`);
    // the cursor stands before the next row to read (after the last when all are read)
    const track = el.querySelector(".lane-rows").children;
    const cursorAt = track.findIndex((c) => c.classList.contains("cursor"));
    const firstUnread = track.findIndex((c) => c.classList.contains("chip") && !c.classList.contains("read"));
    const later = total - (lane.offset || 0) - rows.length;
    if (lane.next < rows.length) assert.equal(cursorAt, firstUnread - 1, `${where}: the cursor`);
    else if (later <= 0) assert.equal(track.at(-2).classList.contains("cursor") && track.at(-1).textContent, rows.length ? "done" : "no rows", where);
    if (cursorAt >= 0) assert.equal(track[cursorAt].classList.contains("changed"), moved.has(lane.vnode), `${where}: the cursor's highlight`);
    assert.equal(el.getAttribute("aria-label"), `vnode ${lane.vnode}: ${(lane.offset || 0) + lane.next} of ${total} rows read`, where);
    assert.equal(el.querySelector(".lane-pos").textContent, lane.pos ? `${stage.legend("snapshot.pos")} ${tuple(lane.pos)}` : stage.legend("snapshot.no_pos"), where);
  });
}

function checkActor(v, at) {
  const cfg = v.config || {};
  const a = v.actor;
  const head = cfg.actor !== undefined ? `actor ${cfg.actor}, fragment ${cfg.fragment}` : "";
  // the state in the engine's one word (`label`), the whole state on the element, the sentence as its title
  if (a) assert.match(a.label, /^[a-z]+$/, `${at}: the actor's label is one word`);
  assert.equal(stage.el("executor-sub").textContent, head + (a ? ` · ${a.label}` : ""), `${at}: the actor line`);
  const state = stage.el("executor-sub").querySelector('[data-testid="actor-state"]');
  assert.equal(state?.title ?? null, a ? a.text : null, at);
  assert.equal(state?.dataset.state ?? null, a ? a.state : null, at);
  if (a) assert.equal(state.classList.contains("actor-out"), a.state !== "running", at);
}

function checkBuffer(v, at) {
  const buf = v.buffer || [];
  const box = stage.el("buffer");
  if (!buf.length) { assert.equal(box.textContent, "empty", at); return; }
  assert.equal(box.querySelector(".meta-count").textContent, `${plural(buf.length, "chunk")}:`, at);
  const lis = box.querySelectorAll("ol.msgs > li.msg-chunk");
  assert.deepEqual(lis.map((li) => li.querySelector(".stepno").textContent), buf.map((e) => `#${e.arrived_step}`), `${at}: the buffer`);
  lis.forEach((li, i) => {
    assert.deepEqual(tuples(li), (buf[i].rows || []).map((r) => tuple(valuesOf(r))), `${at}: buffered chunk ${i}`);
    assert.equal(li.classList.contains("changed"), buf[i].arrived_step === v.step, `${at}: chunk ${i} new`);
  });
}

function checkBuilders(v, at) {
  const bs = v.builders || [];
  const box = stage.el("builders");
  if (!bs.length) { assert.equal(box.textContent, stage.legend("builders.none"), at); return; }
  const cap = bs[0].capacity;
  assert.equal(stage.el("builders-sub").textContent, bs.every((b) => b.capacity === cap) ? `capacity ${cap} rows each` : "", at);
  const list = box.querySelector(".builders");
  const drawn = items(list, ".builder");
  assert.deepEqual(drawn.map((b) => Number(b.dataset.vnode)), page(bs, 32).map((b) => b.vnode), `${at}: builders`);
  assert.equal(marker(list), bs.length > 32 ? `… ${plural(bs.length - 32, "more builder")}` : null, at);
  const changed = new Set(v.changed_vnodes?.builders || []);
  drawn.forEach((el, i) => {
    const b = bs[i];
    const n = (b.rows || []).length;
    const where = `${at}, builder v${b.vnode}`;
    assert.equal(el.querySelector(".count").textContent, `${n} / ${b.capacity}`, where);
    assert.deepEqual(tuples(el), (b.rows || []).map((r) => tuple(valuesOf(r))), where);
    assert.ok(el.querySelectorAll(".chip .op").every((o) => o.textContent === "+"), `${where}: rows to insert`);
    if (b.capacity <= 16) {
      assert.equal(el.querySelectorAll(".slot").length, b.capacity, where);
      assert.equal(el.querySelectorAll(".slot.full").length, Math.min(n, b.capacity), `${where}: the slots filled`);
    } else {
      const pct = Math.min(100, (n / b.capacity) * 100);
      assert.equal(el.querySelector(".bar-fill").style.width, `${n ? Math.max(pct, 1.5) : 0}%`, `${where}: the bar's fill`);
    }
    assert.equal(el.classList.contains("builder-changed"), changed.has(b.vnode), `${where}: highlight`);
    assert.equal(el.querySelector(".count").classList.contains("changed"), changed.has(b.vnode), `${where}: count highlight`);
  });
}

const STATE = { not_started: "○ not started", in_progress: "◐ in progress", completed: "● completed" };

function checkProgress(v, at) {
  const ps = v.progress || [];
  const box = stage.el("progress");
  // (a dropped job's progress is gone with it, not still to be loaded)
  if (!ps.length) { assert.equal(box.textContent, stage.legend(v.dropped ? "progress.dropped" : "progress.none"), at); return; }
  const changed = new Set(v.changed_vnodes?.progress || []);
  const drawn = items(box.querySelector("ul.progress"), "li.prog");
  assert.deepEqual(drawn.map((li) => [Number(li.dataset.vnode), li.querySelector(".state").textContent, li.querySelector(".pos")?.textContent ?? null,
    li.querySelector(".rows")?.textContent ?? null, li.classList.contains(`st-${ps.find((p) => p.vnode === Number(li.dataset.vnode)).state}`), li.classList.contains("changed")]),
  page(ps, 32).map((p) => [p.vnode, STATE[p.state], p.pos ? `pos ${tuple(p.pos)}` : null, p.pos ? plural(p.rows, "row") : null, true, changed.has(p.vnode)]), `${at}: progress`);
}

function checkStateTable(v, at) {
  const st = v.state_table || { rows: [], pending: [] };
  assert.equal(stage.el("state-table-sub").textContent, `committed e${st.epoch ?? 0} · durable e${st.durable_epoch ?? 0}`, at);
  const box = stage.el("state-table");
  // a dropped job's state table went with it: one line, not an empty table
  if (v.dropped && !st.rows?.length && !st.pending?.length) { assert.equal(box.textContent, stage.legend("state_table.dropped"), at); return; }
  const byV = new Map();
  for (const r of st.rows || []) byV.set(r.vnode, [...(byV.get(r.vnode) || []), tuple(r.values)]);
  const want = [...byV].sort((a, b) => a[0] - b[0]);
  const changed = new Set(v.changed_vnodes?.state_table || []);
  const committed = box.querySelector(".subpanel:not(.pending)");
  assert.deepEqual(items(committed, ".vrow").map((r) => [Number(r.dataset.vnode), tuples(r), r.classList.contains("changed")]),
    page(want, 16).map(([vn, rows]) => [vn, page(rows, 48), changed.has(vn)]), `${at}: committed rows`);
  if (!want.length) assert.equal(committed.querySelector(":scope > p.empty").textContent, "empty", at);
  const pending = box.querySelector(".subpanel.pending");
  const pend = st.pending || [];
  assert.deepEqual(pending.querySelectorAll(".withv").map((w) => [w.querySelector(".vnode").textContent, w.querySelector(".op").textContent, w.querySelector(".tuple").textContent]),
    page(pend, 120).map((p) => [`v${p.vnode}`, p.op, tuple(p.values)]), `${at}: pending writes`);
  if (!pend.length) assert.equal(pending.querySelector(":scope > p.empty").textContent, "none", at);
}

function checkProgressTable(v, at) {
  const pt = v.progress_table || { rows: [], durable: [], columns: [] };
  const box = stage.el("progress-table");
  if (v.dropped && !pt.rows?.length && !pt.durable?.length) { assert.equal(box.textContent, stage.legend("progress_table.dropped"), at); return; }
  const cols = pt.columns || [];
  const cell = (c, x) => (c?.kind === "vnode" ? `v${x}` : c?.kind === "bool" ? (x ? "✓ yes" : "✗ no") : fmt(x));
  // the headings: the pos columns under one "position" heading, each named by its column (c.of)
  const pos = cols.filter((c) => c.kind === "value" && c.of);
  const heads = pos.length ? [...cols.filter((c) => !pos.includes(c)).map((c) => c.name), ...pos.map((c) => c.of)] : cols.map((c) => c.name);
  if (pos.length) heads.splice(cols.indexOf(pos[0]), 0, "position");
  const subs = box.querySelectorAll(".split > .subpanel");
  assert.deepEqual(subs.map((s) => s.querySelector("h4").firstChild.textContent), ["committed", "durable"], at);
  for (const [i, rows] of [[0, pt.rows || []], [1, pt.durable || []]]) {
    const where = `${at}, ${i ? "durable" : "committed"} progress table`;
    const table = subs[i].querySelector("table");
    if (!rows.length) { assert.equal(table, null, where); assert.equal(subs[i].querySelector("p.empty").textContent, stage.legend("progress_table.none"), where); continue; }
    assert.deepEqual(table.querySelectorAll("thead th").map((th) => th.textContent), heads, `${where}: its columns`);
    assert.deepEqual(table.querySelectorAll("tbody > tr:not(.long-more)").map((tr) => tr.children.map((td) => td.textContent)),
      page(rows, 32).map((r) => r.map((x, j) => cell(cols[j], x))), where);
  }
}

function checkOutputs(v, at) {
  const outs = v.outputs || [];
  const total = v.outputs_total ?? outs.length;
  const fresh = v.new_outputs ?? 0;
  assert.equal(stage.el("outputs-sub").textContent, `${total} in all${fresh ? ` · ${fresh} new this step` : ""} · #N = step`, at);
  const ol = stage.el("outputs");
  if (!outs.length) { assert.equal(ol.querySelector("li.empty").textContent, "nothing emitted yet", at); return; }
  const drawn = items(ol, "li.msg");
  const want = page(outs.map((o, i) => ({ o, i })), 40, true);
  assert.deepEqual(drawn.map((li) => li.querySelector(".stepno").textContent), want.map(({ o }) => `#${o.step}`), `${at}: the output log`);
  const first = v.outputs_first ?? 0;
  drawn.forEach((li, k) => {
    const { o, i } = want[k];
    const where = `${at}, output ${first + i}`;
    assert.ok(li.classList.contains(`msg-${o.type}`), where);
    const isNew = i >= outs.length - fresh;
    assert.equal(li.classList.contains("new"), isNew, `${where}: new`);
    assert.equal(li.querySelectorAll(".sr-new").length, isNew ? 1 : 0, `${where}: said new`);
    if (o.type === "chunk") {
      assert.deepEqual(tuples(li), o.rows.map((r) => tuple(r.values)), where);
      assert.deepEqual(li.querySelectorAll(".chip").map((c) => c.querySelector(".mark")?.textContent ?? null),
        o.rows.map((r) => (r.visible === true ? "✓" : r.visible === false ? "✗" : null)), `${where}: visibility`);
    }
    const rb = (v.rolled_back || []).find((r) => first + i >= r.from && first + i < r.to);
    assert.equal(li.dataset.rolledBack, rb ? String(rb.step) : undefined, `${where}: rolled back`);
  });
}

const INV = { holds: "holds", violated: "violated", unchecked: "not checked yet" };

function checkDownstream(v, at) {
  const ds = v.downstream || { rows: [] };
  assert.equal(stage.el("downstream-sub").textContent, `durable e${ds.durable_epoch ?? 0}`, at);
  const box = stage.el("downstream");
  if (!ds.rows?.length) assert.equal(box.textContent, v.dropped ? stage.legend("downstream.dropped") : "no rows yet", at);
  else assert.deepEqual(tuples(box), page(ds.rows, 120).map(tuple), `${at}: downstream's rows`);
  const inv = v.invariant || { status: "unchecked" };
  const el = stage.el("invariant");
  assert.equal(el.querySelector("p.inv-status strong").textContent, `invariant ${v.dropped && inv.status === "unchecked" ? "not checked" : INV[inv.status]}`, at);
  assert.ok(el.querySelector("p.inv-status").classList.contains(`inv-${inv.status}`), at);
  assert.equal(el.querySelector("p.inv-text")?.textContent ?? "", inv.text || "", `${at}: the invariant's text`);
  const diff = (k) => el.querySelectorAll(".inv-diff").find((d) => d.querySelector(".k").textContent.startsWith(k));
  assert.deepEqual(diff("missing") ? tuples(diff("missing")) : [], (inv.missing || []).map((r) => tuple(valuesOf(r))), `${at}: missing`);
  assert.deepEqual(diff("extra") ? tuples(diff("extra")) : [], (inv.extra || []).map((r) => tuple(valuesOf(r))), `${at}: extra`);
}

function checkMarks(v, at) {
  const want = Object.entries(v.changed || {}).filter(([, on]) => on).map(([k]) => k.replaceAll("_", "-"))
    .filter((id) => document.querySelector(`[data-testid="${id}"]`)).sort();
  const got = document.querySelectorAll('[data-changed="true"]').map((el) => el.dataset.testid).sort();
  assert.deepEqual(got, want, `${at}: the panels marked changed`);
  assert.equal(stage.el("phase").textContent, `phase: ${String(v.phase || "").toUpperCase()}`, at);
  assert.equal(stage.el("epoch").textContent, v.epoch ? `epoch e${v.epoch}` : "no barrier yet", at);
}

function check(v, at) {
  stage.render(v);
  checkUpstream(v, at);
  checkSnapshot(v, at);
  checkActor(v, at);
  checkBuffer(v, at);
  checkBuilders(v, at);
  checkProgress(v, at);
  checkStateTable(v, at);
  checkProgressTable(v, at);
  checkOutputs(v, at);
  checkDownstream(v, at);
  checkMarks(v, at);
}

/** Every view of `name` (under bug or release), forward from step 0 to the end, then back. */
async function walk(name, { bug, release } = {}) {
  await call("open", name);
  if (bug) await call("bug", bug);
  if (release) await call("release", release);
  let v = await call("goto", 0);
  const seen = [];
  const label = `${name}${bug ? ` (${bug})` : ""}${release ? ` [${release}]` : ""}`;
  for (;;) {
    assert.equal(v.release, release || v.release, `${label}: the view's release`);
    seen.push(v);
    check(v, `${label} step ${v.step}`);
    if (v.step >= v.steps || v.error) break;
    v = await call("step");
  }
  for (let n = seen.length - 2; n >= 0; n -= 3) check(await call("goto", n), `${label} back at step ${n}`);
  return seen;
}

test("every step of happy-path, forward and back: the stage is the view", async () => {
  const seen = await walk("happy-path");
  assert.equal(seen.length, 19);
  // what the walk went through (so that the checks above checked something)
  assert.ok(seen.some((v) => v.snapshot?.vnodes?.some((l) => l.next > 0)), "a lane with rows read");
  assert.ok(seen.some((v) => v.builders?.some((b) => b.rows?.length)), "a builder with rows");
  assert.ok(seen.some((v) => v.outputs?.some((o) => o.rows?.some((r) => r.visible === false))), "a hidden row in the output log");
  assert.ok(seen.some((v) => v.progress?.some((p) => p.state === "completed")), "a completed vnode");
});

test("fatal-upstream-end under each release: the stage is the view, the actor's state with it", async () => {
  await call("open", "fatal-upstream-end");
  const releases = (await call("view")).releases.map((r) => r.name);
  assert.ok(releases.length >= 4, `releases: ${releases}`);
  const states = new Set();
  for (const release of releases) {
    const seen = await walk("fatal-upstream-end", { release });
    for (const v of seen) if (v.actor) states.add(v.actor.state);
  }
  assert.ok(states.has("running") && [...states].some((s) => s !== "running"), `actor states seen: ${[...states]}`);
});

for (const [name, bug] of [["mixed-visibility", "mark-before-drain"], ["builder-fills-mid-epoch", "emit-beyond-pos"], ["recovery-resumes"], ["rescale-mid-backfill"], ["first-message-not-barrier"]]) {
  test(`${name}${bug ? ` under ${bug}` : ""}: the stage is the view at every step`, async () => {
    await walk(name, { bug });
  });
}

test("a violated invariant: its text and the rows missing or extra, as the view says", async () => {
  const seen = await walk("mixed-visibility", { bug: "mark-before-drain" });
  assert.ok(seen.some((v) => v.snapshot?.vnodes?.some((l) => l.next > 0 && l.next < l.rows.length)), "a lane read halfway");
  const bad = seen.find((v) => v.invariant?.status === "violated");
  assert.ok(bad, "the bug breaks the invariant");
  stage.render(bad);
  assert.equal(stage.el("invariant").querySelector("strong").textContent, "invariant violated");
  assert.ok((bad.invariant.missing?.length || 0) + (bad.invariant.extra?.length || 0) > 0);
});

// Snapshots: the whole stage at a few steps, each drawn in a fresh page (UPDATE_SNAPSHOTS=1 writes them).
for (const [name, step, opts] of [["happy-path", 10, {}], ["fatal-upstream-end", 10, {}], ["mixed-visibility", 7, { bug: "mark-before-drain" }]]) {
  const file = `${name}${opts.bug ? `-${opts.bug}` : ""}-step${step}`;
  test(`snapshot: ${file}`, async () => {
    const fresh = await newStage();
    await call("open", name);
    if (opts.bug) await call("bug", opts.bug);
    const v = await call("goto", step);
    fresh.render(v);
    // (the stage only: the failure panel is render-fatal.test.mjs's)
    matchSnapshot(file, outline(fresh.el("stage")));
  });
}
