// presenter-fit.test.mjs — presenter mode fits the room: at 1280×800, 1366×768 and 1920×1080, at
// every step of every built-in, each panel the view's `changed` names is inside the viewport,
// whole (its body shows all of its content; a long list — the upstream queue, the output log —
// shows every item the step changed, or, a log with more new outputs than its column has room
// for, fills the column and shows the newest) and uncovered (document.elementFromPoint at its
// corners and middle hits it or something in it); the scenario's title is not cut; the narration
// cuts no explanation mid-sentence (fit-check.mjs); the columns keep their widths from one step to
// the next; every panel cut on screen says so (panel-check.mjs: collapsed, or a "more ↓" tab);
// and at 1280×800 no text of the stage is under 18 px but at the few steps UNDER lists. One page per viewport; each
// built-in is walked in the page with the API (window.explainer.open/goto), one evaluate each.
// Screenshots: web/test/artifacts/presenter-fit-*.png (mixed-visibility step 7, happy-path step 6,
// light and dark; the long output logs: happy-path 18, mixed-visibility 10, builder-fills-mid-epoch 10).
// The pages open without the engine (harness holdEngine): the list of built-ins, open and goto
// are their stored views', and what is checked is the layout presenter mode gives the views they draw.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId } from "./page-helpers.mjs";
import { problemsHere, narrationHere, stageFontFloor } from "./fit-check.mjs";
import { panelsHere } from "./panel-check.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const VIEWPORTS = [[1280, 800], [1366, 768], [1920, 1080]];
const FLOOR = 18; // px: the stage's smallest type at 1280×800 (a projector's distance)
// The steps whose changed panels fit at 1280×800 only in type under 18 px, in columns of fixed
// widths (presenter-fit.js's last resort, fit-under; the branch "present"'s report says why): a
// 9-row chunk next from upstream over the snapshot's three lanes, both changed, in one column
// (mixed-visibility 3). (bug-mark-on-arrival 3 and end-while-buffering 5 were here until the
// lanes' "no pos yet" and the panels' glosses gave way under fit-tight; mixed-visibility 1 and
// rescale-mid-backfill 8 until a bounded upstream queue needed only its next message in sight, as
// fit-check does.) Any other step under 18 px fails.
const UNDER = ["mixed-visibility step 3"];

/** In the page: every step of built-in `name` walked, with what fit-check finds at each. */
function walk(name) {
  const fit = window.__fit;
  return window.explainer.open(name).then(async (v) => {
    const out = { problems: [], widths: [], under: [], font: { px: Infinity, where: "" } };
    for (let n = 0; n <= v.steps; n++) {
      await window.explainer.goto(n);
      for (const p of [...await fit.problems(), ...await fit.narration()]) out.problems.push(`${name} step ${n}: ${p}`);
      for (const u of (await fit.panels()).unsaid) out.problems.push(`${name} step ${n}: cut without saying so: ${u}`);
      out.widths.push([...document.querySelectorAll("#stage > .col")].map((c) => Math.round(c.getBoundingClientRect().width * 10) / 10).join(" "));
      const f = fit.floor();
      if (f.px < 17.99) out.under.push(`${name} step ${n}`);
      else if (f.px < out.font.px) out.font = { px: f.px, where: `${name} step ${n}: ${f.where}` };
    }
    return out;
  });
}

for (const [w, hgt] of VIEWPORTS) {
  test(`presenter mode at ${w}×${hgt}, every built-in: changed panels whole, in view and uncovered; title and narration whole; column widths steady${w === 1280 ? "; stage type ≥ 18 px" : ""}`, async () => {
    const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: w, height: hgt }, engine: false });
    await byTestId(page, "presenter").click();
    await page.evaluate(`window.__fit = { problems: ${problemsHere}, narration: ${narrationHere}, floor: ${stageFontFloor}, panels: ${panelsHere} }`);
    const names = await page.evaluate(() => window.explainer.scenarios().then((l) => l.map((s) => s.name)));
    assert.ok(names.length >= 20, `the built-ins: ${names}`);
    const problems = [], jumps = [], under = [];
    let font = { px: Infinity, where: "" };
    for (const name of names) {
      const r = await page.evaluate(walk, name);
      problems.push(...r.problems);
      r.widths.forEach((x, n) => { if (n && x !== r.widths[n - 1]) jumps.push(`${name} step ${n - 1} → ${n}: ${r.widths[n - 1]} → ${x}`); });
      if (r.font.px < font.px) font = r.font;
      under.push(...r.under);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(jumps, [], "the columns' widths change between steps");
    if (w === 1280) {
      assert.ok(font.px >= FLOOR - 0.01, `the stage's smallest type is ${font.px} px (${font.where})`);
      assert.deepEqual(under.filter((x) => !UNDER.includes(x)), [], "steps whose stage type is under 18 px");
    }
    if (w !== 1366) {
      const shots = [["mixed-visibility", 7, true], ["happy-path", 6, true], ["happy-path", 18], ["mixed-visibility", 10], ["builder-fills-mid-epoch", 10]];
      for (const [name, n, dark] of shots) {
        await page.evaluate(([name, n]) => window.explainer.open(name).then(() => window.explainer.goto(n)), [name, n]);
        for (const scheme of dark ? ["light", "dark"] : ["light"]) {
          await page.emulateMedia({ colorScheme: scheme });
          await h.screenshot(page, `presenter-fit-${w}-${name}-${n}-${scheme}`);
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
    h.assertNoErrors(page);
  });
}
