// layout.test.mjs — the page works at 375 px (no horizontal page scroll at the start, middle,
// end and errors of every built-in scenario, and with each overlay open), passes axe (no serious/critical violations) mid-backfill and at the fatal
// step in light and dark, and leaves screenshots (1280 and 375 px, light and dark, mid-backfill
// and fatal) in web/test/artifacts/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, waitStep, text, setupPrivate, call } from "./page-helpers.mjs";

let h;
let shared; // the first test's page, reused (each page costs an engine start)
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const NARROW = { width: 375, height: 740 };
const WIDE = { width: 1280, height: 900 };

async function overflow(page) {
  return page.evaluate(() => {
    const de = document.documentElement;
    if (de.scrollWidth <= window.innerWidth) return null;
    // Name the widest offenders, to make a failure readable.
    const wide = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && getComputedStyle(e).position !== "fixed")
      .filter((e) => !e.closest(".sr-only"))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${[...e.classList].join(".")} right=${Math.round(e.getBoundingClientRect().right)}`);
    return { scrollWidth: de.scrollWidth, innerWidth: window.innerWidth, wide };
  });
}

test("375 px: no horizontal page scroll at the start, middle, end and errors of every built-in scenario", async () => {
  const page = shared = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: NARROW, keep: true });
  const names = (await page.evaluate(() => window.explainer.scenarios())).map((s) => s.name);
  assert.ok(names.length >= 10, `scenarios: ${names}`);
  const failures = [];
  for (const name of names) {
    // In the page: the first step, the middle, the last, and every error, recovery and end (where
    // the fatal panel shows); one round trip per scenario.
    const found = await page.evaluate(async (name) => {
      const v = await window.explainer.open(name);
      const sample = new Set([0, Math.floor(v.steps / 2), v.steps, ...v.marks.filter((m) => m.kind !== "barrier").map((m) => m.step)]);
      const bad = [];
      for (const n of [...sample].sort((a, b) => a - b)) {
        await window.explainer.goto(n);
        const de = document.documentElement;
        if (de.scrollWidth > window.innerWidth) bad.push(n);
      }
      return bad;
    }, name);
    for (const n of found) {
      await call(page, "goto", n);
      failures.push(`${name} step ${n}: ${JSON.stringify(await overflow(page))}`);
    }
  }
  // The overlays, too.
  await call(page, "open", "happy-path");
  for (const [key, id] of [["?", "help"], ["i", "inject-dialog"], ["o", "editor-dialog"]]) {
    await page.locator("body").click({ position: { x: 2, y: 2 } });
    await page.keyboard.press(key);
    await page.locator("#" + id).waitFor({ state: "visible" });
    const o = await overflow(page);
    if (o) failures.push(`${id} open: ${JSON.stringify(o)}`);
    const box = await page.locator("#" + id).boundingBox();
    if (box.x < 0 || box.x + box.width > NARROW.width + 0.5) failures.push(`${id} is wider than the screen: ${JSON.stringify(box)}`);
    await page.keyboard.press("Escape");
    await page.locator("#" + id).waitFor({ state: "hidden" });
  }
  assert.deepEqual(failures, []);
  h.assertNoErrors(page);
});

test("axe: no serious or critical violations mid-backfill and at the fatal step, light and dark; screenshots", async () => {
  const page = shared ?? await openPage(h, "index.html#scenario=happy-path&step=10", { viewport: WIDE });
  const shots = [];
  const problems = [];
  for (const [where, scenario, step] of [["mid-backfill", "happy-path", 10], ["fatal", "fatal-upstream-end", 10]]) {
    await page.evaluate(async ([s, n]) => { await window.explainer.open(s); await window.explainer.goto(n); }, [scenario, step]);
    await waitStep(page, step);
    if (where === "fatal") assert.equal(await text(page, "fatal-message"), "locality provider upstream ended unexpectedly during backfill");
    else assert.match(await text(page, "phase"), /backfilling/i);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [wname, vp] of [["1280", WIDE], ["375", NARROW]]) {
        await page.setViewportSize(vp);
        shots.push(await h.screenshot(page, `layout-${where}-${wname}-${scheme}`));
        if (wname === "375") {
          const o = await overflow(page);
          if (o) problems.push(`${where} ${scheme} 375: ${JSON.stringify(o)}`);
        }
        const v = await h.axe(page);
        if (v.length) problems.push(`${where} ${scheme} ${wname}: ${JSON.stringify(v)}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.equal(shots.length, 8);
  h.assertNoErrors(page);
});
