// element.test.mjs — <backfill-explainer> (web/element.js) in a documentation page with three of
// them, two far below the fold: only the visible one loads an iframe and the wasm until the
// reader scrolls; its height is the element's rule unless `height` (or the page's CSS) sets it;
// changing `step`, `scenario` and `bug` moves the embedded page; the page's state and errors
// arrive as `explainer-state` / `explainer-error` DOM events. The docs page runs under the strict CSP.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";
import { setupPrivate, welcomed, CSP, assertServedPolicy } from "./page-helpers.mjs";

const FIXTURES = join(ROOT, "web/test/fixtures");

let h;
before(async () => {
  h = await setupPrivate();
  // the server sends this policy with every file: the element's frame and workers run under it
  await assertServedPolicy(h);
});
after(async () => { await h?.close(); });

async function openDocs() {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false, viewport: { width: 1100, height: 800 } });
  const origin = new URL(h.url).origin;
  const wasm = [];
  page.on("request", (r) => { if (/\/explainer\.wasm$/.test(new URL(r.url()).pathname)) wasm.push(r.url()); });
  // the docs page and its stylesheet; the rest comes from the server as it is, with this policy (before())
  await page.route(`${origin}/docs/embed-docs.*`, async (route) => {
    const m = /^\/docs\/(embed-docs\.(html|css))$/.exec(new URL(route.request().url()).pathname);
    if (!m) return route.continue();
    route.fulfill({ body: readFileSync(join(FIXTURES, m[1])), contentType: m[2] === "html" ? "text/html" : "text/css", headers: { "content-security-policy": CSP } });
  });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
    window.__events = [];
    for (const type of ["explainer-state", "explainer-error"]) {
      document.addEventListener(type, (e) => window.__events.push({ type, id: e.target.id, detail: e.detail }));
    }
  });
  await page.goto(`${origin}/docs/embed-docs.html`);
  return { page, wasm };
}

const iframes = (page) => page.evaluate(() => [...document.querySelectorAll("backfill-explainer")].map((e) => (e.querySelector("iframe") ? e.id : null)).filter(Boolean));
const lastState = (page, id) => page.evaluate((id) => [...window.__events].reverse().find((e) => e.type === "explainer-state" && e.id === id)?.detail ?? null, id);
/** Wait for an explainer-state event of element id whose detail has the fields of want. */
async function waitState(page, id, want) {
  try {
    await page.waitForFunction(([id, want]) => {
      const d = [...window.__events].reverse().find((e) => e.type === "explainer-state" && e.id === id)?.detail;
      return d && Object.entries(want).every(([k, v]) => d[k] === v);
    }, [id, want], { timeout: 20000 });
  } catch {
    throw new Error(`${id}: no explainer-state with ${JSON.stringify(want)}; last: ${JSON.stringify(await lastState(page, id))}`);
  }
}

test("three elements: only the one in view loads its page until the reader scrolls to the others; the wasm only where the stored views cannot show it", async () => {
  const { page, wasm } = await openDocs();
  await waitState(page, "first", { step: 9, scenario: "fatal-upstream-end" });
  await page.waitForTimeout(500); // (time for anything else that would load, to load)
  assert.deepEqual(await iframes(page), ["first"], "no iframe for the elements below the fold");
  assert.equal(wasm.length, 0, `no wasm request (the first view is the stored views'): ${wasm.join(", ")}`);
  const f = await page.evaluate(() => document.querySelector("#first iframe").src);
  assert.match(f, /\/index\.html\?embed=1#scenario=fatal-upstream-end&step=9$/);

  // Without a height attribute the height comes from the element's rule (element.js): 720 px for
  // an element at least 600 px wide, within the 800 px screen; the page inside is one screen.
  assert.equal(await page.evaluate(() => document.querySelector("#first iframe").getBoundingClientRect().height), 720);
  assert.equal(await page.frameLocator("#first iframe").locator("html").evaluate(() => document.documentElement.scrollHeight <= innerHeight), true);

  await page.locator("#second").scrollIntoViewIfNeeded();
  await waitState(page, "second", { step: 3 });
  assert.deepEqual(await iframes(page), ["first", "second"]);
  assert.equal(wasm.length, 0);
  assert.equal(await page.evaluate(() => document.querySelector("#second iframe").getBoundingClientRect().height), 420, "height fixes it");

  await page.locator("#third").scrollIntoViewIfNeeded();
  await waitState(page, "third", { scenario: "happy-path" });
  // (happy-path under bug mode no-state-write is not among the stored views: that frame's engine shows it)
  assert.equal(wasm.length, 1);
  const bugBanner = await page.frameLocator("#third iframe").locator('[data-testid="bug-banner"]').isHidden();
  assert.equal(bugBanner, true, "the embed hides the bug banner");
  const bug = await page.frameLocator("#third iframe").locator("html").evaluate(() => window.explainer.state().then((s) => s.bug?.name ?? s.bug));
  assert.equal(bug, "no-state-write", "bug= reaches the embedded page");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
});

test("attributes move the embedded page; state and errors arrive as DOM events", async () => {
  const { page, wasm } = await openDocs();
  await waitState(page, "first", { step: 9 });
  await page.evaluate(() => document.getElementById("first").setAttribute("step", "4"));
  await waitState(page, "first", { step: 4, scenario: "fatal-upstream-end" });
  await page.evaluate(() => { const e = document.getElementById("first"); e.setAttribute("scenario", "happy-path"); e.setAttribute("step", "6"); });
  await waitState(page, "first", { step: 6, scenario: "happy-path" });

  await page.evaluate(() => document.getElementById("first").setAttribute("step", "9999"));
  // (a step past the end is the engine's to refuse: the frame loads it first)
  await page.waitForFunction(() => window.__events.some((e) => e.type === "explainer-error" && e.id === "first"), null, { timeout: 60000 });
  const err = await page.evaluate(() => window.__events.find((e) => e.type === "explainer-error").detail);
  assert.equal(err.type, "explainer:error");
  assert.deepEqual(err.request, { type: "explainer:goto", step: 9999 });
  assert.ok(err.message.length > 0);

  await page.evaluate(() => document.getElementById("first").setAttribute("scenario", "no-such-scenario"));
  await page.waitForFunction(() => window.__events.some((e) => e.type === "explainer-error" && /no-such-scenario/.test(e.detail.message)), null, { timeout: 10000 });

  // bug= moves it by the hash: the same page (no reload, no second wasm), now in the bug mode.
  const before = wasm.length;
  await page.evaluate(() => { const e = document.getElementById("first"); e.setAttribute("scenario", "happy-path"); e.setAttribute("step", "2"); e.setAttribute("bug", "no-state-write"); });
  const frame = page.frameLocator("#first iframe").locator("html");
  await page.waitForFunction(() => {
    const w = document.querySelector("#first iframe").contentWindow;
    return w.explainer && w.location.hash.includes("bug=no-state-write");
  });
  await frame.evaluate(() => new Promise((r) => { const t = setInterval(async () => { const s = await window.explainer.state(); if ((s.bug?.name ?? s.bug) === "no-state-write") { clearInterval(t); r(); } }, 50); }));
  assert.equal(wasm.length, before, "no reload");

  // height: set, then removed (back to the rule); the page's CSS custom property sets it too.
  await page.evaluate(() => document.getElementById("first").setAttribute("height", "300"));
  assert.equal(await page.evaluate(() => document.querySelector("#first iframe").getBoundingClientRect().height), 300);
  await page.evaluate(() => document.getElementById("first").removeAttribute("height"));
  assert.equal(await page.evaluate(() => document.querySelector("#first iframe").getBoundingClientRect().height), 720);
  await page.evaluate(() => document.getElementById("first").classList.add("short"));
  assert.equal(await page.evaluate(() => document.querySelector("#first iframe").getBoundingClientRect().height), 560);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
});

test("an unknown scenario in the element's attributes comes back as explainer-error", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  const origin = new URL(h.url).origin;
  await page.route(`${origin}/docs/one.html`, (route) => route.fulfill({
    contentType: "text/html",
    body: '<!doctype html><html lang="en"><head><title>one</title><script type="module" src="../web/element.js"></script></head><body><backfill-explainer id="x" scenario="typo-scenario"></backfill-explainer></body></html>',
  }));
  await page.addInitScript(() => {
    window.__errors = [];
    document.addEventListener("explainer-error", (e) => window.__errors.push(e.detail));
  });
  await page.goto(`${origin}/docs/one.html`);
  await page.waitForFunction(() => window.__errors.length > 0, null, { timeout: 20000 });
  const e = await page.evaluate(() => window.__errors[0]);
  assert.match(e.message, /typo-scenario/);
  assert.equal(e.request, null);
  h.assertNoErrors(page);
});
