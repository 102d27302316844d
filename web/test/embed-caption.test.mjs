// embed-caption.test.mjs — the embed's caption (web/embed/caption.js) shows the scenario's title
// whole (issue 33: at fatal-upstream-end step 9 it was cut): at every step of every built-in (and
// under v3.0 where a built-in's title differs there), in a 700×640 ?embed=1 page and in the
// <backfill-explainer> element at its default size in a docs page, the title is neither cut nor
// covered, inside the frame, and the caption's other parts (the release, the link) are whole too.
// Each walk runs in the page, through its API, in one page.
// Both open without the engine (harness holdEngine): open, release and goto of a built-in are its
// stored views (every release is stored), and what is checked is the caption's layout.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setupPrivate, openPage } from "./page-helpers.mjs";
import { waitStarted } from "./harness.mjs";

let h;
before(async () => {
  const file = (name) => readFileSync(new URL(name, import.meta.url), "utf8");
  // (the docs page too, unused here: the same extra files as codemap, element-fit and
  // stage-embed, so that under run.mjs it shares their copy of the site, and their contexts)
  h = await setupPrivate({ extra: { "docs/docs-page.css": file("docs-page.css"), "docs/embed.html": file("docs-page.html") } });
});
after(async () => { await h?.close(); });

/** In the page: walk every built-in's every step; what of the caption is cut, covered or outside. */
function walkCaption() {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const shows = (n) => document.querySelector('[data-testid="step-count"]')?.textContent.startsWith(`step ${n} /`);
  const problems = (where) => {
    const bad = [];
    for (const id of ["embed-title", "embed-release", "embed-open"]) {
      const e = document.querySelector(`[data-testid="${id}"]`);
      if (!e) { bad.push(`${where}: no ${id}`); continue; }
      const r = e.getBoundingClientRect();
      if (e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5) bad.push(`${where}: ${id} "${e.textContent}" is cut (${e.scrollWidth}×${e.scrollHeight} in ${e.clientWidth}×${e.clientHeight})`);
      if (r.width === 0 || r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) bad.push(`${where}: ${id} lies outside the ${innerWidth}×${innerHeight} frame`);
      // every line of it uncovered (its middle, and each line box's ends)
      for (const line of e.getClientRects()) {
        for (const x of [line.left + 2, (line.left + line.right) / 2, line.right - 2]) {
          const at = document.elementFromPoint(x, (line.top + line.bottom) / 2);
          if (!at || !e.contains(at)) { bad.push(`${where}: ${id} is covered at (${Math.round(x)},${Math.round((line.top + line.bottom) / 2)}) by ${at ? at.tagName.toLowerCase() + "." + [...at.classList].join(".") : "nothing"}`); break; }
        }
      }
    }
    return bad;
  };
  return (async () => {
    const bad = [];
    let steps = 0;
    const list = await window.explainer.scenarios();
    for (const { name } of list) {
      let v = await window.explainer.open(name);
      const titles = new Set();
      for (const release of [v.release, "v3.0"]) {
        try { v = await window.explainer.release(release); } catch { continue; } // (not offered under it)
        if (titles.has(v.title)) continue; // (the same title: the same caption)
        titles.add(v.title);
        for (let n = 0; n <= v.steps; n++) {
          await window.explainer.goto(n);
          for (let f = 0; !shows(n); f++) { if (f > 300) throw new Error(`${name} never showed step ${n}`); await frame(); }
          // (measuring lays the page out: no frame to wait for)
          bad.push(...problems(`${name} ${release} step ${n}`));
          steps++;
        }
      }
    }
    return { bad, steps, scenarios: list.length };
  })();
}

test("a 700×640 embed: the caption's title is whole at every step of every built-in", async () => {
  const page = await openPage(h, "index.html?embed=1#scenario=happy-path&step=0", { engine: false, viewport: { width: 700, height: 640 } });
  const { bad, steps, scenarios } = await page.evaluate(walkCaption);
  assert.ok(scenarios >= 20 && steps > 300, `${scenarios} built-ins, ${steps} steps`);
  assert.deepEqual(bad, []);
  await page.evaluate(async () => { await window.explainer.open("fatal-upstream-end"); await window.explainer.goto(9); });
  await h.screenshot(page, "embed-caption-700-fatal-9", { fullPage: false });
  h.assertNoErrors(page);
});

test("the <backfill-explainer> element at its default size: the caption's title is whole at every step of every built-in", async () => {
  const page = await h.open("about:blank", { engine: false, ready: false, viewport: { width: 1280, height: 800 } });
  const origin = new URL(h.url).origin;
  await page.route(`${origin}/docs/caption.html`, (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title><link rel="stylesheet" href="docs-page.css">
<script type="module" src="../web/element.js"></script></head><body><main class="doc"><h1>Backfill</h1>
<backfill-explainer id="ex" scenario="happy-path" step="0"></backfill-explainer></main></body></html>`,
  }));
  await page.goto(`${origin}/docs/caption.html`);
  await page.locator("#ex iframe").waitFor({ state: "attached" });
  const frame = await (await page.locator("#ex iframe").elementHandle()).contentFrame();
  await waitStarted(frame, page);
  const size = await frame.evaluate(() => [innerWidth, innerHeight]);
  assert.ok(size[0] >= 600 && size[1] >= 600, `the element's frame is ${size.join("×")}`);
  const { bad, steps } = await frame.evaluate(walkCaption);
  assert.ok(steps > 300, `${steps} steps`);
  assert.deepEqual(bad, [], `in a ${size.join("×")} element`);
  h.assertNoErrors(page);
});
