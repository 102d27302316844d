// words.test.mjs — plain words on the page: the text a person sees (innerText, as styled: an
// uppercase heading reads uppercase) at every step of a few built-ins, in Compare, in the
// explorer and in predict mode names no Rust identifier or internal label. The rule is
// plain-words.mjs (checked without a browser in node/words.test.mjs), the list
// internal/plainwords/words.json, the Go tests': an identifier only in a citation (the source
// links, which name files), in the glossary (a closed dialog, not in the text) or in parentheses
// beside its meaning in plain words.
// The page of the first test opens without the engine (harness holdEngine): it reads the text
// drawn from happy-path's stored views; Compare, the explorer and predict mode are the engine's.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, openAt, byTestId } from "./page-helpers.mjs";
import { plainProblems } from "./plain-words.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

// The page's visible text without its source links (citations: they name files and lines).
const visibleText = (page, sel = "body") => page.evaluate((sel) => {
  const root = document.querySelector(sel);
  if (!root) return "";
  let t = root.innerText;
  for (const a of root.querySelectorAll("a.src")) if (a.innerText) t = t.split(a.innerText).join(" ");
  return t;
}, sel);

function checkText(found, where, text) {
  for (const p of plainProblems(text)) {
    if (found.has(p)) continue;
    const line = text.split("\n").find((l) => l.includes(p)) || "";
    found.set(p, `${where}: ${line.trim().slice(0, 300)}`);
  }
}

test("every step of a few built-ins reads in plain words", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { engine: false });
  const found = new Map();
  for (const name of ["happy-path", "fatal-upstream-end", "mixed-visibility", "no-vnode-in-progress"]) {
    await openAt(page, name, 0);
    const steps = await page.evaluate(async () => (await window.explainer.view()).steps);
    for (let n = 0; n <= steps; n++) {
      await openAt(page, name, n);
      checkText(found, `${name} step ${n}`, await visibleText(page));
    }
  }
  assert.deepEqual([...found.entries()].map(([k, v]) => `${k}  ←  ${v}`), []);
  h.assertNoErrors(page);
});

test("Compare, the explorer and predict mode read in plain words", async () => {
  const found = new Map();
  // Compare: mixed-visibility against its bug mode, at every step.
  const page = await openPage(h, "index.html#scenario=bug-mark-before-drain&step=0");
  await byTestId(page, "bug-banner").getByRole("button", { name: "Compare with the correct run" }).click();
  await byTestId(page, "compare-stages").waitFor();
  await page.waitForFunction(() => /^step \d+ \/ \d+$/.test(document.querySelector('[data-testid="compare-step"]')?.textContent || ""));
  const total = Number((await byTestId(page, "compare-step").textContent()).split("/")[1]);
  for (let n = 0; n <= total; n++) {
    checkText(found, `compare step ${n}`, await visibleText(page, '[data-testid="compare"]'));
    await page.keyboard.press("ArrowRight");
  }
  await byTestId(page, "compare").getByRole("button", { name: "Close" }).click();

  // The explorer: its form and its report on happy-path.
  await openAt(page, "happy-path", 4);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explorer").waitFor();
  checkText(found, "explorer form", await visibleText(page, '[data-testid="explorer"]'));
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  checkText(found, "explorer report", await visibleText(page, '[data-testid="explorer"]'));
  await byTestId(page, "explorer").getByRole("button", { name: "Close" }).click();

  // Predict mode at happy-path's barrier e4: the quiz, then the answer.
  await openAt(page, "happy-path", 9);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("f");
  await page.keyboard.press("ArrowRight");
  await byTestId(page, "predict-quiz").waitFor();
  checkText(found, "predict quiz", await visibleText(page));
  await page.keyboard.press("PageDown");
  await byTestId(page, "predict-result").waitFor();
  checkText(found, "predict answer", await visibleText(page));

  assert.deepEqual([...found.entries()].map(([k, v]) => `${k}  ←  ${v}`), []);
  h.assertNoErrors(page);
});
