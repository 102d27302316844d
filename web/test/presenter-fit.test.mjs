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
import { setupPrivate, openPage, byTestId } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const SCENARIOS = ["happy-path", "mixed-visibility", "fatal-upstream-end"];
const VIEWPORTS = [[1280, 800], [1366, 768], [1920, 1080]];

/** In the page: what of the current view's changed panels and title is cut, covered or out of view. */
function problemsHere() {
  return window.explainer.view().then((v) => new Promise((resolve) => requestAnimationFrame(() => {
    const bad = [];
    const fmt = (r) => `[${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`;
    for (const [key, on] of Object.entries(v.changed || {})) {
      if (!on) continue;
      const el = document.querySelector(`[data-testid="${key.replaceAll("_", "-")}"]`);
      if (!el || !el.getClientRects().length) continue; // not projected (the note, the tables)
      const panel = el.closest(".panel") || el;
      const r = panel.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
        bad.push(`${key}: box ${fmt(r)} is not inside the ${innerWidth}×${innerHeight} viewport`);
        continue;
      }
      const col = panel.closest(".col");
      if (col) {
        const c = col.getBoundingClientRect();
        if (r.bottom > c.bottom + 0.5 || r.top < c.top - 0.5) bad.push(`${key}: box ${fmt(r)} is cut by its column ${fmt(c)}`);
      }
      // (the corners of a panel; a pill — the phase, the epoch — is rounded: its middle)
      const mid = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      const points = panel.matches(".panel") ? [[r.left + 6, r.top + 6], [r.right - 6, r.top + 6], [r.left + 6, r.bottom - 6], [r.right - 6, r.bottom - 6], mid] : [mid];
      for (const [x, y] of points) {
        const at = document.elementFromPoint(x, y);
        if (!at || !(at === panel || panel.contains(at))) {
          bad.push(`${key}: (${Math.round(x)},${Math.round(y)}) is covered by ${at ? at.tagName.toLowerCase() + (at.id ? "#" + at.id : "") + "." + [...at.classList].join(".") : "nothing"}`);
          break;
        }
      }
      const body = panel.matches(".panel") ? panel.querySelector(".panel-body") : null;
      if (!body) continue;
      if (panel.matches(".panel-next, .panel-outputs")) {
        // a long list: the items the step changed are in sight inside it
        const items = panel.matches(".panel-outputs") ? [...body.querySelectorAll("#outputs > li.new")] : [...body.querySelectorAll("li")].slice(0, 1);
        const b = body.getBoundingClientRect();
        for (const it of items) {
          const ir = it.getBoundingClientRect();
          if (ir.top < b.top - 0.5 || ir.bottom > b.bottom + 0.5) { bad.push(`${key}: changed item ${fmt(ir)} is outside its list's box ${fmt(b)}`); break; }
        }
      } else if (body.scrollHeight > body.clientHeight + 1) {
        bad.push(`${key}: ${body.scrollHeight - body.clientHeight} px of its content are cut`);
      }
    }
    const t = document.getElementById("scenario-title");
    if (t.scrollWidth > t.clientWidth + 0.5 || t.scrollHeight > t.clientHeight + 0.5) bad.push(`title cut: ${t.scrollWidth}×${t.scrollHeight} in ${t.clientWidth}×${t.clientHeight}`);
    resolve(bad);
  })));
}

for (const [w, hgt] of VIEWPORTS) {
  test(`presenter mode at ${w}×${hgt}: every changed panel is whole, in view and uncovered; the title is not cut`, async () => {
    const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: w, height: hgt } });
    await byTestId(page, "presenter").click();
    const problems = [];
    for (const name of SCENARIOS) {
      const steps = await page.evaluate((name) => window.explainer.open(name).then((v) => v.steps), name);
      for (let n = 0; n <= steps; n++) {
        await page.evaluate((n) => window.explainer.goto(n), n);
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
