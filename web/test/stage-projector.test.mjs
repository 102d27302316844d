// stage-projector.test.mjs — on a projector (1920×1080) the stage uses the space and the type
// scales up so a room can read it: the protocol's panels, the narration and the note are in view
// with nothing over them, the page is one screen, text and chips are larger than on a laptop, and
// the stage with the narration beside it fills most of the screen. Screenshots, light and dark,
// in web/test/artifacts/stage-projector-1920-*.png. The page opens without the engine (harness
// holdEngine): a link's step and view are happy-path's stored views.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, waitStep } from "./page-helpers.mjs";
import { inView, requiredFor, settle } from "./stage-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** Sizes of what a room reads, and the share of the screen the stage and the dock beside it take. */
const measure = (page) => page.evaluate(() => {
  const px = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
  const area = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return r.width * r.height; };
  return {
    body: px("body"), chip: px(".chip"), why: px(".why-item"),
    share: (area("#stage") + area("#dock")) / (innerWidth * innerHeight),
    stage: area("#stage") / (innerWidth * innerHeight),
    oneScreen: document.documentElement.scrollHeight <= innerHeight,
  };
});

test("1920×1080: the stage fills the screen, in type a room can read", async () => {
  const page = await h.open("index.html#scenario=happy-path&step=10", { viewport: { width: 1920, height: 1080 }, engine: false });
  await waitStep(page, 10);
  await settle(page);
  assert.deepEqual(await inView(page, await requiredFor(page)), []);
  const big = await measure(page);
  assert.equal(big.oneScreen, true, "one screen");
  assert.ok(big.share >= 0.85, `the stage and the narration beside it take ${Math.round(big.share * 100)}% of the screen`);
  assert.ok(big.stage >= 0.6, `the stage alone takes ${Math.round(big.stage * 100)}% of the screen`);
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-projector-1920-${scheme}`);
    assert.deepEqual(await h.axe(page), [], `axe at 1920, ${scheme}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await settle(page);
  const laptop = await measure(page);
  for (const k of ["body", "chip", "why"]) {
    assert.ok(big[k] >= laptop[k] * 1.15, `${k}: ${big[k]}px on the projector, ${laptop[k]}px on a laptop`);
  }
  h.assertNoErrors(page);
});
