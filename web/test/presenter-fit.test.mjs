// presenter-fit.test.mjs — presenter mode never cuts what the room must see: at 1280×800,
// 1366×768 and 1920×1080, at every step of happy-path, mixed-visibility and fatal-upstream-end,
// each panel the view's `changed` names is inside the viewport, whole (its body shows all of its
// content; a long list — the upstream queue, the output log — shows every item the step changed)
// and uncovered (document.elementFromPoint at its corners and middle hits it or something in it),
// and the scenario's title is not cut. One page per viewport; the steps are walked with the API.
// Screenshots: web/test/artifacts/presenter-fit-*.png (mixed-visibility step 7, happy-path step 6,
// light and dark).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId, call } from "./page-helpers.mjs";
import { problemsHere } from "./fit-check.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const SCENARIOS = ["happy-path", "mixed-visibility", "fatal-upstream-end"];
const VIEWPORTS = [[1280, 800], [1366, 768], [1920, 1080]];

for (const [w, hgt] of VIEWPORTS) {
  test(`presenter mode at ${w}×${hgt}: every changed panel is whole, in view and uncovered; the title is not cut`, async () => {
    const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: w, height: hgt } });
    await byTestId(page, "presenter").click();
    const problems = [];
    for (const name of SCENARIOS) {
      const steps = await page.evaluate((name) => window.explainer.open(name).then((v) => v.steps), name);
      for (let n = 0; n <= steps; n++) {
        await call(page, "goto", n);
        for (const p of await page.evaluate(problemsHere)) problems.push(`${name} step ${n}: ${p}`);
      }
    }
    assert.deepEqual(problems, []);
    if (w !== 1366) {
      for (const [name, n] of [["mixed-visibility", 7], ["happy-path", 6]]) {
        await page.evaluate(([name, n]) => window.explainer.open(name).then(() => window.explainer.goto(n)), [name, n]);
        for (const scheme of ["light", "dark"]) {
          await page.emulateMedia({ colorScheme: scheme });
          await h.screenshot(page, `presenter-fit-${w}-${name}-${n}-${scheme}`);
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
    h.assertNoErrors(page);
  });
}
