// headers-whole.test.mjs — no column header or panel heading is cut (issue 33: the executor's
// header read "actor exi…"), nor the scenario's title: at 1280×800, 1366×768, 1920×1080, 1024×768, 375×740 and in a
// 700×640 embed, at steps where the actor runs, has failed and has exited unexpectedly, every
// header's text is whole inside its box (its state goes to a line of its own when narrow).
// Its pages open without the engine (harness holdEngine): the links are built-ins' steps, and the
// views the headers are drawn from (the actor's state too) are their stored ones.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, waitStep, setupPrivate } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const SIZES = [
  ["1280×800", "", { width: 1280, height: 800 }], ["1366×768", "", { width: 1366, height: 768 }],
  ["1920×1080", "", { width: 1920, height: 1080 }], ["1024×768", "", { width: 1024, height: 768 }],
  ["375×740", "", { width: 375, height: 740 }], ["700×640 embed", "?embed=1", { width: 700, height: 640 }],
];
// running, failed (fatal-upstream-end's end), exited unexpectedly (an end while buffering at v3.0)
const LINKS = [
  ["running", "scenario=fatal-upstream-end&step=9", 9],
  ["failed", "scenario=fatal-upstream-end&step=10", 10],
  ["exited unexpectedly", "scenario=end-while-buffering&release=v3.0&step=5", 5],
  ["running", "scenario=end-in-completion&step=1", 1], // the longest title
];

/** Headers whose text is cut: wider than their box, or the actor's state past its header's edge. */
function cutHeaders() {
  const shown = (e) => e.getClientRects().length > 0;
  const bad = [];
  for (const e of document.querySelectorAll(".intro h1, .col-head, .col-head *, .panel h3, .panel h3 *")) {
    if (!shown(e)) continue;
    if (getComputedStyle(e).overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1) {
      bad.push(`${e.className || e.tagName} "${e.textContent.trim()}": ${e.scrollWidth} > ${e.clientWidth} px`);
    }
  }
  const state = document.querySelector('[data-testid="actor-state"]');
  const head = state?.closest(".col-head");
  if (state && head && shown(state)) {
    const s = state.getBoundingClientRect(), r = head.getBoundingClientRect();
    if (s.right > r.right + 0.5 || s.left < r.left - 0.5) bad.push(`the actor's state "${state.textContent}" lies past its header (${s.left}–${s.right} in ${r.left}–${r.right})`);
  }
  return bad;
}

test("the title, every column header and panel heading are whole, whatever the actor's state, at six sizes", async () => {
  for (const [size, query, viewport] of SIZES) {
    const page = await openPage(h, `index.html${query}#${LINKS[0][1]}`, { engine: false, viewport });
    for (const [state, link, step] of LINKS) {
      await page.evaluate((x) => { location.hash = x; }, "#" + link);
      await waitStep(page, step);
      assert.equal(await page.evaluate(async () => (await window.explainer.view()).actor.state), state, link);
      assert.deepEqual(await page.evaluate(cutHeaders), [], `${size}, ${link}`);
    }
    await h.screenshot(page, `headers-whole-${size.replace(/[^0-9a-z]+/g, "-")}`, { fullPage: false });
    await page.context().close();
  }
});
