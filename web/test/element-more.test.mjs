// element-more.test.mjs — <backfill-explainer> beyond element.test.mjs: the `theme` attribute
// (and ?embed=1&theme=) against the reader's system scheme; a visible message with a link when the
// page cannot be reached or its engine cannot start (the wasm unreachable); `step` set while the
// embedded page still starts is not lost; a move in the document opens it again at the step it
// showed; invalid attributes are refused with an explainer-error naming the attribute and a
// console warning, never a collapsed frame.
// Its pages open without the engine (harness holdEngine): the elements show built-ins' steps, stored
// views, and what is checked is the element's attributes, events and frame; but the page whose
// engine is unreachable, whose fetch of it must fail.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, welcomed } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** A docs page at /docs/x.html with `body`, the element module loaded; events and warnings kept. */
async function docs(body, { colorScheme = "light", routes = async () => {}, engine = false } = {}) {
  const page = await h.open("about:blank", { engine, ...welcomed(h), ready: false, colorScheme, viewport: { width: 1100, height: 900 } });
  const origin = new URL(h.url).origin;
  await routes(page, origin);
  await page.route(`${origin}/docs/x.html`, (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="en"><head><title>docs</title><script type="module" src="../web/element.js"></script></head><body>${body}</body></html>`,
  }));
  page.warnings = [];
  page.on("console", (m) => { if (m.type() === "warning") page.warnings.push(m.text()); });
  await page.addInitScript(() => {
    window.__events = [];
    for (const type of ["explainer-state", "explainer-error"]) {
      document.addEventListener(type, (e) => window.__events.push({ type, id: e.target.id, detail: e.detail }));
    }
  });
  await page.goto(`${origin}/docs/x.html`);
  return page;
}

const waitState = (page, id, want, timeout = 30000) => page.waitForFunction(([id, want]) => {
  const d = [...window.__events].reverse().find((e) => e.type === "explainer-state" && e.id === id)?.detail;
  return d && Object.entries(want).every(([k, v]) => d[k] === v);
}, [id, want], { timeout });
const frameBg = (page, id) => page.frameLocator(`#${id} iframe`).locator("body").evaluate((b) => getComputedStyle(b).backgroundColor);
const dark = (rgb) => { const [r, g, b] = rgb.match(/\d+/g).map(Number); return r + g + b < 150; };

test("theme: dark on a light system, light on a dark one; auto follows the system; a change keeps the step", async () => {
  const page = await docs('<backfill-explainer id="d" scenario="happy-path" step="4" theme="dark"></backfill-explainer>');
  await waitState(page, "d", { step: 4 });
  assert.match(await page.evaluate(() => document.querySelector("#d iframe").src), /\?embed=1&theme=dark#/);
  assert.ok(dark(await frameBg(page, "d")), "dark");
  await h.screenshot(page, "element-theme-dark", { fullPage: false });
  await page.evaluate(() => document.getElementById("d").setAttribute("theme", "light"));
  await page.waitForFunction(() => /theme=light/.test(document.querySelector("#d iframe")?.src || ""));
  await waitState(page, "d", { step: 4 });
  assert.ok(!dark(await frameBg(page, "d")), "light");
  h.assertNoErrors(page);

  const night = await docs('<backfill-explainer id="l" scenario="happy-path" step="2" theme="light"></backfill-explainer><backfill-explainer id="a" scenario="happy-path" step="2" theme="auto" height="300"></backfill-explainer>', { colorScheme: "dark" });
  await waitState(night, "l", { step: 2 });
  await waitState(night, "a", { step: 2 });
  assert.ok(!dark(await frameBg(night, "l")), "light on a dark system");
  assert.ok(dark(await frameBg(night, "a")), "auto: the system's dark");
  h.assertNoErrors(night);
});

test("the wasm unreachable: a message with a link to the page, not a blank box", async () => {
  const page = await docs('<backfill-explainer id="w" scenario="happy-path" step="3"></backfill-explainer>', {
    routes: (page, origin) => page.route(`${origin}/**/*.wasm`, (r) => r.abort()), engine: true, // (its fetch fails, not held)
  });
  // the first view comes from the stored views, without the engine; the engine loads when the
  // reader acts on the frame, and then its failure is the message
  await waitState(page, "w", { step: 3 });
  const box = page.locator('#w [data-testid="explainer-fallback"]');
  assert.equal(await box.count(), 0, "no message while the stored first view shows");
  await page.locator("#w iframe").click();
  await box.waitFor({ timeout: 60000 });
  assert.match(await box.innerText(), /could not load here: its engine could not start/);
  const href = await box.locator("a").getAttribute("href");
  assert.match(href, /\/index\.html#scenario=happy-path&step=3$/);
  assert.ok((await box.boundingBox()).height >= 100, "the message is visible");
  await h.screenshot(page, "element-fallback-wasm", { fullPage: false });
  assert.ok(await page.evaluate(() => window.__events.some((e) => e.type === "explainer-error" && /could not load/.test(e.detail.message))));
});

test("the page unreachable: the same message", async () => {
  const page = await docs('<backfill-explainer id="p" scenario="happy-path"></backfill-explainer>', {
    routes: (page, origin) => page.route(`${origin}/index.html?embed=1*`, (r) => r.fulfill({ status: 404, contentType: "text/plain", body: "404 page not found" })),
  });
  const box = page.locator('#p [data-testid="explainer-fallback"]');
  await box.waitFor({ timeout: 60000 });
  assert.match(await box.innerText(), /could not load here: its page could not be reached/);
});

test("step set while the embedded page starts is not lost; a move keeps the step it showed", async () => {
  const page = await docs('<div id="one"></div><div id="two"></div>');
  await page.evaluate(() => {
    const e = document.createElement("backfill-explainer");
    e.id = "s"; e.setAttribute("scenario", "happy-path"); e.setAttribute("step", "3");
    document.getElementById("one").append(e);
    setTimeout(() => e.setAttribute("step", "6"), 100);
    setTimeout(() => e.setAttribute("step", "7"), 300);
  });
  await waitState(page, "s", { step: 7 });
  await page.waitForTimeout(300);
  const last = await page.evaluate(() => [...window.__events].reverse().find((e) => e.type === "explainer-state").detail.step);
  assert.equal(last, 7, "the last step set");
  assert.equal(await page.evaluate(() => window.__events.some((e) => e.type === "explainer-error")), false, "no error");
  // the reader steps inside to 5; the docs page moves the element
  await page.frameLocator("#s iframe").locator("html").evaluate(() => window.explainer.goto(5));
  await waitState(page, "s", { step: 5 });
  // (the events forgotten in the move's own task: the page opened again from stored views may say
  // its state before a later evaluate could run)
  await page.evaluate(() => { window.__events.length = 0; document.getElementById("two").append(document.getElementById("s")); });
  await page.waitForFunction(() => document.querySelector("#two #s iframe"));
  await waitState(page, "s", { step: 5 });
  assert.match(await page.evaluate(() => document.querySelector("#s iframe").src), /step=5/);
  h.assertNoErrors(page);
});

test("invalid attributes are refused by name: an explainer-error and a console warning, never a collapsed frame", async () => {
  const page = await docs(['-1', '1e3', ' 4'].map((s, i) => `<backfill-explainer id="st${i}" scenario="happy-path" step="${s}" height="300"></backfill-explainer>`).join("")
    + '<backfill-explainer id="h0" scenario="happy-path" height="1e9"></backfill-explainer><backfill-explainer id="h1" scenario="happy-path" height="banana"></backfill-explainer><backfill-explainer id="t0" scenario="happy-path" theme="purple" height="300"></backfill-explainer>');
  const errors = await page.evaluate(() => window.__events.filter((e) => e.type === "explainer-error").map((e) => ({ id: e.id, attribute: e.detail.attribute, message: e.detail.message })));
  const by = Object.fromEntries(errors.map((e) => [e.id, e]));
  for (const id of ["st0", "st1", "st2"]) assert.equal(by[id]?.attribute, "step", `${id}: ${JSON.stringify(errors)}`);
  for (const id of ["h0", "h1"]) assert.equal(by[id]?.attribute, "height", id);
  assert.equal(by.t0?.attribute, "theme");
  assert.match(by.st1.message, /step "1e3"/);
  assert.ok(page.warnings.some((w) => /height "banana"/.test(w)), page.warnings.join("\n"));
  assert.ok(page.warnings.some((w) => /step " 4"/.test(w)));
  // the frames keep a height of their own: the rule's, not a collapsed 150 px
  for (const id of ["h0", "h1"]) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => document.querySelector(`#${id} iframe`), id);
    const hgt = await page.evaluate((id) => document.querySelector(`#${id} iframe`).getBoundingClientRect().height, id);
    assert.equal(hgt, 720, `${id}: ${hgt}`);
  }
  // a refused step opens at the scenario's start
  await page.locator("#st1").scrollIntoViewIfNeeded();
  await waitState(page, "st1", { step: 0 });
  h.assertNoErrors(page);
});
