// loading.test.mjs — the page's loading path: window.explainer exists once the page's scripts have
// run; the address is written once the first view is drawn, never a step on the way to it; the
// first view needs none of the dialogs' modules (the editor, injection, help, the
// explorer, compare, the Scale panel load on first use: chunks of their own in the served page's
// bundle, web/bundle/NAME-HASH.js); a tool whose module has not arrived yet still opens on the
// first press of its key or click on its button, once the module is in; and in the offline file,
// where every module is inside the one script, each opens at once by its key and its button.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DIST, fileURL } from "./harness.mjs";
import { setupPrivate, welcomed, waitStep, byTestId } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// The tools loaded on first use: the chunk's name, how to open it by key and by button, and the
// dialog that opens.
const TOOLS = [
  { chunk: "explorer", key: "x", button: (p) => byTestId(p, "explore-btn"), dialog: "explorer-dialog" },
  { chunk: "inject", key: "i", button: (p) => p.locator("#inject-btn"), dialog: "inject-dialog" },
  { chunk: "editor", key: "o", button: (p) => p.locator("#open-btn"), dialog: "editor-dialog" },
  { chunk: "help", key: "?", button: (p) => p.locator("#help-btn"), dialog: "help" },
  { chunk: "scale-panel", button: (p) => byTestId(p, "scale-btn"), dialog: "scale-dialog" },
  {
    chunk: "compare", dialog: "compare-dialog",
    button: async (p) => { await byTestId(p, "bug-menu").click(); return byTestId(p, "compare-bug-btn"); },
  },
];

test("the build names each lazily loaded module's chunk after it", () => {
  const files = readdirSync(join(DIST, "web/bundle"));
  for (const t of TOOLS) assert.ok(files.some((f) => new RegExp(`^${t.chunk}-[A-Z0-9]+\\.js$`).test(f)), `no ${t.chunk} chunk in ${files}`);
});

/**
 * A fresh page on which the chunks of `tools` are held back: their responses wait until
 * release(chunk) (or all of them at close). Returns {page, release, requested(chunk)}.
 */
async function holding(path, tools) {
  const page = await h.open("about:blank", { ready: false, viewport: { width: 1280, height: 800 }, ...welcomed(h) });
  const gates = new Map(tools.map((t) => {
    let open;
    const p = new Promise((r) => { open = r; });
    return [t.chunk, { p, open, asked: false }];
  }));
  await page.route("**/web/bundle/*.js", async (route) => {
    const m = /\/([a-z-]+)-[A-Z0-9]+\.js$/.exec(new URL(route.request().url()).pathname);
    const gate = m && gates.get(m[1]);
    if (gate) { gate.asked = true; await gate.p; }
    await route.continue().catch(() => {}); // (the page may be closing)
  });
  await page.goto(new URL(path, h.url).href);
  return {
    page,
    release: (chunk) => gates.get(chunk).open(),
    requested: (chunk) => gates.get(chunk).asked,
    close: async () => { for (const g of gates.values()) g.open(); await page.close(); },
  };
}

const isOpen = (page, id) => page.evaluate((id) => document.getElementById(id).open, id);
const closeAll = (page) => page.evaluate(() => { for (const d of document.querySelectorAll("dialog[open]")) d.close(); });

test("the first view is drawn while every tool's module is held back", async () => {
  const s = await holding("index.html#scenario=fatal-upstream-end&step=5", TOOLS);
  try {
    await s.page.waitForFunction(() => window.explainer && window.explainer.ready);
    await s.page.evaluate(() => window.explainer.ready);
    await waitStep(s.page, 5);
    assert.match(await s.page.locator('[data-testid="scenario-title"]').textContent(), /upstream ends during backfill/i);
    for (const t of TOOLS) assert.equal(await isOpen(s.page, t.dialog), false);
    assert.deepEqual(s.page.errors, []);
  } finally {
    await s.close();
  }
});

// Each tool's module held back; `open` asks for the tool (its key, its button): nothing opens
// until the module arrives, then the tool opens without being asked again.
async function opensOnArrival(tools, open) {
  const s = await holding("index.html#scenario=happy-path&step=3", tools);
  try {
    await waitStep(s.page, 3);
    for (const t of tools) {
      await open(s.page, t);
      // held back: nothing can have opened yet
      assert.equal(await isOpen(s.page, t.dialog), false, `${t.dialog} opened without its module`);
      s.release(t.chunk);
      await s.page.waitForFunction((id) => document.getElementById(id).open, t.dialog);
      await closeAll(s.page);
    }
    assert.deepEqual(s.page.errors, []);
  } finally {
    await s.close();
  }
}

test("served page: a tool whose module has not arrived opens on the first press of its key", async () => {
  await opensOnArrival(TOOLS.filter((t) => t.key), async (page, t) => {
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press(t.key);
  });
});

test("served page: a tool whose module has not arrived opens on the first click on its button", async () => {
  await opensOnArrival(TOOLS, async (page, t) => (await t.button(page)).click());
});

test("served page: once the page has started (the picker enabled), every tool's module is in", async () => {
  const s = await holding("index.html#scenario=happy-path&step=3", []);
  try {
    await waitStep(s.page, 3);
    await s.page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false);
    const loaded = await s.page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    for (const t of TOOLS) assert.ok(loaded.some((u) => new RegExp(`/web/bundle/${t.chunk}-[A-Z0-9]+\\.js$`).test(u)), `${t.chunk}: ${loaded}`);
    // …so a key opens its tool at once, as if it had come with the page
    await s.page.evaluate(() => document.activeElement?.blur());
    await s.page.keyboard.press("x");
    assert.equal(await isOpen(s.page, "explorer-dialog"), true);
    assert.deepEqual(s.page.errors, []);
  } finally {
    await s.close();
  }
});

test("offline file: each tool opens by its key and by its button, nothing fetched", async () => {
  for (const how of ["key", "button"]) {
    const page = await h.open(fileURL("dist/explainer-offline.html"), { viewport: { width: 1280, height: 800 } });
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.evaluate(() => { location.hash = "#scenario=happy-path&step=3"; });
    await waitStep(page, 3);
    await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false);
    await closeAll(page); // the first-visit card (the file opened with no link)
    for (const t of TOOLS) {
      if (how === "key" && !t.key) continue;
      if (how === "key") {
        await page.evaluate(() => document.activeElement?.blur());
        await page.keyboard.press(t.key);
      } else {
        await (await t.button(page)).click();
      }
      await page.waitForFunction((id) => document.getElementById(id).open, t.dialog);
      await closeAll(page);
    }
    assert.deepEqual(requests.filter((u) => !u.startsWith("file:")), [], "nothing is fetched beside the file");
    h.assertNoErrors(page);
    await page.close(); // (its context serves the next: harness.mjs)
  }
});

test("window.explainer exists once the page's scripts have run, before its load event", async () => {
  const page = await h.open("about:blank", { ready: false });
  await page.addInitScript(() => {
    window.addEventListener("load", () => { window.__atLoad = typeof window.explainer === "object" && !!window.explainer && typeof window.explainer.ready?.then === "function"; });
  });
  await page.goto(new URL("index.html", h.url).href);
  await page.waitForFunction(() => window.__atLoad !== undefined);
  assert.equal(await page.evaluate(() => window.__atLoad), true);
});

test("the address is written once the first view is drawn: a deep link's stays as it is, a plain visit gets one", async () => {
  for (const [path, want] of [
    ["index.html#scenario=fatal-upstream-end&step=12", []],
    ["index.html", ["#scenario=happy-path&step=0"]],
  ]) {
    const page = await h.open("about:blank", { ready: false, ...welcomed(h) });
    await page.addInitScript(() => {
      window.__writes = [];
      const replace = history.replaceState.bind(history);
      history.replaceState = (s, t, u) => { window.__writes.push(String(u)); return replace(s, t, u); };
    });
    await page.goto(new URL(path, h.url).href);
    await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false);
    assert.deepEqual(await page.evaluate(() => window.__writes), want, path);
    assert.equal(await page.evaluate(() => location.href), new URL(path.replace(/#.*/, "") + (want.at(-1) ?? path.replace(/^[^#]*/, "")), h.url).href);
    await page.close();
  }
});
