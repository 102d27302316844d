// menu-value.test.mjs — the header menus' values are whole (issue 33: the bug-mode menu showed
// "mark-before-d…" at 1280 wide): with every bug mode on, and the release menu at v3.0 with a job
// created in the background, at 1280×800, 1366×768, 1920×1080 and 375×740 each value's text is
// whole in its button, the button inside the viewport, no header control drawn over another (the
// release menu lay over Save), and the header does not scroll sideways.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** In the page: what of the two menus' values is cut, outside the viewport, or widens the header. */
function cutValues() {
  const bad = [];
  for (const id of ["bug-menu", "release-menu"]) {
    const btn = document.querySelector(`[data-testid="${id}"]`);
    const v = btn?.querySelector(".menu-value");
    if (!v || !v.getClientRects().length) { bad.push(`${id}: no value shown`); continue; }
    if (v.scrollWidth > v.clientWidth + 0.5) bad.push(`${id}: "${v.textContent}" is cut (${v.scrollWidth} > ${v.clientWidth} px)`);
    const r = v.getBoundingClientRect(), b = btn.getBoundingClientRect();
    if (r.left < b.left - 0.5 || r.right > b.right + 0.5) bad.push(`${id}: "${v.textContent}" lies past its button`);
    if (b.left < -0.5 || b.right > innerWidth + 0.5) bad.push(`${id}: the button ${Math.round(b.left)}–${Math.round(b.right)} is outside the ${innerWidth} px viewport`);
  }
  // no control of the header drawn over another (the release menu lay over Save)
  const ctl = [...document.querySelectorAll(".topbar button, .topbar select")].filter((e) => e.getClientRects().length && !e.closest(".popover"));
  for (let i = 0; i < ctl.length; i++) {
    for (let j = i + 1; j < ctl.length; j++) {
      const a = ctl[i].getBoundingClientRect(), b = ctl[j].getBoundingClientRect();
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) bad.push(`"${ctl[i].textContent.trim()}" and "${ctl[j].textContent.trim()}" overlap by ${Math.round(w)}×${Math.round(h)} px`);
    }
  }
  const top = document.querySelector(".topbar");
  if (top.scrollWidth > top.clientWidth + 0.5) bad.push(`the header scrolls sideways (${top.scrollWidth} > ${top.clientWidth})`);
  if (document.documentElement.scrollWidth > innerWidth + 0.5) bad.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  return bad;
}

for (const [w, hgt] of [[1280, 800], [1366, 768], [1920, 1080], [375, 740]]) {
  test(`${w}×${hgt}: the bug mode's and the release's values are whole`, async () => {
    const page = await openPage(h, "index.html#scenario=happy-path&step=3", { viewport: { width: w, height: hgt } });
    const problems = [];
    const bugs = await page.evaluate(async () => (await window.explainer.bugs()).map((b) => b.name));
    assert.ok(bugs.includes("mark-before-drain"), bugs.join(", "));
    for (const bug of bugs) {
      await page.evaluate((b) => window.explainer.bug(b), bug);
      await page.waitForFunction((b) => document.querySelector('[data-testid="bug-menu"] .menu-value')?.textContent === b, bug);
      for (const p of await page.evaluate(cutValues)) problems.push(`bug ${bug}: ${p}`);
    }
    await page.evaluate(async () => { await window.explainer.release("v3.0"); await window.explainer.create("background"); });
    await page.waitForFunction(() => /v3\.0 · background/.test(document.querySelector('[data-testid="release-value"]')?.textContent || ""));
    for (const p of await page.evaluate(cutValues)) problems.push(`v3.0 background: ${p}`);
    await h.screenshot(page, `menu-value-${w}`, { fullPage: false });
    assert.deepEqual(problems, []);
    h.assertNoErrors(page);
  });
}
