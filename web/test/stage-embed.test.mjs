// stage-embed.test.mjs — the explainer in a 700×640 iframe (?embed=1) on a documentation page
// served beside the site (web/test/docs-page.html): a compact layout where, without scrolling the
// frame, the protocol's panels, the narration and the step's note are in view with nothing over
// them; no title or summary; the controls in one row; at the failure the error shows with the
// buffer and builders it left, its details folded into a <details>. Screenshots of the docs
// page, light and dark, in web/test/artifacts/stage-embed-700-*.png.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setupPrivate, call } from "./page-helpers.mjs";
import { waitFirstView } from "./harness.mjs";
import { drawnOver, inView, requiredFor, settle, sideways, wholeInView } from "./stage-helpers.mjs";

let h;
before(async () => {
  const file = (name) => readFileSync(new URL(name, import.meta.url), "utf8");
  h = await setupPrivate({ extra: { "docs/embed.html": file("docs-page.html"), "docs/docs-page.css": file("docs-page.css") } });
});
after(async () => { await h?.close(); });

/** The docs page with the explainer framed at `hash`; resolves to [page, frame] once it shows step n. */
async function docsPage(hash, n, options = {}) {
  // (without the engine, harness.holdEngine, unless options.engine: the frame shows a built-in's
  // stored views, and what is checked is the layout they draw; they hold each built-in under its
  // own bug mode only, so a link that turns on another asks the engine)
  const { engine = false } = options;
  const page = await h.open("docs/embed.html", { viewport: { width: 1000, height: 900 }, ...options, ready: false, engine });
  await page.evaluate((src) => { document.getElementById("ex").src = src; }, "../index.html?embed=1" + hash);
  const frame = await (await page.locator("#ex").elementHandle()).contentFrame();
  if (engine) {
    await frame.waitForFunction(() => window.explainer && window.explainer.ready);
    await frame.evaluate(() => window.explainer.ready);
  } else await waitFirstView(frame);
  await frame.waitForFunction((n) => new RegExp(`^step ${n} / `).test(document.querySelector('[data-testid="step-count"]').textContent), n);
  await settle(frame);
  return [page, frame];
}

test("700×640 iframe: the compact layout shows the stage, the narration and the note", async () => {
  const [page, frame] = await docsPage("#scenario=happy-path&step=10", 10);
  const box = await page.locator("#ex").boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 900, "the frame is on the docs page's screen");
  assert.equal(await frame.evaluate(() => [innerWidth, innerHeight].join("×")), "700×640");
  assert.equal(await frame.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, "one screen inside the frame");
  assert.equal(await sideways(frame), null);
  const problems = [];
  for (const n of [10, 3, 8, 14]) {
    await call(frame, "goto", n);
    await frame.waitForFunction((n) => new RegExp(`^step ${n} / `).test(document.querySelector('[data-testid="step-count"]').textContent), n);
    await settle(frame);
    for (const p of await inView(frame, await requiredFor(frame))) problems.push(`step ${n}: ${p}`);
  }
  assert.deepEqual(problems, []);
  // No title or summary; the controls are one compact row.
  assert.equal(await frame.locator('[data-testid="scenario-title"]').isVisible(), false);
  assert.equal(await frame.locator('[data-testid="scenario-summary"]').isVisible(), false);
  const row = await frame.evaluate(() => {
    const c = document.getElementById("controls").getBoundingClientRect();
    return { height: c.height, stage: document.getElementById("stage").getBoundingClientRect().height };
  });
  assert.ok(row.height <= 64, `the controls take ${row.height}px`);
  assert.ok(row.stage >= 300, `the stage keeps ${row.stage}px of 640`);
  // Three columns side by side, left to right as the data flows.
  const cols = await frame.evaluate(() => [...document.querySelectorAll("#stage > .col")].map((c) => Math.round(c.getBoundingClientRect().left)));
  assert.ok(cols[0] < cols[1] && cols[1] < cols[2], `columns at ${cols}`);
  await call(frame, "goto", 10);
  await frame.waitForFunction(() => /^step 10 \//.test(document.querySelector('[data-testid="step-count"]').textContent));
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(frame);
    await h.screenshot(page, `stage-embed-700-${scheme}`, { fullPage: false });
    assert.deepEqual(await h.axe(frame), [], `axe in the frame, ${scheme}`);
  }
  h.assertNoErrors(page);
});

test("700×640 iframe: the failure leads with the data and the first check; its details open in full after the stage", async () => {
  const [page, frame] = await docsPage("#scenario=fatal-upstream-end&step=10", 10);
  // In 640 px the lead (what happens to data, the first check) takes the place of the executor
  // column's third panel: the per-vnode progress is one scroll of that column away here.
  // The invariant, which the failing step changes, keeps its status in view.
  assert.deepEqual(await inView(frame, [...(await requiredFor(frame)).filter((id) => id !== "progress"), "invariant"]), []);
  const lead = await frame.evaluate(() => ["fatal-data-headline", "fatal-data-until", "fatal-first-check"].map((id) => {
    const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight ? null : `${id} at ${Math.round(r.top)}–${Math.round(r.bottom)}`;
  }).filter(Boolean));
  assert.deepEqual(lead, [], "what happens to data and the first check are in the frame");
  assert.equal(await frame.locator('[data-testid="fatal-details"]').isHidden(), false, "the details are open");
  assert.equal(await frame.evaluate(() => { const m = document.getElementById("fatal-more"); return m.scrollHeight <= m.clientHeight + 1; }), true, "nothing scrolls inside them");
  assert.equal(await frame.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, "still one screen: the column scrolls to the details");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `stage-embed-700-fatal-${scheme}`, { fullPage: false });
  }
  h.assertNoErrors(page);
});

test("700×640 iframe: the failure's lead, at its step, and the caption are whole in view without scrolling, nothing drawn over anything", async () => {
  // fatal-upstream-end at its failure (a bug mode on too: the caption's longest line), bug-no-state-write
  // where its invariant breaks, happy-path at step 10; light and dark.
  const CAPTION = ["embed-title", "embed-release", "embed-open"];
  const cases = [
    { scenario: "fatal-upstream-end", at: "error", need: ["fatal-data-headline", "fatal-data-until", "fatal-first-check", ...CAPTION] },
    { scenario: "fatal-upstream-end", bug: "no-state-write", at: "error", need: ["fatal-data-headline", "fatal-data-until", "fatal-first-check", ...CAPTION, "embed-bug"] },
    { scenario: "bug-no-state-write", at: "invariant", need: [...CAPTION, "embed-bug"] },
    { scenario: "happy-path", step: 10, need: CAPTION },
  ];
  const problems = [];
  for (const c of cases) {
    const [page, frame] = await docsPage(`#scenario=${c.scenario}&step=0${c.bug ? "&bug=" + c.bug : ""}`, 0, { engine: !!c.bug });
    const n = c.step ?? await frame.evaluate(async (kind) => (await window.explainer.view()).marks.find((m) => m.kind === kind).step, c.at);
    await call(frame, "goto", n);
    await frame.waitForFunction((n) => new RegExp(`^step ${n} / `).test(document.querySelector('[data-testid="step-count"]').textContent), n);
    const where = `${c.scenario}${c.bug ? " (bug " + c.bug + ")" : ""} step ${n}`;
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(frame);
      assert.equal(await frame.evaluate(() => [innerWidth, innerHeight].join("×")), "700×640");
      // The caption's title is whole (it wraps; embed-caption.test.mjs walks every step).
      const title = await frame.evaluate(() => { const t = document.querySelector('[data-testid="embed-title"]'); return { cut: t.scrollWidth > t.clientWidth + 0.5 || t.scrollHeight > t.clientHeight + 0.5, width: t.clientWidth }; });
      if (title.cut) problems.push(`${where}, ${scheme}: the caption's title is cut to ${title.width} px`);
      for (const p of await wholeInView(frame, [...c.need, "#controls"])) problems.push(`${where}, ${scheme}: ${p}`);
      for (const p of await drawnOver(frame)) problems.push(`${where}, ${scheme}: ${p}`);
      // The stage's panels are in view as in the tests above (at the failure, the progress gives way to the lead).
      const required = (await requiredFor(frame)).filter((id) => !(c.at === "error" && id === "progress"));
      for (const p of await inView(frame, required)) problems.push(`${where}, ${scheme}: ${p}`);
    }
    h.assertNoErrors(page);
    await page.close();
  }
  assert.deepEqual(problems, []);
});
