// served.test.mjs — the served site holds what its page, the page's workers and the embedding
// element (web/element.js) load, and nothing else: the page is driven through everything that
// loads a file (the first view, every tool, a workload's run with its charts, an exploration, the
// speaker-notes window, an element in a documentation page), and the server's log of those
// requests is compared with the files in the site. Every request found its file; every file was
// asked for, but the exceptions named below, each for its reason.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { DIST } from "./harness.mjs";
import { setupPrivate, openPage, byTestId, welcomed } from "./page-helpers.mjs";

// Files of the site that nothing the page does fetches, on purpose.
const NOT_FETCHED = {
  "explainer-offline.html": "the whole explainer in one file, for file:// (downloaded, not loaded by the page)",
  "web/uPlot.LICENSE.txt": "uPlot's licence, shipped beside the code it covers (web/uPlot.js)",
};

// The documentation page this test adds to the site (not part of it).
const DOCS = "docs/embed.html";
const DOCS_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title><link rel="icon" href="data:,">' +
  '<script type="module" src="../web/element.js"></script></head>' +
  '<body><backfill-explainer id="x" scenario="happy-path" step="3"></backfill-explainer></body></html>';

const SMALL = "title: t\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 4}\nworkload: {rows: 2000, seed: 3}\n";

let h;
before(async () => { h = await setupPrivate({ extra: { [DOCS]: DOCS_PAGE } }); });
after(async () => { await h?.close(); });

function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p); else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

/** The server's log as [{method, path (without the query), status}]. */
function requests() {
  return h.server.log().split("\n")
    .map((l) => /^(\w+) (\S+) (\d{3}) /.exec(l))
    .filter(Boolean)
    .map(([, method, uri, status]) => ({ method, path: decodeURIComponent(new URL(uri, "http://x").pathname), status: Number(status) }));
}

test("the site holds every file its page, workers and embedding element fetch, and nothing else", async () => {
  // The page: a plain first visit (the first-visit card), until it has started (every tool's module in).
  const page = await openPage(h, "index.html");
  await page.waitForFunction(() => !document.querySelector("#scenario-picker").disabled, null, { timeout: 30000 });
  await page.keyboard.press("Escape"); // the first-visit card
  // A first visit's card: "Run a workshop", then a lesson's printable plan (its own chunk).
  const card = await h.open("index.html", { viewport: { width: 1280, height: 800 } });
  await card.locator("#welcome").getByRole("button", { name: "Run a workshop" }).click();
  await card.locator('[data-testid="ways-lesson-plan"]').first().click();
  await card.locator("dialog.lesson-plan[open]").waitFor({ timeout: 30000 });
  // The Scale panel: a pasted workload run in its worker, then its charts (uPlot).
  await byTestId(page, "scale-btn").click();
  await page.waitForFunction(() => /rows:/.test(document.querySelector('[data-testid="scale-text"]')?.value || ""));
  await byTestId(page, "scale-workload").selectOption(""); // "Paste your own…" unfolds the text
  await byTestId(page, "scale-text").fill(SMALL);
  await byTestId(page, "scale-run").click();
  await page.locator('[data-testid="scale-heatmap"] canvas').waitFor({ timeout: 60000 });
  await page.keyboard.press("Escape");
  // The explorer, in its worker.
  const other = await openPage(h, "index.html#scenario=happy-path&step=4", welcomed(h));
  await other.evaluate(() => document.activeElement?.blur());
  await other.keyboard.press("x");
  await byTestId(other, "explore-run").click();
  await byTestId(other, "explore-verdict").waitFor({ timeout: 30000 });
  // A lesson's bar (a link names the lesson).
  const lessonPage = await openPage(h, "index.html#lesson=met-this-error&section=1", welcomed(h));
  await byTestId(lessonPage, "lesson-bar").waitFor();
  // The speaker-notes window (no engine of its own).
  const speaker = await h.open("index.html?speaker=1&id=served-test", { ready: false });
  await speaker.waitForFunction(() => document.readyState === "complete");
  await speaker.waitForLoadState("networkidle");
  // An element in a documentation page, which loads the embedded page in its iframe.
  const docs = await h.open(DOCS, { ready: false, viewport: { width: 1100, height: 800 } });
  await docs.waitForFunction(() => document.querySelector("backfill-explainer iframe"));
  const frame = await (await docs.$("backfill-explainer iframe")).contentFrame();
  await frame.waitForFunction(() => window.explainer && window.explainer.ready);
  await frame.evaluate(() => window.explainer.ready);
  for (const p of [page, card, other, lessonPage, speaker, docs]) h.assertNoErrors(p);

  const log = requests();
  const failed = log.filter((r) => r.status >= 400);
  assert.deepEqual(failed, [], "every request found its file");
  const fetched = new Set(log.map((r) => (r.path.endsWith("/") ? r.path + "index.html" : r.path).slice(1)));
  // (the copy leaves the offline file out; FILE.br and FILE.gz are FILE as sent to a browser that
  // accepts that encoding, under FILE's name)
  const all = files(h.dir);
  const site = all.filter((f) => f !== DOCS && !(/\.(br|gz)$/.test(f) && all.includes(f.replace(/\.(br|gz)$/, ""))));
  for (const f of fetched) assert.ok(f === DOCS || site.includes(f), `${f} was fetched and is in the site`);
  // (the stored views, web/views/: a run's file is fetched when a link or the picker opens it;
  // this walk opens a few)
  assert.ok(fetched.has("web/views/index.json") && fetched.has("web/views/happy-path.json"), "the stored views were read");
  const unfetched = site.filter((f) => !fetched.has(f) && !f.startsWith("web/views/"));
  assert.deepEqual(unfetched, Object.keys(NOT_FETCHED).filter((f) => f !== "explainer-offline.html"),
    "every file of the served site is fetched by the page, a worker or the element, but the exceptions");
  for (const f of Object.keys(NOT_FETCHED)) assert.ok(existsSync(join(DIST, f)), `${f} is in dist/`);
  // The workers are there, each one file in its folder (importing Go's web/wasm_exec.js).
  for (const w of ["web/scale/scale-worker.js", "web/tools/explore-worker.js", "web/wasm_exec.js", "web/element.js"]) assert.ok(fetched.has(w), `${w} was fetched`);
});

test("dist/ holds the served site, the offline file, and nothing else", () => {
  const served = files(h.dir).filter((f) => f !== DOCS);
  assert.deepEqual(files(DIST), [...served, "explainer-offline.html"].sort());
});
