// lesson-steady.test.mjs — no layout jump between the stops of one lesson section in presenter
// mode: both built-in lessons walked with PageDown at 1280×800 and 1366×768 (to "Lesson finished"), and at every stop of a
// section the stage's type (its computed font size, presenter-fit.js's --fit, fit-tight and
// fit-under) is the one the section's other stops show, but at a stop that fits only in type
// under the stage's floor (fit-under): that stop alone is smaller, and every other stop of the
// section keeps the floor, 18 px (its smallest text, fit-check.mjs stageFontFloor). A panel the
// stop did not change nor the section names, squeezed, may be collapsed to its heading
// ("(unchanged, collapsed)"): some are, and never a changed or named one.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate } from "./page-helpers.mjs";
import { presentLesson, walkStops } from "./lesson-stops.mjs";
import { stageFontFloor } from "./fit-check.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** In the page: where the lesson is and what type the stage has. */
const here = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => {
  const p = new URLSearchParams(location.hash.slice(1));
  const root = document.documentElement;
  const stage = document.getElementById("stage");
  resolve({
    at: `${p.get("section")}/${p.get("step")}`,
    finished: !document.querySelector('[data-testid="lesson-finished"]')?.hidden,
    // (the panels collapsed to their heading: never one the step changed or the lesson names, and saying so)
    collapsed: [...document.querySelectorAll("#stage .panel.collapsed")].map((p) => [p.querySelector(".panel-body")?.dataset.testid,
      p.matches(".panel-changed, .named"), getComputedStyle(p.querySelector("h3"), "::after").content]),
    under: root.classList.contains("fit-under"),
    type: [getComputedStyle(stage).fontSize, getComputedStyle(root).fontSize, root.classList.contains("fit-tight") ? "tight" : "",
      root.classList.contains("fit-under") ? "under" : ""].join(" ").trim(),
  });
})));

for (const lesson of ["workshop", "met-this-error"]) {
  for (const [w, hgt] of [[1280, 800], [1366, 768]]) {
    test(`${lesson} at ${w}×${hgt} in presenter mode: one type size at every stop of a section`, async () => {
      // (section 1 opened before presenter mode: its stops are measured as it turns on)
      const { page, stops: want } = await presentLesson(h, lesson, { width: w, height: hgt });
      const seen = [];
      await walkStops(page, want, async () => {
        seen.push({ ...await here(page), floor: (await page.evaluate(stageFontFloor)).px });
      });
      assert.deepEqual(seen.map((x) => x.at), want, "the stops");
      // (the clicker's last PageDown: "Lesson finished", as from the speaker window: lesson-drive)
      await page.keyboard.press("PageDown");
      await page.waitForFunction(() => !document.querySelector('[data-testid="lesson-finished"]')?.hidden, null, { timeout: 10000 });
      // (the stops under the floor left out: each is smaller on its own)
      const steady = seen.filter((x) => !x.under), jumps = [];
      for (let i = 1; i < steady.length; i++) {
        const [a, b] = [steady[i - 1], steady[i]];
        if (a.at.split("/")[0] === b.at.split("/")[0] && a.type !== b.type) jumps.push(`${a.at} → ${b.at}: ${a.type} → ${b.type}`);
      }
      assert.deepEqual(jumps, [], "the stage's type changes between stops of one section");
      assert.deepEqual(steady.filter((x) => x.floor < 17.99).map((x) => `${x.at}: ${x.floor} px`), [], "stops under the 18 px floor but not fit-under");
      const under = seen.filter((x) => x.under).map((x) => `${x.at} ${x.floor.toFixed(1)} px`);
      // (only a stop that nothing above the floor fits goes under it: a few, where whole sections
      // did when the section took its tightest stop's type, 32 of workshop's 46 stops at 1280×800)
      assert.ok(under.length <= Math.floor(seen.length / 5), `stops under the floor: ${under.join(", ")}`);
      console.log(`${lesson} ${w}×${hgt}: ${seen.length - under.length} of ${seen.length} stops at ≥ 18 px; under: ${under.join(", ") || "none"}`);
      const collapsed = seen.flatMap((x) => x.collapsed.map(([id, must, says]) => ({ at: x.at, id, must, says })));
      assert.ok(collapsed.length > 0, "some stop has an unchanged panel collapsed to its heading");
      assert.deepEqual(collapsed.filter((c) => c.must || c.says !== '" (unchanged, collapsed)"'), [], "collapsed: changed or named, or not saying so");
      h.assertNoErrors(page);
    });
  }
}
