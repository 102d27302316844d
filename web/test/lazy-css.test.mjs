// lazy-css.test.mjs — the first view fetches one stylesheet, style.css; each dialog's rules are a
// sheet of their own, fetched with its module (web/ui/sheet.js), and the dialog opens only once
// they apply: at the moment it is open, its own rules are in force (no unstyled flash). In the
// offline file the sheets are in the file, switched on at the dialog's first use.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DIST } from "./harness.mjs";
import { setupPrivate, welcomed, byTestId } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const VIEWPORT = { width: 1280, height: 800 };
/** a dialog's sheet: any stylesheet of the site but style.css */
const DIALOG_SHEET = /\/web\/(?!style\.css)[^?#]*\.css([?#]|$)/;

/** Each dialog: how to open it, the sheets it needs, and a rule of its own sheet ([selector, property, value]). */
const DIALOGS = [
  { name: "help", open: (p) => p.click("#help-btn"), sheets: ["help.css"], probe: ["#help .keys", "display", "grid"] },
  { name: "editor", open: (p) => p.click("#open-btn"), sheets: ["editor.css"], probe: ["#editor-dialog .code-wrap", "display", "grid"] },
  { name: "inject", open: (p) => p.click("#inject-btn"), sheets: ["inject.css"], probe: ["#inject-dialog .inject-fields", "display", "flex"] },
  { name: "explorer", open: (p) => byTestId(p, "explore-btn").click(), sheets: ["explorer.css"], probe: ["#explorer-dialog", "width", "900px"] },
  {
    name: "compare", sheets: ["compare.css"], probe: ["#compare-dialog .cmp-pick", "display", "flex"],
    open: async (p) => { await byTestId(p, "bug-menu").click(); await byTestId(p, "compare-bug-btn").click(); },
  },
  { name: "diagnose", open: (p) => byTestId(p, "diagnose-btn").click(), sheets: ["diagnose.css"], probe: ["#diagnose-dialog .diagnose-row", "display", "flex"] },
  // (explorer.css is in from the explorer: the Scale panel shows its verdict and spinner)
  { name: "scale", open: (p) => byTestId(p, "scale-btn").click(), sheets: ["scale.css", "uPlot.min.css"], probe: ["#scale-dialog .scale-form", "display", "flex"] },
];

/**
 * Records, in the page, each dialog at the moment it opens (a mutation observer's callback, before
 * anything is painted): its id and the computed value of each probe that matches inside it.
 */
function recordOpens(probes) {
  window.__opened = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const d = r.target;
      if (d.localName !== "dialog" || !d.open || r.oldValue !== null) continue;
      const seen = {};
      for (const [sel, prop] of probes) {
        const el = document.querySelector(sel);
        if (el && (el === d || d.contains(el))) seen[sel] = getComputedStyle(el)[prop];
      }
      window.__opened.push({ id: d.id, seen });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["open"], attributeOldValue: true });
}

/** Records, in the page, the stylesheets in force when the first-view mark is made (app.js). */
function watchFirstView() {
  const mark = performance.mark.bind(performance);
  performance.mark = function (name, ...rest) {
    if (name === "explainer:first-view") {
      window.__atFirstView = {
        links: [...document.styleSheets].filter((s) => s.href).map((s) => new URL(s.href).pathname),
        on: [...document.querySelectorAll("style[data-sheet]")].filter((s) => s.media !== "not all").map((s) => s.dataset.sheet),
        off: document.querySelectorAll('style[data-sheet][media="not all"]').length,
      };
    }
    return mark(name, ...rest);
  };
}

const firstView = (page) => page.waitForFunction(() => performance.getEntriesByName("explainer:first-view").length > 0, null, { timeout: 20000 });
const cssBefore = (page, mark) => page.evaluate((mark) => {
  const at = performance.getEntriesByName(mark)[0]?.startTime ?? Infinity;
  return performance.getEntriesByType("resource").filter((e) => /\.css([?#]|$)/.test(e.name) && e.startTime < at).map((e) => new URL(e.name).pathname);
}, mark);

test("the first view fetches style.css and no dialog's sheet: a deep link, a first visit, an embed", async () => {
  for (const [path, opts] of [
    ["index.html#scenario=happy-path&step=3", welcomed(h)],
    ["index.html", {}], // a first visit: the first-visit card's rules are in style.css
    ["index.html?embed=1#scenario=happy-path&step=3", welcomed(h)],
  ]) {
    const page = await h.open("about:blank", { ready: false, viewport: VIEWPORT, ...opts });
    await page.addInitScript(watchFirstView);
    await page.goto(new URL(path, h.url).href);
    await firstView(page);
    assert.deepEqual(await cssBefore(page, "explainer:first-view"), ["/web/style.css"], path);
    assert.deepEqual(await page.evaluate(() => window.__atFirstView.links), ["/web/style.css"], `${path}: the sheets at the first view`);
    if (path.includes("embed=1")) {
      // an embed opens no dialog: it never fetches a dialog's sheet
      await page.waitForTimeout(300);
      assert.deepEqual((await cssBefore(page, "no such mark")).filter((p) => DIALOG_SHEET.test(p)), [], path);
    }
    h.assertNoErrors(page);
    await page.close(); // (its context serves the next: harness.mjs)
  }
});

test("each dialog opens only once its sheet applies, its rules in force at the moment it is open", async () => {
  const page = await h.open("about:blank", { ready: false, viewport: VIEWPORT, ...welcomed(h) });
  // every dialog's sheet held back until the test lets it through, one dialog at a time
  const released = new Set();
  const waiting = new Map(); // file name → [resolve]
  const release = (name) => { released.add(name); for (const r of waiting.get(name) || []) r(); waiting.delete(name); };
  await page.route(DIALOG_SHEET, async (route) => {
    const name = new URL(route.request().url()).pathname.split("/").pop();
    if (!released.has(name)) await new Promise((r) => waiting.set(name, [...(waiting.get(name) || []), r]));
    await route.continue().catch(() => {});
  });
  await page.addInitScript(recordOpens, DIALOGS.map((d) => d.probe));
  await page.goto(new URL("index.html#scenario=happy-path&step=3", h.url).href);
  await page.waitForFunction(() => performance.getEntriesByName("explainer:interactive").length > 0, null, { timeout: 60000 });
  await byTestId(page, "scale-btn").waitFor();

  for (const d of DIALOGS) {
    const before = await page.evaluate(() => window.__opened.length);
    await d.open(page);
    await page.waitForTimeout(400);
    assert.equal(await page.evaluate(() => [...document.querySelectorAll("dialog")].filter((x) => x.open).length), 0,
      `${d.name}: no dialog open while its sheet is held back`);
    for (const s of d.sheets) release(s);
    await page.waitForFunction((n) => window.__opened.length > n, before, { timeout: 20000 });
    const opened = (await page.evaluate(() => window.__opened)).slice(before);
    const [sel, prop, want] = d.probe;
    assert.equal(opened[0].seen[sel], want, `${d.name}: ${sel} ${prop} at the moment it opened (${JSON.stringify(opened)})`);
    const sheets = await page.evaluate(() => [...document.styleSheets].map((s) => s.href && s.href.split("/").pop()));
    for (const s of d.sheets) assert.ok(sheets.includes(s), `${d.name}: ${s} in the page (${sheets})`);
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => ![...document.querySelectorAll("dialog")].some((x) => x.open));
  }
  // one <link> a sheet, however often its dialog opened or was fetched ahead
  const links = await page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.href.split("/").pop()));
  assert.equal(new Set(links).size, links.length, `links: ${links}`);
  h.assertNoErrors(page);
});

test("a lesson's plan opens once its sheet applies", async () => {
  const page = await h.open("about:blank", { ready: false, viewport: VIEWPORT, ...welcomed(h) });
  let let_through;
  const gate = new Promise((r) => { let_through = r; });
  await page.route(/lesson-plan\.css/, async (route) => { await gate; await route.continue().catch(() => {}); });
  await page.addInitScript(recordOpens, [["#lesson-plan", "width", ""]]);
  await page.goto(new URL("index.html#lesson=workshop&section=1", h.url).href);
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false, null, { timeout: 60000 });
  await byTestId(page, "lesson-count").waitFor();
  await byTestId(page, "lesson-plan-btn").click();
  await page.waitForTimeout(400);
  assert.equal(await page.evaluate(() => window.__opened.length), 0, "not open while its sheet is held back");
  let_through();
  await page.waitForFunction(() => window.__opened.length > 0, null, { timeout: 20000 });
  assert.equal((await page.evaluate(() => window.__opened))[0].seen["#lesson-plan"], "900px", "its width (lesson-plan.css) at the moment it opened");
  h.assertNoErrors(page);
});

test("the offline file: each dialog's sheet is in the file, off at the first view, on when its dialog opens", async () => {
  const page = await h.open("about:blank", { ready: false, viewport: VIEWPORT });
  await page.addInitScript(watchFirstView);
  await page.addInitScript(recordOpens, [["#editor-dialog .code-wrap", "display"]]);
  await page.goto(pathToFileURL(join(DIST, "explainer-offline.html")).href);
  await page.waitForFunction(() => performance.getEntriesByName("explainer:interactive").length > 0, null, { timeout: 60000 });
  await page.keyboard.press("Escape"); // the first-visit card
  const at = await page.evaluate(() => window.__atFirstView);
  assert.deepEqual(at.on, [], "no dialog's sheet on at the first view");
  assert.ok(at.off >= 9, `the dialogs' sheets in the file: ${JSON.stringify(at)}`);
  assert.deepEqual(at.links, [], "nothing linked: all is in the file");
  await page.click("#open-btn");
  await page.waitForFunction(() => window.__opened.some((o) => o.id === "editor-dialog"), null, { timeout: 20000 });
  const opened = (await page.evaluate(() => window.__opened)).find((o) => o.id === "editor-dialog");
  assert.equal(opened.seen["#editor-dialog .code-wrap"], "grid", "editor.css in force when the editor opened");
  assert.equal(await page.evaluate(() => document.querySelector('style[data-sheet="web/tools/editor.css"]').media), "all");
  h.assertNoErrors(page);
});
