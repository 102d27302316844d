// fatal.test.mjs — the fatal path on the real page: fatal-upstream-end fails with the exact error
// text, the fatal panel shows the engine's explanation of it (the view's `failure`: meaning,
// what the source proves with its links, the inferred causes apart, what is left behind, what a
// recovery does) and nothing else, and Recover (the button, or the r key) rolls back to the last
// checkpoint; the backfill then resumes and the invariant holds at the end. (The panel drawn
// from every failing view, a panic's included, without a browser: node/render-fatal.test.mjs.)
// The layout tests at the failure (1280×800, 375×740, buffering vs backfilling) open without the
// engine (harness holdEngine): the view's failure is in the built-ins' stored views. Recover is
// tested on the engine.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, openAt, text, waitStep, stepCount, byTestId, setupPrivate } from "./page-helpers.mjs";

const ERROR = "locality provider upstream ended unexpectedly during backfill";

let h;
let shared; // the first test's page, reused (each page costs an engine start)
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** Step with the Step button until the fatal panel shows; returns the failing step. */
async function stepUntilFatal(page) {
  const fatal = byTestId(page, "fatal");
  const { steps } = await stepCount(page);
  for (let n = 1; n <= steps; n++) {
    assert.equal(await fatal.isVisible(), false, `the fatal panel shows before step ${n}`);
    await page.getByRole("button", { name: /^Step forward/ }).click();
    await waitStep(page, n);
    if (await fatal.isVisible()) return n;
  }
  throw new Error("the fatal panel never showed");
}

const squash = (s) => String(s ?? "").replace(/\s+/g, " ").trim();

/** The fatal panel shows exactly the view's failure: each part in its place, links included. */
async function checkFailurePanel(page) {
  const f = (await page.evaluate(() => window.explainer.view())).failure;
  assert.ok(f, "the view explains the failure");
  const shown = await page.evaluate(() => {
    const part = (id) => document.querySelector(`[data-testid="${id}"]`);
    const items = (id) => [...part(id).querySelectorAll("li")].map((li) => ({
      text: li.firstChild.textContent, link: li.querySelector("a.src")?.getAttribute("href") ?? null,
      label: li.querySelector("a.src")?.textContent ?? null,
    }));
    return {
      meaning: part("fatal-meaning").textContent, proven: items("fatal-proven"), inferred: items("fatal-inferred"),
      left: part("fatal-left").querySelector("p").textContent, recovery: part("fatal-recovery").querySelector("p").textContent,
    };
  });
  assert.equal(shown.meaning, f.meaning);
  assert.deepEqual(shown.proven.map((p) => squash(p.text)), f.proven.map((c) => squash(c.text)));
  assert.deepEqual(shown.proven.map((p) => p.link), f.proven.map((c) => c.url));
  assert.deepEqual(shown.proven.map((p) => p.label), f.proven.map((c) => `${c.file.split("/").pop()} L${c.lines[0]}–${c.lines[1]}`));
  assert.deepEqual(shown.inferred.map((p) => squash(p.text)), f.inferred.map(squash), "the inferred causes, apart");
  assert.ok(shown.inferred.every((p) => p.link === null), "an inference cites no lines");
  assert.equal(shown.left, f.left_behind);
  assert.equal(shown.recovery, f.recovery);
  return f;
}

async function checkFatal(page, n) {
  assert.match(await text(page, "phase"), /failed/i);
  assert.equal(await text(page, "fatal-message"), ERROR);
  const panel = await text(page, "fatal");
  assert.ok(panel.includes(`The executor failed at step ${n}`), panel);
  const f = await checkFailurePanel(page);
  assert.equal(f.kind, "upstream-ended");
  // the details, open after the stage
  const details = await text(page, "fatal-details");
  assert.match(details, /locality_provider\.rs L599–604/);
  assert.match(details, /Never emitted: 1 row in the builders \(vnode 1\) and 1 chunk in the upstream buffer \(2 rows\)/);
  // The narration says it too, and the timeline marks the error.
  assert.ok((await text(page, "narration")).includes(ERROR));
  assert.equal(await page.locator(`#marks .mk-error[data-step="${n}"]`).count(), 1);
  // What is left behind is never emitted: the buffered chunk is still there.
  assert.match(await text(page, "buffer"), /-\(1,100,x\) ?\+\(13,202,x\)/);
  const recover = byTestId(page, "recover");
  assert.equal(await recover.isEnabled(), true);
  assert.match(await recover.textContent(), /recover/i);
}

async function checkRecovered(page, n) {
  await waitStep(page, n + 1);
  assert.match(await text(page, "phase"), /starting/i);
  await byTestId(page, "fatal").waitFor({ state: "hidden" });
  const rec = await page.locator('[data-testid="outputs"] li.msg-recovery').allTextContents();
  assert.equal(rec.length, 1, `recovery entries: ${JSON.stringify(rec)}`);
  assert.match(rec[0], /⟲ recovery ?rolled back to checkpoint e3/);
  assert.match(await text(page, "downstream"), /^\(1,100,x\) ?\(2,101,x\)$/, "downstream rolled back to e3");
  // Then to the end: the backfill resumes, completes, and the invariant holds.
  await page.getByRole("button", { name: /^Last step/ }).click();
  const { steps } = await stepCount(page);
  await waitStep(page, steps);
  assert.match(await text(page, "phase"), /forwarding/i);
  assert.match(await text(page, "invariant"), /invariant holds/);
  assert.equal(await byTestId(page, "fatal").isVisible(), false);
}

test("fatal-upstream-end: the exact error, explained; the Recover button recovers", async () => {
  const page = shared = await openPage(h, "index.html#scenario=fatal-upstream-end&step=0", { keep: true });
  const n = await stepUntilFatal(page);
  assert.equal(n, 10);
  await checkFatal(page, n);
  await h.screenshot(page, "fatal-panel-1280");
  // The executor's header shows the actor's state, its sentence from the view.
  const actor = byTestId(page, "actor-state");
  assert.equal(squash(await actor.textContent()), "· failed");
  assert.equal(await actor.getAttribute("title"), (await page.evaluate(() => window.explainer.view())).actor.text);
  // The only thing that can happen next is a recovery.
  const kinds = await page.locator('[data-testid="actions"] button').evaluateAll((bs) => bs.map((b) => b.dataset.kind));
  assert.deepEqual(kinds, ["recover"]);
  await byTestId(page, "recover").click();
  await checkRecovered(page, n);
  h.assertNoErrors(page);
});

test("fatal-upstream-end: the r key recovers too", async () => {
  const page = shared ?? await openPage(h, "index.html#scenario=fatal-upstream-end&step=9");
  await openAt(page, "fatal-upstream-end", 9);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 10);
  await checkFatal(page, 10);
  await page.keyboard.press("r");
  await checkRecovered(page, 10);
  h.assertNoErrors(page);
});

/**
 * In the page: what keeps the lead of the fatal panel (what happens to data, the first check)
 * from being read without scrolling: each part must lie inside the viewport, be uncovered, not
 * scroll inside itself, and no ancestor may clip it or need a scrollTop to show it.
 */
function leadProblems() {
  const bad = [];
  const parts = {
    "data headline": document.querySelector('[data-testid="fatal-data-headline"]'),
    "data until": document.querySelector('[data-testid="fatal-data-until"]'),
    "first check": document.querySelector('[data-testid="fatal-first-check"] .fatal-check'),
  };
  for (const [name, el] of Object.entries(parts)) {
    if (!el || !el.getClientRects().length) { bad.push(`${name}: not shown`); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) bad.push(`${name}: [${r.left},${r.top} → ${r.right},${r.bottom}] is not inside the ${innerWidth}×${innerHeight} viewport`);
    if (el.scrollHeight > el.clientHeight + 1) bad.push(`${name}: its text scrolls inside it`);
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowY === "visible" && cs.overflowX === "visible") continue;
      if (a.scrollTop > 0) bad.push(`${name}: ${a.id || a.className} is scrolled (${a.scrollTop} px)`);
      const b = a.getBoundingClientRect();
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) bad.push(`${name}: clipped by ${a.id || a.className}`);
    }
    // (the first check is inline text: probe its first and last line boxes)
    const lines = [...el.getClientRects()];
    const first = lines[0];
    const last = lines.at(-1);
    for (const [x, y] of [[first.left + 3, first.top + 3], [(first.left + first.right) / 2, (first.top + first.bottom) / 2], [last.left + 3, last.bottom - 3]]) {
      const at = document.elementFromPoint(x, y);
      if (!at || !(at === el || el.contains(at))) { bad.push(`${name}: covered at (${Math.round(x)},${Math.round(y)}) by ${at?.id || at?.className || "nothing"}`); break; }
    }
  }
  return bad;
}

/** In the page: the details are open in full: shown, every part shown, nothing in them scrolls. */
function detailsProblems() {
  const bad = [];
  const more = document.getElementById("fatal-more");
  if (!more || more.hidden) return ["the details are not shown"];
  for (const id of ["fatal-checks", "fatal-meaning-part", "fatal-data-full", "fatal-left", "fatal-proven", "fatal-inferred", "fatal-recovery"]) {
    const el = more.querySelector(`[data-testid="${id}"]`);
    if (!el || !el.getClientRects().length) bad.push(`${id}: not shown`);
  }
  for (const el of [more, document.getElementById("fatal"), ...more.querySelectorAll("*"), ...document.getElementById("fatal").querySelectorAll("*")]) {
    if (el.classList.contains("sr-only")) continue; // text for screen readers only, clipped to 1 px by design
    const cs = getComputedStyle(el);
    if (cs.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1) bad.push(`${el.id || el.className || el.tagName}: scrolls inside (${el.scrollHeight} > ${el.clientHeight})`);
    if (cs.maxHeight !== "none" && el.scrollHeight > el.clientHeight + 1) bad.push(`${el.id || el.className}: cut by max-height`);
  }
  return bad;
}

test("1280×800, fatal-upstream-end at its failure: what happens to data and the first check are in view, the details open in full (screenshots)", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=10", { engine: false, viewport: { width: 1280, height: 800 } });
  const f = (await page.evaluate(() => window.explainer.view())).failure;
  assert.equal(f.phase, "backfilling");
  assert.match(f.data.headline, /no row is lost/);
  assert.ok(f.checks.length >= 3, "the diagnosis's checks");
  assert.equal(await text(page, "fatal-data-headline"), squash(f.data.short), "the lead: the engine's short headline");
  assert.equal(await text(page, "fatal-data-until"), squash(f.data.until));
  assert.match(await text(page, "fatal-first-check"), new RegExp(`^Check first · v3\\.1${squash(f.checks[0]).slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  assert.match(await text(page, "fatal-phase"), /^while backfilling · v3\.1$/);
  assert.deepEqual(await page.evaluate(leadProblems), []);
  assert.deepEqual(await page.evaluate(detailsProblems), []);
  // every check, in order, in the details
  const shown = await page.locator('[data-testid="fatal-checks"] ol li').allTextContents();
  assert.deepEqual(shown.map(squash), f.checks.map(squash));
  await checkFailurePanel(page);
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await h.screenshot(page, `fatal-lead-1280-${scheme}`);
  }
  // the column scrolls as a whole to the details, which then read in full
  await page.locator('[data-testid="fatal-to-details"]').click();
  await page.waitForFunction(() => { const r = document.getElementById("fatal-more").getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight / 2; });
  await h.screenshot(page, "fatal-details-1280-dark");
  await page.emulateMedia({ colorScheme: "light" });
  assert.deepEqual(await h.axe(page), []);
  h.assertNoErrors(page);
});

test("buffering and backfilling are told apart: end-while-buffering vs fatal-upstream-end", async () => {
  const page = await openPage(h, "index.html#scenario=end-while-buffering&step=5", { engine: false, viewport: { width: 1280, height: 800 } });
  const buf = (await page.evaluate(() => window.explainer.view())).failure;
  assert.equal(buf.kind, "upstream-ended-while-buffering");
  assert.equal(buf.phase, "buffering");
  assert.match(await text(page, "fatal-phase"), /^while buffering, before any start signal · v3\.1$/);
  assert.equal(await byTestId(page, "fatal-phase").getAttribute("data-phase"), "buffering");
  assert.match(await text(page, "fatal-data-until"), /buffered upstream row written to the state table since the last barrier was never committed/);
  const dashed = await byTestId(page, "fatal-phase").evaluate((e) => getComputedStyle(e).borderTopStyle);
  assert.deepEqual(await page.evaluate(leadProblems), []);
  await h.screenshot(page, "fatal-lead-buffering-1280");
  await openAt(page, "fatal-upstream-end", 10);
  assert.equal(await byTestId(page, "fatal-phase").getAttribute("data-phase"), "backfilling");
  assert.match(await text(page, "fatal-data-until"), /1 row in the builders and the 1 chunk buffered from the upstream \(2 rows\) are discarded/);
  const solid = await byTestId(page, "fatal-phase").evaluate((e) => getComputedStyle(e).borderTopStyle);
  assert.notEqual(dashed, solid, "the two phases look apart");
  h.assertNoErrors(page);
});

test("375×740: the lead reads whole once the page scrolls to it; the details open in full; no sideways scroll (screenshots)", async () => {
  const page = await openPage(h, "index.html#scenario=fatal-upstream-end&step=10", { engine: false, viewport: { width: 375, height: 740 } });
  // A link that opens at the failure shows it: the page starts scrolled to the failure panel, its
  // heading and what happens to data whole above the sticky bottom part and uncovered.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const atLoad = await page.evaluate(() => ["fatal-title", "fatal-data-headline", "fatal-data-until"].map((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`) || document.getElementById(id);
    const r = el.getBoundingClientRect();
    const free = document.getElementById("bottom").getBoundingClientRect().top;
    const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (r.top < 0 || r.bottom > free) return `${id} at ${Math.round(r.top)}–${Math.round(r.bottom)}, the free part of the screen 0–${Math.round(free)}`;
    return at && el.contains(at) ? null : `${id}: covered by ${at?.id || at?.className}`;
  }).filter(Boolean));
  assert.deepEqual(atLoad, [], "at load, the failure is in view");
  assert.deepEqual(await page.evaluate(detailsProblems), []);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true);
  // The phone's bottom part (narration, controls) is sticky: each part of the lead, scrolled to,
  // is above it and uncovered.
  const parts = ['[data-testid="fatal-data-headline"]', '[data-testid="fatal-data-until"]', '[data-testid="fatal-first-check"] .fatal-check'];
  for (const sel of parts) {
    const bad = await page.evaluate((sel) => {
      const el = document.querySelector(sel);
      el.scrollIntoView({ block: "start" });
      window.scrollBy(0, -60);
      const r = el.getBoundingClientRect();
      const at = document.elementFromPoint((r.left + r.right) / 2, r.top + 4);
      return at && (at === el || el.contains(at)) ? null : `${sel}: covered by ${at?.id || at?.className}`;
    }, sel);
    assert.equal(bad, null);
  }
  await page.evaluate(() => document.getElementById("fatal").scrollIntoView({ block: "start" }));
  await h.screenshot(page, "fatal-lead-375");
  await page.evaluate(() => document.getElementById("fatal-more").scrollIntoView({ block: "start" }));
  await h.screenshot(page, "fatal-details-375");
  h.assertNoErrors(page);
});
