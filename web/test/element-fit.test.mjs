// element-fit.test.mjs — <backfill-explainer> without `height` in a documentation page
// (web/test/docs-page.css, under the strict CSP): its height comes from a fixed rule (never from
// the embedded page's own height), the same at every load, and fits a laptop screen with the step
// controls inside; every embed carries a caption (the scenario's title, the bug mode when one is
// on, a link to the same state in the full explainer); an unknown scenario or step shows a notice
// in the embed and comes back as explainer-error; the first explainer-state is the step asked for.
// Where the element shows a built-in under its own bug mode, its page opens without the engine
// (harness holdEngine): the frame's first view, and an attribute's open and goto, are the
// built-in's stored views, and what is checked is the element's height, layout and events. A
// bug mode not the built-in's own, and an unknown scenario or step (the engine's error), need the engine.
// Screenshots in web/test/artifacts/element-fit-*.png.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setupPrivate, CSP, assertServedPolicy, call } from "./page-helpers.mjs";
import { waitFirstView } from "./harness.mjs";
import { inView, requiredFor, settle } from "./stage-helpers.mjs";

let h;
before(async () => {
  const file = (name) => readFileSync(new URL(name, import.meta.url), "utf8");
  h = await setupPrivate({ extra: { "docs/docs-page.css": file("docs-page.css"), "docs/embed.html": file("docs-page.html") } });
  // the server sends this policy with every file: the element's frame and workers run under it
  await assertServedPolicy(h);
});
after(async () => { await h?.close(); });

const escape = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** A documentation page (docs-page.css's column) with one element of these attributes. */
function docsHTML(attrs) {
  const a = Object.entries(attrs).map(([k, v]) => ` ${k}="${escape(v)}"`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Backfilling a new operator (test fixture)</title>
<link rel="stylesheet" href="docs-page.css">
<script type="module" src="../web/element.js"></script>
</head>
<body>
<main class="doc">
  <h1>Backfilling a new operator</h1>
  <p>When you create a materialized view on top of existing data, the new operator first reads
  what is already there while live changes keep arriving. Step through it below.</p>
  <backfill-explainer id="ex"${a}></backfill-explainer>
  <p>If the upstream ends before the backfill finishes, the executor fails.</p>
</main>
</body>
</html>`;
}

/**
 * A fresh browser context on the docs page with one element (attrs), served under the CSP.
 * Records the element's explainer-state / explainer-error events and any CSP violation.
 */
async function openDocs(attrs, { viewport = { width: 1280, height: 800 }, colorScheme = "light", engine = true } = {}) {
  const page = await h.open("about:blank", { ready: false, viewport, colorScheme, engine });
  const origin = new URL(h.url).origin;
  // the page itself; the rest comes from the server as it is, with this policy (before())
  await page.route(`${origin}/docs/one.html`, (route) =>
    route.fulfill({ body: docsHTML(attrs), contentType: "text/html", headers: { "content-security-policy": CSP } }));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
    window.__events = [];
    for (const type of ["explainer-state", "explainer-error"]) {
      document.addEventListener(type, (e) => window.__events.push({ type, detail: e.detail }));
    }
  });
  await page.goto(`${origin}/docs/one.html`);
  return page;
}

/** The element's iframe's frame, once it is there and its engine is ready (opened without the engine: its first view). */
async function frameOf(page) {
  await page.locator("#ex iframe").waitFor({ state: "attached" });
  const frame = await (await page.locator("#ex iframe").elementHandle()).contentFrame();
  if (page.engineHeld) {
    await waitFirstView(frame);
    return frame;
  }
  await frame.waitForFunction(() => window.explainer && window.explainer.ready);
  await frame.evaluate(() => window.explainer.ready);
  return frame;
}

/** Wait for an explainer-state whose detail has the fields of want. */
async function waitState(page, want) {
  try {
    await page.waitForFunction((want) => window.__events.some((e) => e.type === "explainer-state" &&
      Object.entries(want).every(([k, v]) => e.detail[k] === v)), want, { timeout: 20000 });
  } catch {
    throw new Error(`no explainer-state with ${JSON.stringify(want)}; events: ${JSON.stringify(await page.evaluate(() => window.__events))}`);
  }
}

async function waitCount(frame, n) {
  await frame.waitForFunction((n) => new RegExp(`^step ${n} / `).test(document.querySelector('[data-testid="step-count"]').textContent), n);
}

/** Two animation frames of the page and of the frame (layout and paint done). */
async function frames(page, frame) {
  const two = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await frame.evaluate(two);
  await page.evaluate(two);
}

/**
 * With the element's top at the top of the screen: the element's height, and where the step
 * controls are on the screen (their box in the page's coordinates) and whether they show inside
 * the frame (wholly within its viewport, not covered at their middle).
 */
async function measure(page, frame) {
  await page.evaluate(() => document.getElementById("ex").scrollIntoView({ block: "start" }));
  await frames(page, frame);
  const outer = await page.evaluate(() => {
    const el = document.getElementById("ex").getBoundingClientRect();
    const f = document.querySelector("#ex iframe").getBoundingClientRect();
    return { height: el.height, frameTop: f.top, frameHeight: f.height, vh: innerHeight };
  });
  const inner = await frame.evaluate(() => {
    const c = document.getElementById("controls");
    const b = c.getBoundingClientRect();
    const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return { top: b.top, bottom: b.bottom, inside: b.top >= 0 && b.bottom <= innerHeight + 0.5 && b.height > 0, hit: !!at && c.contains(at) };
  });
  return { ...outer, controls: { top: outer.frameTop + inner.top, bottom: outer.frameTop + inner.bottom, inside: inner.inside, hit: inner.hit } };
}

// How many loads: the element's height once followed the embedded page's own (explainer:resize),
// which in the one-screen layout fed back on itself to 880 px, taller than the screen, at every
// load: one load's "≤ 800 px" catches that. The heights compared across loads guard against a
// height that depends on the order a load's parts arrive in (the element's rule, the frame's first
// view, the engine); three loads of each scenario, each a new page in a context of the harness's
// pool (harness.mjs), give each scenario two chances to differ. (It was six loads each, each in a
// new browser context, which cost ~3 times a pooled one: ~70 s of CPU for this test alone.)
const LOADS = 3;

test(`A docs page with one element at 1280×800: ${LOADS} fresh loads each of happy-path step 10 and fatal-upstream-end step 10 give heights equal within 8 px and ≤ 800 px, controls visible inside`, async (t) => {
  const heights = {};
  const problems = [];
  for (const scenario of ["happy-path", "fatal-upstream-end"]) {
    heights[scenario] = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await openDocs({ scenario, step: "10" }, { engine: false });
      const frame = await frameOf(page);
      await waitState(page, { scenario, step: 10 });
      await waitCount(frame, 10);
      await settle(frame);
      const m = await measure(page, frame);
      heights[scenario].push(Math.round(m.height));
      if (m.height > 800) problems.push(`${scenario} load ${i + 1}: ${m.height}px tall`);
      if (!(m.controls.top >= 0 && m.controls.bottom <= m.vh)) problems.push(`${scenario} load ${i + 1}: the controls at ${Math.round(m.controls.top)}–${Math.round(m.controls.bottom)} px, off the 800 px screen`);
      if (!m.controls.inside || !m.controls.hit) problems.push(`${scenario} load ${i + 1}: the controls are not visible inside the frame (${JSON.stringify(m.controls)})`);
      assert.deepEqual(await page.evaluate(() => window.__violations), []);
      h.assertNoErrors(page);
      await page.close();
    }
  }
  t.diagnostic(`heights: ${JSON.stringify(heights)}`);
  for (const [scenario, hs] of Object.entries(heights)) {
    if (Math.max(...hs) - Math.min(...hs) > 8) problems.push(`${scenario}: heights ${hs.join(", ")} differ by more than 8 px`);
  }
  assert.deepEqual(problems, []);
});

test("the caption: the scenario's title, the bug mode, and a link to the same state in the full explainer", async () => {
  const page = await openDocs({ scenario: "happy-path", step: "3", bug: "no-state-write" });
  const frame = await frameOf(page);
  await waitState(page, { scenario: "happy-path", step: 3 });
  await waitCount(frame, 3);
  const view = await frame.evaluate(() => window.explainer.view());
  const caption = frame.locator('[data-testid="embed-caption"]');
  assert.equal(await caption.isVisible(), true, "a caption");
  assert.equal(await frame.locator('[data-testid="embed-title"]').textContent(), view.title);
  const bug = frame.locator('[data-testid="embed-bug"]');
  assert.equal(await bug.isVisible(), true, "the bug mode is shown");
  assert.match(await bug.textContent(), /bug mode/i);
  assert.match(await bug.textContent(), /no-state-write/);
  assert.equal(view.release, "v3.1", "the default release");
  assert.match(await frame.locator('[data-testid="embed-release"]').textContent(), /v3\.1/, "the caption names the view's release");
  // Nothing covers the caption's parts; they lie inside the frame.
  const hidden = await frame.evaluate(() => [...document.querySelectorAll('[data-testid="embed-caption"] > *')].filter((e) => {
    const b = e.getBoundingClientRect();
    const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return !(b.width > 0 && b.left >= 0 && b.right <= innerWidth && b.top >= 0 && b.bottom <= innerHeight && at && e.contains(at));
  }).map((e) => e.dataset.testid || e.className));
  assert.deepEqual(hidden, []);
  const link = frame.locator('[data-testid="embed-open"]');
  assert.match(await link.textContent(), /Open in the full explainer/);
  assert.equal(await link.getAttribute("target"), "_blank");
  assert.match(await link.getAttribute("rel"), /noopener/);
  const full = new URL("index.html#scenario=happy-path&step=3&bug=no-state-write", h.url).href;
  assert.equal(await link.evaluate((a) => a.href), full);
  // It follows the step.
  await call(frame, "goto", 5);
  await waitCount(frame, 5);
  assert.equal(await link.evaluate((a) => a.href), full.replace("step=3", "step=5"));
  // Opened, it shows that state (a full page: no embed).
  const [popup] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
  await popup.waitForFunction(() => window.explainer && window.explainer.ready);
  await popup.waitForFunction(() => /^step 5 \//.test(document.querySelector('[data-testid="step-count"]').textContent));
  assert.equal(await popup.evaluate(() => document.documentElement.classList.contains("embed")), false);
  assert.equal(await popup.locator('[data-testid="bug-banner"]').isVisible(), true);
  // Without a bug mode, no tag.
  await call(frame, "bug", "none");
  await frame.waitForFunction(() => !document.querySelector('[data-testid="embed-bug"]')?.getClientRects().length);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
  await page.close();
});

test("an unknown scenario or step: a notice in the embed and explainer-error, never another scenario silently", async () => {
  for (const [attrs, want] of [
    [{ scenario: "no-such-scenario" }, /no-such-scenario/],
    [{ scenario: "happy-path", step: "9999" }, /9999/],
  ]) {
    const page = await openDocs(attrs);
    const frame = await frameOf(page);
    await page.waitForFunction(() => window.__events.some((e) => e.type === "explainer-error"), null, { timeout: 20000 });
    const err = await page.evaluate(() => window.__events.find((e) => e.type === "explainer-error").detail);
    assert.match(err.message, want);
    const notice = frame.locator('[data-testid="embed-notice"]');
    await notice.waitFor({ state: "visible" });
    assert.match(await notice.textContent(), want);
    const covered = await notice.evaluate((n) => {
      const b = n.getBoundingClientRect();
      const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
      return !(b.top >= 0 && b.bottom <= innerHeight && at && n.contains(at));
    });
    assert.equal(covered, false, "the notice is in view, not covered");
    // Once the host asks for something that works, the notice goes.
    await page.evaluate(() => { const e = document.getElementById("ex"); e.setAttribute("scenario", "fatal-upstream-end"); e.setAttribute("step", "4"); });
    await waitState(page, { scenario: "fatal-upstream-end", step: 4 });
    await notice.waitFor({ state: "hidden" });
    h.assertNoErrors(page);
    await page.close();
  }
});

test("the first explainer-state is the step the host asked for (no step 0 on the way)", async () => {
  for (const [attrs, want] of [
    [{ scenario: "happy-path", step: "10" }, { scenario: "happy-path", step: 10 }],
    [{ scenario: "fatal-upstream-end", step: "7", bug: "no-state-write" }, { scenario: "fatal-upstream-end", step: 7 }],
    [{ scenario: "happy-path" }, { scenario: "happy-path", step: 0 }],
  ]) {
    const page = await openDocs(attrs, { engine: !!attrs.bug }); // (a bug mode not the built-in's own: the engine's)
    await waitState(page, want);
    const states = await page.evaluate(() => window.__events.filter((e) => e.type === "explainer-state").map((e) => ({ scenario: e.detail.scenario, step: e.detail.step })));
    assert.deepEqual(states[0], want, `states: ${JSON.stringify(states)}`);
    await page.close();
  }
  // Moved by its attributes to another scenario and step: one state, the one asked for.
  const page = await openDocs({ scenario: "happy-path", step: "3" }, { engine: false });
  await waitState(page, { scenario: "happy-path", step: 3 });
  const n = await page.evaluate(() => window.__events.length);
  await page.evaluate(() => { const e = document.getElementById("ex"); e.setAttribute("scenario", "fatal-upstream-end"); e.setAttribute("step", "8"); });
  await waitState(page, { scenario: "fatal-upstream-end", step: 8 });
  const after = await page.evaluate((n) => window.__events.slice(n).map((e) => [e.type, e.detail.scenario, e.detail.step]), n);
  assert.deepEqual(after[0], ["explainer-state", "fatal-upstream-end", 8], `events: ${JSON.stringify(after)}`);
  await page.close();
});

test("look: the element at 1280×800 (light and dark, a bug mode on), a 700×640 iframe and a 375×740 phone", async () => {
  const problems = [];
  for (const colorScheme of ["light", "dark"]) {
    const page = await openDocs({ scenario: "fatal-upstream-end", step: "10", bug: "no-state-write" }, { colorScheme });
    const frame = await frameOf(page);
    await waitState(page, { step: 10 });
    await waitCount(frame, 10);
    await settle(frame);
    await frames(page, frame);
    for (const p of await inView(frame, await requiredFor(frame))) problems.push(`1280×800 ${colorScheme}: ${p}`);
    const m = await measure(page, frame); // (the element's top at the screen's)
    if (!m.controls.inside || !m.controls.hit || m.controls.bottom > 800) problems.push(`1280×800 ${colorScheme}: the controls are not in view (${JSON.stringify(m.controls)})`);
    await h.screenshot(page, `element-fit-1280-${colorScheme}`, { fullPage: false });
    await page.close();
  }
  {
    const page = await h.open("docs/embed.html", { ready: false, viewport: { width: 1000, height: 900 } });
    await page.evaluate(() => { document.getElementById("ex").src = "../index.html?embed=1#scenario=happy-path&step=10&bug=no-state-write"; });
    const frame = await (await page.locator("#ex").elementHandle()).contentFrame();
    await frame.waitForFunction(() => window.explainer && window.explainer.ready);
    await waitCount(frame, 10);
    await settle(frame);
    for (const p of await inView(frame, await requiredFor(frame))) problems.push(`700×640: ${p}`);
    await h.screenshot(page, "element-fit-700x640", { fullPage: false });
    await page.close();
  }
  {
    const page = await openDocs({ scenario: "happy-path", step: "6" }, { viewport: { width: 375, height: 740 }, engine: false });
    const frame = await frameOf(page);
    await waitState(page, { step: 6 });
    await waitCount(frame, 6);
    await settle(frame);
    const m = await measure(page, frame);
    if (m.height > 740) problems.push(`375×740: ${m.height}px tall`);
    if (!m.controls.inside || !m.controls.hit) problems.push(`375×740: the controls are not visible inside the frame (${JSON.stringify(m.controls)})`);
    await h.screenshot(page, "element-fit-375", { fullPage: false });
    await page.close();
  }
  assert.deepEqual(problems, []);
});
