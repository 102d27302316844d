// glossary.test.mjs — written for outsiders: every term a newcomer meets is defined where it
// appears (a term button: hover, tap, or focus and Enter show the engine's definition; Esc, a
// tap elsewhere or the pointer leaving hide it) and in the help's glossary; the definitions are
// the engine's (`backfill glossary --json`), the page holds no copy; and nothing the page shows
// names the team's spec files or uses "the seed", "LP:" or "§".
// The touch test's page opens without the engine (harness holdEngine): the glossary's entries it
// decorates with are the stored index's, equal to the engine's (node/stored.test.mjs); the page the
// other tests share has the engine (its definitions are compared with `backfill glossary --json`,
// and the editor and inject open), and so have the two pages that compare decorating (bug modes,
// apply, load).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BACKFILL, ROOT } from "./harness.mjs";
import { openPage, waitStep, setupPrivate, welcomed, call, pageStarted } from "./page-helpers.mjs";

let h;
let page;
const GLOSSARY = JSON.parse(execFileSync(BACKFILL, ["glossary", "--json"], { encoding: "utf8" }));
const entryOf = (word) => GLOSSARY.find((e) => [e.term, ...(e.aliases || [])].some((w) => w.toLowerCase() === word.toLowerCase()));

before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=10");
});
after(async () => { await h?.close(); });

const tip = () => page.evaluate(() => {
  const t = document.querySelector('[data-testid="term-tip"]');
  return t && !t.hidden ? t.textContent.replace(/\s+/g, " ").trim() : null;
});

test("the terms a newcomer meets are defined on the page, with the engine's definitions", async () => {
  const NEWCOMER = ["vnode", "pos", "epoch", "barrier", "checkpoint", "committed", "durable", "chunk", "hidden",
    "watermark", "snapshot", "builder", "buffer", "state table", "progress table", "invariant", "upstream", "downstream"];
  const seen = new Map();
  for (const n of [1, 6, 8, 10, 12, 18]) {
    await call(page, "goto", n);
    await waitStep(page, n);
    for (const [word, term] of await page.locator('[data-testid="term"]').evaluateAll((bs) => bs.map((b) => [b.textContent, b.dataset.term]))) {
      seen.set(entryOf(term)?.term, word);
    }
  }
  for (const w of NEWCOMER) assert.ok(seen.has(entryOf(w).term), `"${w}" (${entryOf(w).term}) is defined somewhere on the page; seen: ${[...seen.keys()].join(", ")}`);
  // Each term button shows exactly its entry's definition.
  await call(page, "goto", 10);
  await waitStep(page, 10);
  const terms = page.locator("#stage [data-testid=term]");
  for (let i = 0; i < Math.min(await terms.count(), 8); i++) {
    const b = terms.nth(i);
    const e = entryOf(await b.getAttribute("data-term"));
    await b.hover();
    assert.equal(await tip(), `${e.term} ${e.definition}`);
  }
  h.assertNoErrors(page);
});

test("a term's definition shows on hover, on focus and Enter, and hides on leaving, Esc, or a second press", async () => {
  const b = page.locator("#stage [data-testid=term]", { hasText: /^State table$/ });
  const e = entryOf("state table");
  await b.hover();
  assert.equal(await tip(), `${e.term} ${e.definition}`);
  assert.equal(await b.getAttribute("aria-expanded"), "true");
  await page.mouse.move(5, 5);
  assert.equal(await tip(), null, "leaving hides it");
  await b.focus();
  await page.keyboard.press("Enter");
  assert.equal(await tip(), `${e.term} ${e.definition}`);
  await page.keyboard.press("Escape");
  assert.equal(await tip(), null, "Esc hides it");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.term), "state table", "focus stays on the term");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  assert.equal(await tip(), null, "a second press hides it");
  h.assertNoErrors(page);
});

test("on a touch screen a tap shows the definition and a tap elsewhere hides it", async () => {
  const touch = await openPage(h, "index.html#scenario=happy-path&step=10", { engine: false, hasTouch: true, isMobile: true, viewport: { width: 375, height: 740 } });
  const b = touch.locator("#stage [data-testid=term]", { hasText: /^Builders$/ });
  await b.scrollIntoViewIfNeeded();
  await b.tap();
  const shown = await touch.evaluate(() => document.querySelector('[data-testid="term-tip"]').textContent);
  const e = entryOf("builders");
  assert.equal(shown.replace(/\s+/g, " ").trim(), `${e.term} ${e.definition}`);
  const box = await touch.locator('[data-testid="term-tip"]').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `the bubble fits the screen: ${JSON.stringify(box)}`);
  await h.screenshot(touch, "glossary-tap-375");
  await touch.locator("#scenario-title").tap();
  assert.equal(await touch.evaluate(() => document.querySelector('[data-testid="term-tip"]').hidden), true);
  h.assertNoErrors(touch);
});

test("the help has the whole glossary, as the engine defines it", async () => {
  await page.keyboard.press("?");
  const list = page.locator('#help [data-testid="glossary"]');
  await list.waitFor();
  const rows = await list.evaluate((dl) => [...dl.querySelectorAll("dt")].map((dt) => [dt.firstChild.textContent, dt.nextElementSibling.textContent]));
  assert.deepEqual(rows, GLOSSARY.map((e) => [e.term, e.definition]));
  await h.screenshot(page, "help-glossary");
  await page.keyboard.press("Escape");
  h.assertNoErrors(page);
});

test("the page holds no copy of the definitions", () => {
  // the page's files: web/*.js and web/*.css, and the modules in its folders (web/boot/, web/stage/, …)
  const files = readdirSync(join(ROOT, "web"), { recursive: true })
    .filter((f) => /\.(js|css)$/.test(f) && !/^(test|bench)[\\/]/.test(f))
    .map((f) => join(ROOT, "web", f));
  assert.ok(files.some((f) => f.endsWith(join("stage", "render.js"))), "the modules in folders are read");
  files.push(join(ROOT, "index.html"));
  for (const f of files) {
    const src = readFileSync(f, "utf8");
    for (const e of GLOSSARY) assert.ok(!src.includes(e.definition.slice(0, 60)), `${f} copies the definition of ${e.term}`);
  }
});

test("nothing the page shows names the spec files or uses the seed, LP: or §", async () => {
  const BAD = /§|\bLP:|the seed|scenario-format\.md|protocol\.md|design\.md|\.\.\/shared|conformance\//i;
  const names = (await page.evaluate(() => window.explainer.scenarios())).map((s) => s.name);
  const seen = [];
  const read = () => page.evaluate(() => document.body.innerText + "\n" + [...document.querySelectorAll("[title], [aria-label]")]
    .map((e) => (e.getAttribute("title") || "") + " " + (e.getAttribute("aria-label") || "")).join("\n"));
  for (const name of names) {
    const steps = await page.evaluate(async (name) => (await window.explainer.open(name)).steps, name);
    for (const n of [0, Math.floor(steps / 2), steps]) {
      await call(page, "goto", n);
      await waitStep(page, n);
      const t = await read();
      const m = BAD.exec(t);
      if (m) seen.push(`${name} step ${n}: …${t.slice(Math.max(0, m.index - 60), m.index + 40)}…`);
    }
  }
  // and the dialogs: help, the editor, the inject dialog, the explorer
  for (const key of ["?", "o", "i", "x"]) {
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press(key);
    const t = await page.evaluate(() => document.querySelector("dialog[open]")?.innerText || "");
    assert.ok(t.length > 0, `${key} opens a dialog`);
    const m = BAD.exec(t);
    if (m) seen.push(`dialog ${key}: …${t.slice(Math.max(0, m.index - 60), m.index + 40)}…`);
    await page.evaluate(() => document.querySelector("dialog[open]")?.close());
  }
  assert.deepEqual(seen, []);
});

// The page decorates only the labels a view changed (a MutationObserver says which) and, when a
// term button left, every label of its region again. Without an observer it looks at every label
// at every view, as it always did: two pages taking the same views, one whose glossary cannot
// make its observer, show the same term buttons in the same places, view after view.
test("decorating only the labels a view changed places every term as looking at them all does", async () => {
  const plain = await openPage(h, "index.html#scenario=happy-path&step=0");
  const whole = await h.open("about:blank", { ready: false, ...welcomed(h) });
  await whole.addInitScript(() => {
    const Observer = window.MutationObserver; // (playwright's own script needs it)
    window.MutationObserver = class extends Observer {
      constructor(f) {
        if (/createGlossary/.test(new Error().stack)) throw new Error("no observer for the glossary");
        super(f);
      }
    };
  });
  await whole.goto(new URL("index.html#scenario=happy-path&step=0", h.url).href);
  await waitStep(whole, 0);
  await pageStarted(whole);

  const terms = (p) => p.evaluate(() => [...document.querySelectorAll('[data-testid="term"]')].map((b) => {
    const path = [];
    for (let e = b; e && e !== document.body; e = e.parentElement) path.push(e.tagName + ":" + [...e.parentElement.children].indexOf(e));
    return path.reverse().join("/") + " " + b.textContent;
  }));
  // 40 vnodes: long lists, and a progress entry (which holds a term) rebuilt as it moves
  const rows = Array.from({ length: 200 }, (_, i) => `[${i}, ${i}]`).join(", ");
  const wide = ["title: 40 vnodes", "table: {columns: [a:int, id], locality: [a], stream_key: [id]}", "vnodes: {count: 40}",
    "chunk_size: 4", `start: {state_table: [${rows}]}`, "steps:", "  - barrier: 1", "  - barrier: {epoch: 2, start_backfill: [1]}"];
  for (let i = 0; i < 12; i++) wide.push("  - snapshot: 16", `  - chunk: ["+ ${1000 + i} ${1000 + i}"]`, `  - barrier: ${3 + i}`);
  const actions = [
    ...Array.from({ length: 18 }, () => ["step"]),
    ["back"], ["back"], ["goto", 4], ["goto", 12], ["bug", "no-state-write"], ["step"], ["step"], ["bug", "none"],
    ["open", "fatal-upstream-end"], ...Array.from({ length: 12 }, () => ["step"]), ["apply", "recover"], ["step"],
    ["open", "mixed-visibility"], ["goto", 9], ["step"], ["back"],
    ["load", wide.join("\n") + "\n"], ...Array.from({ length: 12 }, () => ["step"]), ["goto", 2],
  ];
  for (const [n, [method, arg]] of actions.entries()) {
    for (const p of [plain, whole]) await waitStep(p, await p.evaluate(([m, a]) => window.explainer[m](a).then((v) => v.step), [method, arg]));
    const shown = await terms(plain);
    assert.deepEqual(shown, await terms(whole), `after ${method}(${typeof arg === "string" ? arg.slice(0, 20) : arg ?? ""}) (#${n + 1})`);
    assert.ok(shown.length > 0, "the page shows term buttons");
  }
  h.assertNoErrors(plain);
});
