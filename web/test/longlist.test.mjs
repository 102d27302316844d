// longlist.test.mjs — at many vnodes the stage's long lists are drawn a page at a time
// (web/stage/longlist.js; the first page of each, exactly as the view has it, is read without a
// browser in node/render-panels.test.mjs): a marker draws the next page with its button (by
// keyboard too) or by itself when it is scrolled near; scrolling a panel reaches every item; a
// step keeps what was drawn, another scenario starts again from the first page. The output log keeps its newest output in sight. A timeline with more barriers
// than buttons fit draws their ticks as one picture that still goes to the barrier clicked.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, waitStep, setupPrivate, call } from "./page-helpers.mjs";
import { serveSources } from "./harness.mjs";
import { inView, requiredFor, settle, sideways } from "./stage-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// 64 vnodes (crc32), 512 rows (or more), builders of 8: a backfill whose lists are longer than a page.
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

async function openWide(page, step, count) {
  await page.evaluate(async ([text, step]) => { await window.explainer.load(text); await window.explainer.goto(step); }, [wide64(count), step]);
  await waitStep(page, step);
}

test("64 vnodes: scrolling a panel, or its button (by keyboard too), draws the next pages; a step keeps them; another scenario starts again", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 800 } });
  await openWide(page, 6);
  const count = () => page.evaluate(() => document.querySelectorAll('[data-testid="builders"] .builder').length);
  assert.equal(await count(), 32);

  // The keyboard: Enter on the marker's button draws the next page; the last page takes the
  // marker away, and the focus goes to the panel's scroll box (where the arrows scroll).
  const button = page.locator('[data-testid="builders"] .long-more button');
  await button.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="builders"] .builder').length === 64);
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid="builders"] .long-more')), null, "every builder is drawn: no marker");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "builders");
  // With a page still to come, the focus stays on the button.
  const lanes = page.locator('[data-testid="snapshot"] .long-more button');
  await lanes.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="snapshot"] .lane').length >= 32);
  assert.equal(await page.evaluate(() => document.activeElement?.closest(".long-more") !== null), true, "the focus stays on the button");
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('[data-testid="builders"] .builder')].map((b) => Number(b.dataset.vnode))),
    await page.evaluate(async () => (await window.explainer.view()).builders.map((b) => b.vnode)));

  // Scrolling: the progress panel's body to its end, until every entry is drawn.
  for (let i = 0; i < 10; i++) {
    const n = await page.evaluate(() => {
      const body = document.querySelector('[data-testid="progress"]');
      body.scrollTop = body.scrollHeight;
      return body.querySelectorAll("li.prog").length;
    });
    if (n === 64) break;
    await page.waitForTimeout(150);
  }
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-testid="progress"] li.prog').length), 64, "scrolling reaches every vnode");

  // A step keeps what was drawn.
  await call(page, "step");
  await waitStep(page, 7);
  assert.equal(await count(), 64);
  // Tab order: the marker's button is reachable with Tab from the panel body before it.
  // (the focused button scrolls into view, where the marker may draw the next page at once and,
  // on the last page, hand the focus to the scroll box: a listener notes the button's focus)
  await page.evaluate(() => {
    window.__reachedMore = false;
    document.addEventListener("focusin", (e) => { if (e.target.closest?.('[data-testid="snapshot"] .long-more')) window.__reachedMore = true; });
    document.querySelector('[data-testid="snapshot"]').focus();
  });
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => window.__reachedMore);
  }
  assert.ok(reached, "Tab reaches the lanes' Show more button");

  // Another scenario, then this one again: the lists start from their first page.
  await call(page, "open", "happy-path");
  await openWide(page, 6);
  assert.equal(await count(), 32);
  assert.deepEqual(await h.axe(page, { include: "#stage" }), []);
  h.assertNoErrors(page);
});

test("64 vnodes: the output log keeps its newest output in sight", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 800 } });
  await openWide(page, 30);
  const inSight = () => {
    const box = document.getElementById("outputs-box").getBoundingClientRect();
    const last = document.querySelector("#outputs > li:last-child").getBoundingClientRect();
    return last.bottom <= box.bottom + 0.5 && last.top >= box.top - 0.5;
  };
  assert.equal(await page.evaluate(inSight), true);
  // (functions, not strings: a string predicate is eval'd at each poll, which the page's CSP refuses)
  // Scrolled up by the reader, the log comes back to its newest output at the next step.
  // (the page learns of it from the scroll event, which comes at the next frame: wait for it, as
  // a reader's next click would)
  await page.evaluate(() => new Promise((done) => {
    const box = document.getElementById("outputs-box");
    box.addEventListener("scroll", done, { once: true });
    box.scrollTop = -300;
  }));
  await page.waitForFunction(() => { const box = document.getElementById("outputs-box").getBoundingClientRect(); const last = document.querySelector("#outputs > li:last-child").getBoundingClientRect(); return !(last.bottom <= box.bottom + 0.5 && last.top >= box.top - 0.5); });
  await call(page, "step");
  await waitStep(page, 31);
  await page.waitForFunction(inSight);
  h.assertNoErrors(page);
});

test("300 barriers: the timeline draws their ticks as one picture that goes to the barrier clicked; a vnode's 70 state-table rows come a page at a time", async () => {
  const lines = ["title: many barriers", "table: {columns: [a, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 4, rule: modulo}", "chunk_size: 4", "steps:", "  - barrier: 1"];
  for (let i = 0, epoch = 1; i < 300; i++) lines.push(`  - chunk: ["+ ${i} ${i}"]`, `  - barrier: ${++epoch}`);
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 800 } });
  await call(page, "load", lines.join("\n") + "\n");
  await waitStep(page, 0);
  const v = await page.evaluate(() => window.explainer.view());
  const barriers = v.marks.filter((m) => m.kind === "barrier");
  assert.ok(barriers.length > 240, `barriers: ${barriers.length}`);
  assert.equal(await page.locator("#marks .tl-mark.mk-barrier").count(), 0, "no button per barrier");
  assert.equal(await page.locator("#marks svg.tl-ticks").count(), 1);
  const ticks = await page.locator("#marks svg.tl-ticks path.ticks").getAttribute("d");
  assert.equal(ticks, barriers.map((m) => `M${m.step} 0V10`).join(""), "a tick at every barrier's step");
  // A click on the picture at barrier k's place goes to barrier k.
  const k = barriers[120];
  const box = await page.locator("#marks svg.tl-ticks").boundingBox();
  await page.mouse.click(box.x + (k.step / v.steps) * box.width, box.y + box.height / 2);
  await waitStep(page, k.step);
  assert.equal(await page.locator("#marks svg.tl-ticks path.tick-here").getAttribute("d"), `M${k.step} 0V10`, "the current barrier is marked");
  // The state table's rows of a vnode are drawn a page at a time too, and a row rebuilt by a step
  // keeps the pages drawn for it.
  const vrow = async () => page.evaluate(() => {
    const row = document.querySelector('[data-testid="state-table"] .vrow[data-vnode="1"]');
    return { chips: row.querySelectorAll(".chip").length, marker: row.querySelector(".long-more-text")?.textContent ?? null };
  });
  await call(page, "goto", 560);
  await waitStep(page, 560);
  const rows1 = await page.evaluate(async () => (await window.explainer.view()).state_table.rows.filter((r) => r.vnode === 1).length);
  assert.ok(rows1 > 48, `vnode 1's rows: ${rows1}`);
  assert.deepEqual(await vrow(), { chips: 48, marker: `… ${rows1 - 48} more rows` });
  // (the button's own click: scrolled into view, the marker would draw the next page by itself)
  await page.locator('[data-testid="state-table"] .vrow[data-vnode="1"] .long-more button').evaluate((b) => b.click());
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="state-table"] .vrow[data-vnode="1"] .chip').length === n, Math.min(rows1, 96));
  let k1 = 560;
  for (let n = 561; n <= 570; n++) {
    await call(page, "step");
    await waitStep(page, n);
    k1 = n;
  }
  const rowsNow = await page.evaluate(async () => (await window.explainer.view()).state_table.rows.filter((r) => r.vnode === 1).length);
  assert.ok(rowsNow > rows1, `vnode 1 gained rows by step ${k1}`);
  assert.equal((await vrow()).chips, Math.min(rowsNow, 96), "the rebuilt row keeps its two pages");
  // A scenario with few barriers keeps a button per mark.
  await call(page, "open", "happy-path");
  await waitStep(page, 0);
  assert.ok(await page.locator("#marks .tl-mark.mk-barrier").count() > 0);
  assert.equal(await page.locator("#marks svg.tl-ticks").count(), 0);
  h.assertNoErrors(page);
});

test("a large loaded scenario's long run= link is written once stepping pauses", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 800 } });
  await openWide(page, 3, 4096);
  await page.waitForFunction(() => /^#run=[A-Za-z0-9_-]+&step=3$/.test(location.hash), null, { timeout: 15000 });
  assert.ok(await page.evaluate(() => location.hash.length) > 4096, "the link is a long one");
  for (let n = 4; n <= 6; n++) await call(page, "step");
  await waitStep(page, 6);
  await page.waitForFunction(() => /&step=6$/.test(location.hash), null, { timeout: 5000 });
  // The link opens the same state.
  const hash = await page.evaluate(() => location.hash);
  const again = await openPage(h, "index.html" + hash, { viewport: { width: 1280, height: 800 } });
  assert.equal((await again.evaluate(() => window.explainer.view())).title, "wide 64 vnodes");
  h.assertNoErrors(page);
  h.assertNoErrors(again);
});

test("64 vnodes at 1280×800 and 375×740: the protocol's panels in view at every step; on a phone each step's panel followed", async () => {
  for (const [name, opts] of [["1280", { viewport: { width: 1280, height: 800 } }], ["375", { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true }]]) {
    const page = await openPage(h, "index.html#scenario=happy-path&step=0", opts);
    await serveSources(page); // follow.js, from the repository (the site holds the bundle)
    await openWide(page, 0);
    const steps = await page.evaluate(() => window.explainer.steps());
    const problems = [];
    for (let n = 1; n <= steps; n++) {
      await call(page, "step");
      await waitStep(page, n);
      await settle(page);
      if (name === "1280") {
        for (const p of await inView(page, await requiredFor(page))) problems.push(`step ${n}: ${p}`);
      } else {
        const id = await page.evaluate(async () => {
          const { target, changedPanels } = await import("./__test/web/stage/follow.js");
          const { changed } = await window.explainer.view();
          const t = target(changed);
          return t ? changedPanels(changed).find((c) => c.panel === t)?.id ?? null : null;
        });
        if (id) for (const p of await inView(page, [id], { bottomCover: "#bottom" })) problems.push(`step ${n}: ${p}`);
        const strip = await page.evaluate(() => [...document.querySelectorAll('[data-testid="changed-chip"]')].map((b) => b.dataset.panel));
        const marked = await page.evaluate(() => [...document.querySelectorAll('#stage [data-changed="true"]')].map((e) => e.dataset.testid));
        for (const m of marked) if (!strip.includes(m)) problems.push(`step ${n}: the strip does not name ${m}`);
        const side = await sideways(page);
        if (side) problems.push(`step ${n}: ${side}`);
      }
    }
    assert.deepEqual(problems, [], name);
    await h.screenshot(page, `longlist-64-vnodes-${name}`, { fullPage: false });
    h.assertNoErrors(page);
  }
});

test("every view the API hands out carries its timeline marks (the engine sends them once per script revision)", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 800 } });
  const r = await page.evaluate(async () => {
    const ex = window.explainer;
    const out = [];
    const m0 = (await ex.open("happy-path")).marks;
    const same = (v) => JSON.stringify(v.marks) === JSON.stringify(m0);
    for (const [what, f] of [["step", () => ex.step()], ["back", () => ex.back()], ["view", () => ex.view()], ["goto", () => ex.goto(9)], ["apply (scripted)", () => ex.apply("barrier: 4")]]) {
      const v = await f();
      out.push([what, Array.isArray(v.marks) && same(v)]);
    }
    const branched = await ex.apply('chunk: ["+ 5 104"]');
    out.push(["branch has marks", Array.isArray(branched.marks) && branched.marks.length > 0]);
    const after = await ex.step();
    out.push(["next view of the branch", JSON.stringify(after.marks) === JSON.stringify(branched.marks)]);
    const bugged = await ex.bug("mark-before-drain");
    out.push(["bug mode view", Array.isArray(bugged.marks) && bugged.marks.length > 0]);
    out.push(["its next view", JSON.stringify((await ex.goto(1)).marks) === JSON.stringify(bugged.marks)]);
    return out;
  });
  for (const [what, ok] of r) assert.equal(ok, true, what);
  h.assertNoErrors(page);
});
