// stage-presenter.test.mjs — presenter mode fills the projected screen: at 1280×800 and
// 1920×1080 the stage and the narration take at least 75% of the viewport's area, in larger type
// than without presenter mode, with the protocol's panels and the narration in view and nothing
// over them; the step's note is not on this screen (it is the speaker's, in a second window:
// teach-presenter.test.mjs). Screenshots in web/test/artifacts/stage-presenter-*.png. The page
// opens without the engine (harness holdEngine): a link's step, goto and view are happy-path's
// stored views, and presenter mode is the page's own.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, waitStep, welcomed, byTestId, call } from "./page-helpers.mjs";
import { inView, requiredFor, settle } from "./stage-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

for (const [name, viewport] of [["1280", { width: 1280, height: 800 }], ["1920", { width: 1920, height: 1080 }]]) {
  test(`presenter mode at ${name}: the stage and the narration fill the screen`, async () => {
    const page = await h.open("index.html#scenario=happy-path&step=10", { viewport, ...welcomed(h), engine: false });
    await waitStep(page, 10);
    const fontBefore = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector(".why-item")).fontSize));
    await byTestId(page, "presenter").click();
    await settle(page);
    const m = await page.evaluate(() => {
      const area = (sel) => { const el = document.querySelector(sel); if (!el || !el.getClientRects().length) return 0; const r = el.getBoundingClientRect(); return r.width * r.height; };
      return {
        share: (area("#stage") + area("#narration") + area("#fatal")) / (innerWidth * innerHeight),
        why: parseFloat(getComputedStyle(document.querySelector(".why-item")).fontSize),
        oneScreen: document.documentElement.scrollHeight <= innerHeight,
      };
    });
    assert.ok(m.share >= 0.75, `the stage and the narration take ${Math.round(m.share * 100)}% of the screen`);
    assert.ok(m.why >= fontBefore * 1.15, `narration type ${fontBefore}px → ${m.why}px`);
    assert.equal(m.oneScreen, true);
    const problems = [];
    for (const n of [3, 10, 17]) {
      await call(page, "goto", n);
      await waitStep(page, n);
      await settle(page);
      for (const p of await inView(page, await requiredFor(page, { presenting: true }))) problems.push(`step ${n}: ${p}`);
      if (await page.evaluate(() => window.explainer.view().then((v) => !!v.note))) {
        assert.equal(await page.locator('[data-testid="note"]').isVisible(), false, `step ${n}: the note is not on the projected screen`);
      }
    }
    assert.deepEqual(problems, []);
    await call(page, "goto", 10);
    await waitStep(page, 10);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await h.screenshot(page, `stage-presenter-${name}-${scheme}`);
    }
    assert.deepEqual(await h.axe(page), [], "axe in presenter mode");
    h.assertNoErrors(page);
  });
}
