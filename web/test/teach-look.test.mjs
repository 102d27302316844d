// teach-look.test.mjs — the teaching tools as a person sees them, at 1280 and 375 px, light and
// dark: the bug banner and menu, the predict quiz and its result. Screenshots go to
// web/test/artifacts/teach-look-*.png; axe finds no serious or critical violation; nothing
// overflows the page sideways at 375 px.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId, waitStep } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const SIZES = [
  ["1280-light", { viewport: { width: 1280, height: 900 } }],
  ["1280-dark", { viewport: { width: 1280, height: 900 }, colorScheme: "dark" }],
  ["375-light", { viewport: { width: 375, height: 760 } }],
  ["375-dark", { viewport: { width: 375, height: 760 }, colorScheme: "dark" }],
];

for (const [name, options] of SIZES) {
  test(`teaching tools at ${name}`, async () => {
    const page = await openPage(h, "index.html#scenario=happy-path&step=9&bug=mark-before-drain", options);
    await byTestId(page, "bug-banner").waitFor();
    const noSideScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.equal(await noSideScroll(), true, "bug banner: no sideways scroll");
    await h.screenshot(page, `teach-look-bug-${name}`, { fullPage: false });

    await byTestId(page, "bug-menu").click();
    await h.screenshot(page, `teach-look-bugmenu-${name}`, { fullPage: false });
    assert.deepEqual(await h.axe(page), [], "axe with the bug menu open");
    await page.keyboard.press("Escape");

    // Predict at e4: the quiz, then the result.
    await byTestId(page, "predict").click();
    await page.getByRole("button", { name: /^Step forward/ }).click();
    const quiz = byTestId(page, "predict-quiz");
    await quiz.waitFor();
    await quiz.locator("fieldset.predict-row").first().getByLabel("hidden").check();
    await quiz.locator("fieldset.predict-row").nth(1).getByLabel("visible").check();
    await quiz.scrollIntoViewIfNeeded();
    assert.equal(await noSideScroll(), true, "predict quiz: no sideways scroll");
    await h.screenshot(page, `teach-look-predict-${name}`, { fullPage: false });
    assert.deepEqual(await h.axe(page), [], "axe with the predict quiz");
    await byTestId(page, "predict-submit").click();
    await waitStep(page, 10);
    await byTestId(page, "predict-result").scrollIntoViewIfNeeded();
    await h.screenshot(page, `teach-look-result-${name}`, { fullPage: false });
    assert.deepEqual(await h.axe(page), [], "axe with the predict result");
    h.assertNoErrors(page);
  });
}
