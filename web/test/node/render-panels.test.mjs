// render-panels.test.mjs — what the stage's panels show at given steps, drawn under Node
// (stage.mjs) from the real engine's views. Moved here from the browser suite, where they read
// only what the page drew after going to a step: the panels marked changed and the items
// highlighted (changed.test.mjs), a snapshot lane's line (small-items.test.mjs), and the long
// lists' first pages at 64 vnodes (longlist.test.mjs). The browser suite keeps the Step button,
// the timeline, the flash, scrolling and layout.

import { test } from "node:test";
import assert from "node:assert/strict";
import { call } from "./engine.mjs";
import { newStage } from "./stage.mjs";

/** A fresh page's stage at `step` of built-in `name` (as a deep link draws it). */
async function at(name, step) {
  const stage = await newStage();
  await call("open", name);
  const v = await call("goto", step);
  stage.render(v);
  return { stage, v };
}

/** The panels the page marks, and the ones the view says changed (that the page has). */
function marks(v) {
  const want = Object.entries(v.changed).filter(([, on]) => on).map(([k]) => k.replaceAll("_", "-"))
    .filter((id) => document.querySelector(`[data-testid="${id}"]`)).sort();
  const got = document.querySelectorAll('[data-changed="true"]').map((el) => el.dataset.testid).sort();
  return { want, got };
}

// (from changed.test.mjs)
test("every step of happy-path: the marked panels are the view's `changed`", async () => {
  const { stage, v: v0 } = await at("happy-path", 0);
  assert.deepEqual(marks(v0).got, [], "nothing is marked before the first step");
  const seen = new Set();
  for (let n = 1; n <= v0.steps; n++) {
    const v = await call("step");
    stage.render(v);
    const m = marks(v);
    assert.deepEqual(m.got, m.want, `step ${n}`);
    for (const id of m.got) seen.add(id);
  }
  for (const id of ["upstream-next", "buffer", "builders", "progress", "outputs", "narration", "note", "snapshot", "downstream", "invariant", "state-table", "progress-table"]) {
    assert.ok(seen.has(id), `${id} was marked at some step`);
  }
});

// (from changed.test.mjs)
test("specific steps: a watermark dropped while backfilling changes only the queue and the story; a barrier changes the tables", async () => {
  const { stage } = await at("happy-path", 8);
  let m = marks(await call("view"));
  assert.deepEqual(m.got, ["narration", "upstream-next"], "step 8 (a watermark, dropped)");
  const v = await call("goto", 10);
  stage.render(v);
  m = marks(v);
  assert.deepEqual(m.got, m.want);
  for (const id of ["buffer", "builders", "progress", "outputs", "progress-table", "state-table", "upstream-next", "narration"]) {
    assert.ok(m.got.includes(id), `step 10 (barrier e4) marks ${id}: ${m.got}`);
  }
  assert.ok(!m.got.includes("upstream-content"), "the barrier does not change the upstream's content");
  // Only the items the engine names are highlighted: builder v0 was drained, v1 held nothing.
  const builders = document.querySelectorAll('[data-testid="builders"] .builder').map((b) => [b.dataset.vnode, !!b.querySelector(".count.changed")]);
  assert.deepEqual(builders, [["0", true], ["1", false]]);
});

// (from changed.test.mjs)
test("the fatal step marks the fatal panel; the progress table's header is the view's columns", async () => {
  const { v } = await at("fatal-upstream-end", 10);
  const m = marks(v);
  assert.deepEqual(m.got, m.want);
  assert.ok(m.got.includes("fatal"), m.got.join(" "));
  const header = document.querySelectorAll('[data-testid="progress-table"] table')[0].querySelectorAll("th").map((th) => th.textContent);
  const columns = v.progress_table.columns.map((c) => c.name);
  // the pos columns (pos.a, pos.id) under one "position" heading, each named by its column
  assert.deepEqual(header, ["vnode", "position", "finished", "rows", "a", "id"]);
  assert.deepEqual(columns, ["vnode", "pos.a", "pos.id", "finished", "rows"]);
});

// (from small-items.test.mjs)
test("a snapshot lane with rows read never says \"nothing read yet\": its line is its pos, from the view", async () => {
  const stage = await newStage();
  let readWithoutPos = 0;
  for (const name of ["happy-path", "mixed-visibility", "recovery-resumes"]) {
    await call("open", name);
    const { steps } = await call("view");
    for (let s = 1; s <= steps; s++) {
      const view = await call("goto", s);
      stage.render(view);
      if (!view.snapshot) continue;
      const lanes = stage.el("snapshot").querySelectorAll(".lane").map((l) => ({
        vnode: Number(l.dataset.vnode), read: l.querySelectorAll(".chip.read").length, pos: l.querySelector(".lane-pos").textContent,
      }));
      for (const lane of lanes) {
        const v = view.snapshot.vnodes.find((x) => x.vnode === lane.vnode);
        const where = `${name} step ${s} v${lane.vnode}: "${lane.pos}"`;
        assert.doesNotMatch(lane.pos, /nothing read/, where);
        if (v.pos) assert.match(lane.pos, /^pos: emitted up to \(/, where);
        else {
          assert.match(lane.pos, /^no pos yet: set when its builder emits$/, where);
          if (lane.read > 0) readWithoutPos++;
        }
      }
    }
  }
  assert.ok(readWithoutPos > 0, "some lane had rows read and no pos yet (rows in its builder)");
});

// 64 vnodes (crc32), 512 rows (or more), builders of 8: a backfill whose lists are longer than a
// page (the same scenario as longlist.test.mjs's).
function wide64(count = 512) {
  const lines = ["title: wide 64 vnodes", "table: {columns: [a:int, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 64}", "chunk_size: 8"];
  const rows = [];
  for (let i = 0; i < count; i++) rows.push(`[${i}, ${i}]`);
  lines.push(`start: {state_table: [${rows.join(", ")}]}`, "steps:", "  - barrier: 1", "  - barrier: {epoch: 2, start_backfill: [1]}");
  let epoch = 2, left = count + 1, next = 100000;
  while (left > 0) {
    const n = Math.min(48, left);
    left -= n;
    lines.push(`  - snapshot: ${n}`);
    if (left > 0) lines.push(`  - chunk: ["+ ${++next} ${next}", "+ ${++next} ${next}"]`);
    lines.push(`  - barrier: ${++epoch}`);
  }
  return lines.join("\n") + "\n";
}

/** What a long list shows: its drawn items' keys, the marker's text, and whether it has a button. */
function listState(sel, itemSel) {
  const list = document.querySelector(sel);
  const marker = list.querySelector(":scope > .long-more");
  const button = marker?.querySelector("button:not([hidden])");
  return {
    items: list.querySelectorAll(`:scope > ${itemSel}`).map((x) => x.dataset.vnode ?? x.textContent.trim()),
    marker: marker ? marker.querySelector(".long-more-text").textContent : null,
    button: button ? button.textContent : null,
  };
}

// (from longlist.test.mjs)
test("64 vnodes: every long list draws its first page, exactly as the view has it, and counts the rest", async () => {
  const stage = await newStage();
  await call("load", wide64());
  const v = await call("goto", 30);
  stage.render(v);
  assert.equal(v.builders.length, 64);
  assert.ok(v.progress_table.rows.length > 32, `progress table rows: ${v.progress_table.rows.length}`);
  assert.ok(v.changed_vnodes.builders.some((x) => v.builders.findIndex((b) => b.vnode === x) < 32), "a drawn builder changed");

  const builders = listState('[data-testid="builders"] .builders', ".builder");
  assert.deepEqual(builders.items, v.builders.slice(0, 32).map((b) => String(b.vnode)));
  assert.equal(builders.marker, "… 32 more builders");
  assert.equal(builders.button, "Show 32 more");
  // each drawn builder is the view's, its change highlight the engine's
  const drawn = document.querySelectorAll('[data-testid="builders"] .builder')
    .map((b) => [b.dataset.vnode, b.querySelector(".count").textContent.trim(), !!b.querySelector(".count.changed")]);
  const changedB = new Set(v.changed_vnodes.builders);
  assert.deepEqual(drawn, v.builders.slice(0, 32).map((b) => [String(b.vnode), `${b.rows.length} / ${b.capacity}`, changedB.has(b.vnode)]));

  const progress = listState('[data-testid="progress"] ul.progress', "li.prog");
  assert.deepEqual(progress.items, v.progress.slice(0, 32).map((p) => String(p.vnode)));
  assert.equal(progress.marker, "… 32 more vnodes");
  const changedP = new Set(v.changed_vnodes.progress);
  const progChanged = document.querySelectorAll('[data-testid="progress"] li.prog').map((li) => li.classList.contains("changed"));
  assert.deepEqual(progChanged, v.progress.slice(0, 32).map((p) => changedP.has(p.vnode)));

  const lanes = listState('[data-testid="snapshot"] .lanes', ".lane");
  assert.deepEqual(lanes.items, v.snapshot.vnodes.slice(0, 16).map((l) => String(l.vnode)));
  assert.equal(lanes.marker, `… ${v.snapshot.vnodes.length - 16} more lanes`);
  // a drawn lane shows its rows around the cursor and says how far it was read
  const lane0 = v.snapshot.vnodes[0];
  const label = document.querySelector('[data-testid="snapshot"] .lane').getAttribute("aria-label");
  assert.equal(label, `vnode ${lane0.vnode}: ${lane0.offset + lane0.next} of ${lane0.total} rows read`);

  const rows = document.querySelectorAll('[data-testid="progress-table"] tbody').map((tb) => ({
    rows: tb.querySelectorAll("tr:not(.long-more)").length,
    marker: tb.querySelector("tr.long-more .long-more-text")?.textContent ?? null,
    colspan: tb.querySelector("tr.long-more td")?.colSpan ?? null,
  }));
  assert.deepEqual(rows[0], { rows: 32, marker: `… ${v.progress_table.rows.length - 32} more rows`, colspan: v.progress_table.columns.length });

  const content = listState('[data-testid="upstream-content"] .chips', ".chip");
  assert.equal(content.items.length, 120);
  assert.deepEqual(content.items, v.upstream.content.slice(0, 120).map((r) => `(${r.join(",")})`));
  assert.equal(content.marker, `… ${v.upstream.content.length - 120} more rows`);
});

// (the part of longlist.test.mjs's output-log test that reads what is drawn; keeping the newest
// output in sight stays in the browser)
test("64 vnodes: the output log draws its newest outputs and counts the earlier ones before them", async () => {
  const stage = await newStage();
  await call("load", wide64());
  const v = await call("goto", 30);
  stage.render(v);
  assert.ok(v.outputs.length > 40, `outputs in the view: ${v.outputs.length}`);
  const items = document.querySelectorAll("#outputs > li:not(.long-more)");
  assert.equal(items.length, 40);
  assert.equal(items[0].querySelector(".stepno").textContent, "#" + v.outputs[v.outputs.length - 40].step);
  assert.equal(document.querySelector("#outputs > .long-more .long-more-text")?.textContent,
    `… ${v.outputs_first + v.outputs.length - 40} earlier outputs` + (v.outputs_first ? ` (${v.outputs_first} of them not in this view)` : ""));
  assert.equal(document.querySelector("#outputs > li").classList.contains("long-more"), true, "the marker comes before the drawn outputs");
});
