// page-helpers.mjs — small helpers the page tests share on top of harness.mjs: open the real
// page without the first-visit card, read what a person sees in a data-testid panel, wait for
// the "step N / M" counter; setupPrivate() serves a private copy of dist/. (Not a test file:
// build.sh runs web/test/*.test.mjs only.)

import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setup, DIST, SHARED, waitFirstView } from "./harness.mjs";

export const WELCOMED_KEY = "backfill-explainer:welcomed"; // help.js SEEN_KEY

/** The policy bin/backfill serve sends with every file (internal/site/server.go CSP). */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "worker-src 'self'; connect-src 'self'; frame-ancestors *";

/** Asserts that the harness's server sends CSP with its files (a test that relies on it says so). */
export async function assertServedPolicy(h) {
  const sent = (await fetch(new URL("index.html", h.url))).headers.get("content-security-policy");
  assert.equal(sent, CSP, "the server's policy");
}

/** Context options that mark the first-visit card as already seen for the harness's server. */
export function welcomed(h) {
  return {
    storageState: {
      cookies: [],
      origins: [{ origin: new URL(h.url).origin, localStorage: [{ name: WELCOMED_KEY, value: "1" }] }],
    },
  };
}

/**
 * Open `path` on the harness's server with the first-visit card dismissed; when the path's hash
 * names a step, also wait until the page shows it (ready resolves before the page honours the hash).
 */
export async function openPage(h, path, options = {}) {
  const page = await h.open(path, { ...welcomed(h), ...options });
  const m = /[#&]step=(\d+)/.exec(path);
  if (m) await waitStep(page, Number(m[1]));
  else await page.waitForFunction(() => /^step \d+ \/ [1-9]/.test(document.querySelector('[data-testid="step-count"]')?.textContent || ""));
  await pageStarted(page);
  return page;
}

/**
 * The picker fills after the first view is painted (app.js), and is enabled once the page has
 * started: wait for that; on a page opened without the engine, for harness.waitFirstView (it is
 * enabled only ~3 s after, having waited that long for the engine's dialogs).
 */
export async function pageStarted(page) {
  if (page.engineHeld) await waitFirstView(page);
  else await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false);
}

/**
 * call(pageOrFrame, method, ...args) calls window.explainer[method](...args) in the page and
 * waits for it, bringing nothing back: the view a method resolves to, carried to Node, costs
 * ~0.14 s of CPU a step at 64 vnodes (read what a test needs in the page instead).
 */
export async function call(target, method, ...args) {
  await target.evaluate(async ([method, args]) => { await window.explainer[method](...args); }, [method, args]);
}

export const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);

// blur takes the focus off whatever holds it, so that keys go to the page.
/** Turns presenter mode on and opens the speaker window (it takes the focus, as it does for a
 * trainer); resolves with that window once it shows its step. */
export async function presentWithSpeaker(page) {
  await byTestId(page, "presenter").click();
  const [speaker] = await Promise.all([page.context().waitForEvent("page"), byTestId(page, "speaker-open").click()]);
  await speaker.waitForLoadState();
  await byTestId(speaker, "speaker-step").waitFor({ timeout: 10000 });
  return speaker;
}

export const blur = (page) => page.evaluate(() => document.activeElement?.blur());

/** The text a person reads in a panel (textContent, whitespace collapsed). */
export async function text(page, id) {
  const t = await page.locator(`[data-testid="${id}"]`).first().textContent();
  return (t ?? "").replace(/\s+/g, " ").trim();
}

/** The "step N / M" counter as numbers. */
export async function stepCount(page) {
  const t = await text(page, "step-count");
  const m = /^step (\d+) \/ (\d+)$/.exec(t);
  if (!m) throw new Error(`step-count reads ${JSON.stringify(t)}`);
  return { step: Number(m[1]), steps: Number(m[2]) };
}

/** Wait until the counter reads "step n / …". */
export async function waitStep(page, n, { timeout = 10000 } = {}) {
  try {
    await page.waitForFunction((n) => {
      const t = document.querySelector('[data-testid="step-count"]')?.textContent || "";
      return new RegExp(`^step ${n} / \\d+$`).test(t.trim());
    }, n, { timeout });
  } catch (e) {
    const t = await text(page, "step-count").catch(() => "?");
    throw new Error(`the page did not reach step ${n}: step-count reads ${JSON.stringify(t)}`);
  }
}

/** Text of several panels at once, for comparing two renderings of the same step. */
export async function panelTexts(page, ids) {
  return page.evaluate((ids) => Object.fromEntries(ids.map((id) => [id,
    (document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "").replace(/\s+/g, " ").trim()])), ids);
}

export const PANELS = [
  "phase", "epoch", "scenario-title", "upstream-next", "snapshot", "upstream-content", "buffer", "builders",
  "progress", "state-table", "progress-table", "outputs", "downstream", "invariant", "narration",
  "step-count", "actions",
];

/** Tuples (as shown, e.g. "(1,100)") of each snapshot lane, by its vnode label. */
export async function snapshotLanes(page) {
  return page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('[data-testid="snapshot"] .lane')].map((lane) => [
      lane.querySelector(".vnode")?.textContent.trim(),
      [...lane.querySelectorAll(".lane-rows .chip .tuple")].map((c) => c.textContent.trim()),
    ])));
}

/** Rows of a progress-table subpanel ("committed" or "durable") as arrays of cell text. */
export async function progressTableRows(page, which = "committed") {
  return page.evaluate((which) => {
    const tables = [...document.querySelectorAll('[data-testid="progress-table"] table')];
    const t = tables.find((x) => (x.querySelector("caption")?.textContent || "").includes(which));
    if (!t) return null;
    return [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.cells].map((td) => td.textContent.trim()));
  }, which);
}

/** Open a built-in scenario at step n through the API (the page follows) and wait for it. */
export async function openAt(page, name, n) {
  await page.evaluate(async ([name, n]) => { await window.explainer.open(name); await window.explainer.goto(n); }, [name, n]);
  await waitStep(page, n);
}

/**
 * setupPrivate({extra}) is harness.setup() over a private copy of dist/ (in a temp dir, removed on
 * close; `extra` maps paths in it to files to add, such as a docs page that embeds the explainer),
 * so a concurrent `./build.sh build` (which starts with rm -rf dist) cannot pull the
 * site out from under a running test file. It copies once dist/ is complete (its page's bundle
 * and the offline file are there), waiting up to a minute for a build in progress. h.dir is the copy.
 */
export async function setupPrivate({ extra = {} } = {}) {
  const complete = () => ["index.html", "web/explainer.wasm", "web/wasm_exec.js", "web/bundle/main.js", "explainer-offline.html"]
    .every((f) => existsSync(join(DIST, f)));
  for (let t0 = Date.now(); !complete(); ) {
    if (Date.now() - t0 > 60000) throw new Error(`${DIST} is incomplete: run ./build.sh build first`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Under web/test/run.mjs the files a worker runs share their copy (one per set of extra files,
  // made once and removed when the worker exits), so that they share its server and the browser's
  // contexts on it (harness.mjs).
  const key = JSON.stringify(Object.entries(extra).sort(([a], [b]) => a.localeCompare(b)));
  if (SHARED && copies.has(key)) {
    const h = await setup({ dir: copies.get(key) });
    h.dir = copies.get(key);
    return h;
  }
  const dir = mkdtempSync(join(tmpdir(), "explainer-dist-"));
  try {
    cpSync(DIST, dir, { recursive: true, filter: (src) => !src.endsWith("explainer-offline.html") });
    for (const [rel, text] of Object.entries(extra)) { // files served beside the site (a docs page …)
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    if (SHARED) {
      copies.set(key, dir);
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    }
    const h = await setup({ dir });
    h.dir = dir; // the copy served
    if (SHARED) return h;
    const close = h.close;
    h.close = async () => { try { await close(); } finally { rmSync(dir, { recursive: true, force: true }); } };
    return h;
  } catch (e) {
    copies.delete(key);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
const copies = new Map(); // the extra files' key → the copy (SHARED)

/**
 * waitView(page, pred, arg): the view (window.explainer.view(), an async call) once pred(view, arg)
 * holds, polled from Node. page.waitForFunction does not await a predicate's promise: an async
 * predicate passes at once, whatever it would answer.
 */
export async function waitView(page, pred, arg, { timeout = 10000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(() => window.explainer.view());
    if (pred(v, arg)) return v;
    if (Date.now() > deadline) {
      throw new Error(`waitView: not so in ${timeout} ms (${pred}); the view: ${JSON.stringify({ name: v?.name, bug: v?.bug?.name ?? null, release: v?.release })}`);
    }
    await page.waitForTimeout(30);
  }
}
