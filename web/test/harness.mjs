// harness.mjs — what every browser test needs: the built site served by our own Go server
// (bin/backfill serve, the real HTTP server), Debian's chromium driven by playwright-core,
// a page opened and waited on until window.explainer.ready, axe-core for accessibility, and
// screenshots kept as artifacts in web/test/artifacts/ (git-ignored).
//
//   import { test, before, after } from "node:test";
//   import { setup } from "./harness.mjs";
//   let h;
//   before(async () => { h = await setup(); });           // server + browser, once per file
//   after(async () => { await h.close(); });
//   test("steps", async () => {
//     const page = await h.open("index.html#scenario=happy-path&step=3");   // waits for ready
//     await page.evaluate(() => window.explainer.step());
//     await h.screenshot(page, "happy-path-4");
//     assert.deepEqual(await h.axe(page), []);            // serious/critical violations
//     h.assertNoErrors(page);                             // no console errors, no page errors
//   });
//
// Without the engine: h.open(path, { engine: false }) opens the page with its fetch of the engine
// held unanswered (holdEngine) and waits for its first view (waitFirstView) instead of
// window.explainer.ready: every call is then answered by the built-ins' stored views
// (web/boot/stored.js: open of a built-in under its own bug mode, goto, step, back, view, steps,
// actions, any release, the lists, the legend, the glossary), which a Node test checks equal the
// engine's at every step (node/stored.test.mjs). For a test that lays out, walks or measures
// built-ins, not for one of what the engine serves (a lesson, the editor, inject, apply, load,
// compare, explore, predict's answers, scale, diagnose, export, a #run=/#src= link, another bug
// mode): such a call waits for the engine for ever. Measured on this machine (a pooled context,
// 1280×800, happy-path at step 3, the page closed after each; two rounds of six opens each way, the
// machine shared): an open that waits for the engine ~1.9 s of CPU (1.75-2.15) and 1.3-3.7 s of
// wall time; one that waits for the first view ~1.15 s of CPU (1.14-1.20) and 1.3-1.4 s. (With the
// engine held by a page route instead: ~1.5 s of CPU: a routed page has no HTTP cache.) In the
// tests themselves the saving is smaller, within the shared machine's noise but in files that open
// many pages: element-fit's six loads of a docs page took 18.0 s of CPU with the engine, 16.3 s
// without it (run.mjs, TEST_CPU=1).
//
// Run: ./build.sh build && node web/test/run.mjs (every file; run.mjs says how), or one file in a
// process of its own: node --test web/test/keys.test.mjs
// Name test files *.test.mjs: run.mjs runs exactly those (a bare `node --test web/test/` would
// also run this module as a test file, since it sits in a test/ directory).

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterEach, beforeEach } from "node:test";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DIST = join(ROOT, "dist");
export const ARTIFACTS = join(ROOT, "web/test/artifacts");
export const BACKFILL = join(ROOT, "bin/backfill");
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"];

const AXE_PATH = join(ROOT, "node_modules/axe-core/axe.min.js");

// startServer runs `bin/backfill serve --dir DIR --addr 127.0.0.1:0` and resolves once it has
// printed "serving DIR at URL" (port 0: the kernel picks a free port, so parallel test files never
// collide). close() stops it with SIGTERM, which it handles by shutting down cleanly.
export async function startServer({ dir = DIST, timeoutMs = 10000 } = {}) {
  if (!existsSync(BACKFILL)) throw new Error(`${BACKFILL} is missing: run ./build.sh build first`);
  if (!existsSync(dir)) throw new Error(`${dir} is missing: run ./build.sh build first`);
  const child = spawn(BACKFILL, ["serve", "--dir", dir, "--addr", "127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => { stderr += d; });
  const url = await new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`backfill serve did not start in ${timeoutMs} ms\n${stderr}`)); }, timeoutMs);
    child.stdout.on("data", (d) => {
      stdout += d;
      const m = /^serving .* at (http:\/\/\S+)$/m.exec(stdout);
      if (m) { clearTimeout(timer); resolvePromise(m[1]); }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`backfill serve exited (${code ?? signal}) before serving\n${stderr}`));
    });
  });
  child.stdout.resume(); // request log: keep draining it so the server never blocks on a full pipe
  return {
    url,
    log: () => stdout,
    close: () => new Promise((res) => {
      if (child.exitCode !== null || child.signalCode !== null) return res();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("exit", () => { clearTimeout(timer); res(); });
      child.kill("SIGTERM");
    }),
  };
}

// The tests' browser runs the engine's wasm with V8's baseline compiler (Liftoff) only. A fresh
// page compiles the 7 MB engine anew; by default V8 then recompiles its hot functions with its
// optimizing compiler on background threads, about 1.4 s of CPU a page load, which on a 2-core
// machine running two test files at once takes the cores the pages need: with Liftoff only a
// page is ready in ~27 % less time (four loads in each of two browsers at once: 18.8 s against
// 25.8 s). What the page does is the same; the benchmarks (web/bench/) launch Chromium as a
// reader's is, without it.
export const TEST_ARGS = ["--js-flags=--liftoff-only"];

export async function launchBrowser({ args = [] } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args] });
}

// watch records console errors and uncaught page errors on a page (page.errors).
function watch(page) {
  page.errors = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location()?.url || "";
    // Chromium asks for /favicon.ico by itself when a page names no icon; that is not the page's error.
    if (/^Failed to load resource/.test(msg.text()) && /\/favicon\.ico$/.test(where)) return;
    page.errors.push(`console.error: ${msg.text()}${where ? ` (${where})` : ""}`);
  });
  page.on("pageerror", (err) => { page.errors.push(`pageerror: ${err.message}`); });
  return page;
}

// waitReady waits for window.explainer to exist and its ready promise to resolve; a rejected
// ready (the engine failed to start) fails with the page's own reason.
export async function waitReady(page, { timeoutMs = 20000 } = {}) {
  await page.waitForFunction(() => Boolean(window.explainer && window.explainer.ready), null, { timeout: timeoutMs });
  const err = await page.evaluate(async (ms) => {
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`explainer.ready did not resolve in ${ms} ms`)), ms));
    try {
      await Promise.race([window.explainer.ready, timeout]);
      return null;
    } catch (e) {
      return String(e && e.message ? e.message : e);
    }
  }, timeoutMs);
  if (err !== null) throw new Error(`explainer.ready rejected: ${err}`);
}

// holdEngine(page): the page's fetches of the engine (web/explainer.wasm) never answer, so the
// engine never loads and every call is answered by the stored views (web/boot/stored.js). An init
// script of the page's own (the context stays poolable) wraps its fetch: a fetch of the engine
// returns a promise that never settles, as a request the network never answers would; every other
// fetch is the page's. (Not a route: a page with a route has no HTTP cache, and its bundle then
// loads and compiles anew: ~0.25 s of CPU more a page.) The page's low-priority fetch of the
// engine after its first view then simply never ends: no error, nothing shown. A call the stored
// views cannot answer (a lesson, load, apply, explore, compare, scale, diagnose, export, state,
// the editor's and inject's forms …) waits for the engine, that is for ever: a test that makes
// one opens its page with the engine.
export async function holdEngine(page) {
  page.engineHeld = true;
  await page.addInitScript(() => {
    const fetch = window.fetch;
    window.fetch = function (input, init) {
      const u = String(input instanceof Request ? input.url : input);
      if (/\/web\/explainer\.wasm(\?|$)/.test(u)) return new Promise(() => {});
      return fetch.call(this, input, init);
    };
  });
}

// waitFirstView waits for what a page opened without the engine has once it has started: the
// first view painted (app.js's mark explainer:first-view), the picker filled with the built-ins
// and the glossary's term buttons in the labels. (The picker is enabled, the page's own sign
// that it has started, ~3 s later: it waits that long for the dialogs' modules, fetched once the
// engine has started, which here it never does.)
export async function waitFirstView(page, { timeoutMs = 20000 } = {}) {
  await page.waitForFunction(() => performance.getEntriesByName("explainer:first-view").length > 0
    && [...(document.querySelector('[data-testid="scenario-picker"]')?.options || [])].some((o) => o.value)
    && document.querySelector(".term") !== null, null, { timeout: timeoutMs });
}

// waitStarted(target, page): waitReady(target) (a page, or a frame of page), or, when page was
// opened without the engine, waitFirstView(target).
export async function waitStarted(target, page = target) {
  if (page.engineHeld) await waitFirstView(target);
  else await waitReady(target);
}

// axe runs axe-core on the page (or on `include`, a CSS selector) and returns the violations
// whose impact is in `impacts`, trimmed to what a failing assertion should show.
export async function axe(page, { impacts = ["serious", "critical"], include, rules } = {}) {
  const has = await page.evaluate(() => typeof window.axe === "object");
  // evaluated, not added as an inline <script>: the served page's policy refuses inline scripts
  if (!has) await page.evaluate(readFileSync(AXE_PATH, "utf8"));
  const violations = await page.evaluate(async ({ include, rules }) => {
    const r = await window.axe.run(include ? { include: [include] } : document, rules ? { runOnly: rules } : {});
    return r.violations;
  }, { include, rules });
  return violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

export async function screenshot(page, name, options = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name.replace(/[^A-Za-z0-9_.-]+/g, "_")}.png`);
  let fullPage = options.fullPage ?? true;
  // A page that fits its viewport, not scrolled: the viewport's picture is the whole page's, for
  // about half the CPU (a full-page picture resizes the view to the page and back)
  if (fullPage && await page.evaluate(() => {
    const de = document.documentElement;
    return !scrollX && !scrollY && de.scrollHeight <= innerHeight && de.scrollWidth <= innerWidth;
  }).catch(() => false)) fullPage = false;
  await page.screenshot({ path, ...options, fullPage });
  return path;
}

export function assertNoErrors(page) {
  if (page.errors && page.errors.length) {
    throw new Error(`the page reported errors:\n  ${page.errors.join("\n  ")}`);
  }
}

// setup starts one server (over `dir`, default dist/) and one browser. open(path, options) opens
// path relative to the server's URL (or a file: URL as given) in a context of its own and, unless
// ready:false, waits for window.explainer.ready. Context options pass through to playwright:
// viewport, colorScheme: "dark", reducedMotion: "no-preference", …
//
// A context costs: a fresh one spends ~5.8 s of CPU before the page is ready (its own renderer,
// its own HTTP cache, the 7 MB engine compiled anew), a new page in a context that loaded the
// engine before ~3.5 s, and ~1.9 s with the context's keeper page open (keeper below; figures
// of a machine about half as fast as today's test machine). So a
// context outlives the test that opened it: when that test ends (afterEach), or as soon as the
// test closes the last page it opened in it, its pages are closed, its localStorage emptied and
// it waits for the next open with the same options, which gets a new page in it. Contexts are
// pooled by their options but storageState, whose localStorage an open puts in the context itself
// (poolable, setStorage), colorScheme, which the page is given (emulateMedia), and the viewport
// but a phone's, which the page is given (setViewportSize) before it loads: one context serves a
// first visit and a returning reader alike, in light or dark, at 1280×800 or 1920×1080.
// What a reader's fresh visit has is kept: no storage of an earlier test, a new tab
// (sessionStorage, BroadcastChannel peers: none). What differs is the HTTP cache: the site is
// served with no-cache and ETags, so the page asks for every file again and gets 304s.
// A context a test changed beyond that (close, route, setOffline, clock, init scripts, …) is
// closed instead. open(path, {keep: true}), or an open outside a test (in before()), keeps its
// page until close(): a page several tests share. Pages open with prefers-reduced-motion: reduce
// unless the options say otherwise (poolable).
export async function setup({ dir = DIST } = {}) {
  let server, browser;
  if (SHARED) {
    const s = await shared.server(dir);
    const from = s.log().length;
    // this file's requests only: the server has answered the files before it too
    server = { url: s.url, log: () => s.log().slice(from), close: async () => {} };
    browser = await shared.browser();
  } else {
    server = await startServer({ dir });
    try {
      browser = await launchBrowser({ args: TEST_ARGS });
    } catch (e) {
      await server.close();
      throw e;
    }
  }
  const origin = new URL(server.url).origin;
  const contexts = []; // the contexts to close with the harness: those it keeps; unshared, all it made
  const spare = SHARED ? shared.spare : new Map(); // origin and options → contexts ready for another test
  const byTest = new Map(); // test → the contexts it opened
  const releasing = new Set(); // contexts being reset after their page closed (release)
  // putBack(context): reset, it waits among the spares for the next open with its options; or,
  // when it cannot be reset, it is closed.
  const putBack = async (context) => {
    if (await reset(context)) {
      if (!spare.has(context.key)) spare.set(context.key, []);
      spare.get(context.key).push(context);
    } else {
      await context.close().catch(() => {});
    }
  };
  // release(test, context): a page the test opened has closed. When no other page of its context
  // is open, the context goes back to the spares now, not at the test's end, so that a test that
  // opens and closes a page after another (fresh loads in a loop) opens each in a context that has
  // loaded the engine before, as the tests after it would.
  const release = (test, context) => {
    const mine = byTest.get(test);
    if (!mine?.includes(context) || mine.indexOf(context) !== mine.lastIndexOf(context)) return;
    if (context.pages().some((p) => p !== context.keeper && !p.isClosed())) return;
    mine.splice(mine.indexOf(context), 1);
    const done = putBack(context).finally(() => releasing.delete(done));
    releasing.add(done);
  };
  const h = {
    url: server.url,
    server,
    browser,
    async open(path = "index.html", { ready = true, keep = false, engine = true, ...options } = {}) {
      // (a context a page of this test handed back on closing (release) is ready once reset)
      if (releasing.size) await Promise.all(releasing);
      const { contextOptions, storage, colorScheme, size } = poolable(options, origin);
      const key = `${origin} ${JSON.stringify(Object.entries(contextOptions).sort(([a], [b]) => a.localeCompare(b)))}`;
      let context;
      for (;;) {
        context = spare.get(key)?.pop();
        if (context && (context.changed || context.keeper.isClosed())) { context.close().catch(() => {}); continue; }
        if (!context || !storage || JSON.stringify(storage) === JSON.stringify(context.storage) || await setStorage(context, storage)) break;
        context.close().catch(() => {}); // (its keeper did not answer)
      }
      if (!context) {
        // (with the storage asked for as its storageState: it holds it before its keeper has loaded)
        const origins = storage?.length ? [{ origin, localStorage: storage }] : [];
        context = await browser.newContext({ ...contextOptions, ...(origins.length ? { storageState: { cookies: [], origins } } : {}) });
        if (!SHARED) contexts.push(context);
        markChanges(context);
        // a window the page opens (the speaker window) has the size the test asked for, as it
        // would in a context made at that size
        context.on("page", (p) => { if (context.size && p !== context.keeper) p.setViewportSize(context.size).catch(() => {}); });
        context.key = key;
        context.storage = storage || [];
        context.keeper = await keeper(context, server.url);
        if (storage === null) context.changed = true; // (its storageState is its own: not pooled)
      }
      const test = keep ? null : running.at(-1) ?? null;
      if (test) {
        if (!byTest.has(test)) byTest.set(test, []);
        byTest.get(test).push(context);
      } else if (SHARED) {
        contexts.push(context);
      }
      context.size = size;
      const page = watch(await context.newPage());
      if (size) await page.setViewportSize(size);
      if (test) page.once("close", () => release(test, context));
      if (colorScheme) await page.emulateMedia({ colorScheme });
      const url = /^[a-z]+:/.test(path) ? path : new URL(path, server.url).href;
      if (!engine) await holdEngine(page);
      await page.goto(url);
      if (ready && engine) await waitReady(page);
      else if (ready) await waitFirstView(page);
      return page;
    },
    // testEnded(test): the contexts the test opened go back to the spares, or are closed.
    async testEnded(test) {
      const mine = byTest.get(test) || [];
      byTest.delete(test);
      for (const context of new Set(mine)) await putBack(context);
    },
    axe,
    screenshot,
    assertNoErrors,
    serveSources,
    async close() {
      harnesses.delete(h);
      for (const c of contexts) await c.close().catch(() => {});
      if (SHARED) return; // the browser, the server and the spares serve the next file
      await browser.close().catch(() => {});
      await server.close();
    },
  };
  harnesses.add(h);
  return h;
}

// Shared: web/test/run.mjs runs many test files one after another in one process
// (BACKFILL_TESTS_SHARED=1), and they share one browser, one server per site folder and the
// spare contexts, so that a file's first page, too, is a page in a context that loaded the engine
// before. closeShared (the runner, after its last file) closes them.
export const SHARED = process.env.BACKFILL_TESTS_SHARED === "1";
const shared = {
  launched: null,
  servers: new Map(), // dir → startServer's promise
  spare: new Map(),
  async browser() {
    let b = await this.launched;
    if (!b || !b.isConnected()) {
      this.spare.clear();
      this.launched = launchBrowser({ args: TEST_ARGS });
      b = await this.launched;
    }
    return b;
  },
  server(dir) {
    if (!this.servers.has(dir)) this.servers.set(dir, startServer({ dir }));
    return this.servers.get(dir);
  },
};

export async function closeShared() {
  const b = await shared.launched?.catch(() => null);
  if (b) await b.close().catch(() => {});
  for (const s of shared.servers.values()) await (await s.catch(() => null))?.close();
  shared.servers.clear();
  shared.spare.clear();
}

// The tests running now, innermost last (node:test runs a file's tests one at a time), and the
// harnesses open in this file: each test's end hands its contexts back. (Hooked only in a test
// file: a script that imports this module, such as a benchmark, would otherwise print a report.)
const running = [];
const harnesses = new Set();
if (SHARED || process.env.NODE_TEST_CONTEXT || /\.test\.mjs$/.test(process.argv[1] || "")) {
  const cpuAt = new Map(); // test → the CPU seconds its process tree had used when it began (TEST_CPU)
  beforeEach((t) => {
    running.push(t);
    if (TEST_CPU) cpuAt.set(t, treeCPU());
  });
  afterEach(async (t) => {
    running.splice(running.lastIndexOf(t), 1);
    for (const h of harnesses) await h.testEnded(t);
    if (TEST_CPU && cpuAt.has(t)) t.diagnostic(`cpu ${(treeCPU() - cpuAt.get(t)).toFixed(1)} s`);
    cpuAt.delete(t);
  });
}

// TEST_CPU=1: each test's report says the CPU time it took (the test process, its browser and
// its servers, all their processes; wall time on a shared machine says little), read from Linux's
// /proc: each process's own time and that of its children it has waited for (an ended renderer's
// time moves to its parent's).
const TEST_CPU = process.env.TEST_CPU === "1" && existsSync("/proc/self/stat");
function treeCPU() {
  const parent = new Map(); // pid → [ppid, CPU seconds]
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, "utf8").split(")").pop().trim().split(" ");
      parent.set(Number(d), [Number(f[1]), (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100]); // (utime, stime, cutime, cstime: 1/100 s)
    } catch { /* (gone meanwhile) */ }
  }
  const kids = new Map();
  for (const [pid, [pp]] of parent) kids.set(pp, [...(kids.get(pp) || []), pid]);
  let sum = 0;
  for (const st = [process.pid]; st.length; ) {
    const pid = st.pop();
    sum += parent.get(pid)?.[1] || 0;
    st.push(...(kids.get(pid) || []));
  }
  return sum;
}

// markChanges notes, on the context, a change that a reset cannot undo (context.changed).
function markChanges(context) {
  for (const name of ["close", "route", "routeFromHAR", "unroute", "setOffline", "addInitScript", "exposeBinding",
    "exposeFunction", "grantPermissions", "clearPermissions", "setGeolocation", "setExtraHTTPHeaders", "setHTTPCredentials"]) {
    const f = context[name];
    if (typeof f !== "function") continue;
    context[name] = (...args) => { context.changed = true; return f.apply(context, args); };
  }
  // a fake clock cannot be uninstalled (each page's page.clock is this object)
  const clock = context.clock;
  for (const name of ["install", "fastForward", "pauseAt", "resume", "runFor", "setFixedTime", "setSystemTime"]) {
    const f = clock?.[name];
    if (typeof f === "function") clock[name] = (...args) => { context.changed = true; return f.apply(clock, args); };
  }
  context.on("close", () => { context.changed = true; });
}

// keeper opens, in a new context, a page of the site that stays open as long as the context:
// Chromium then gives the pages the tests open on the site a renderer process it has already
// started, one that has compiled the engine before (V8 keeps a compiled module for the next
// instance of the same bytes): a new page is ready for ~1.9 s of CPU instead of ~3.5 s. The
// page itself is new (a new tab, its own document, sessionStorage and Go instance). Not with
// --process-per-site (~1.3 s, the suite ~12 % faster): pages sharing one renderer get their
// frames later, and checks that read the layout one frame after a view (fit-check.mjs's
// problemsHere, in lesson-walk at 1920×1080) then saw a presenter column not yet fitted. The
// keeper is an empty page of the site's origin that the server never sees (answered by a route
// of its own, with an icon, so that Chromium asks for no favicon).
async function keeper(context, siteURL) {
  const page = await context.newPage();
  const url = new URL("__keeper.html", siteURL).href;
  await page.route(url, (route) => route.fulfill({ contentType: "text/html",
    body: '<!doctype html><html lang="en"><head><title>keeper</title><link rel="icon" href="data:,"></head></html>' }));
  await page.goto(url).catch(() => {});
  return page;
}

// reset makes a context as new, for another test: its pages closed, its cookies cleared and the
// site's localStorage emptied through its keeper (an open then puts in it what its storageState
// asks for: setStorage). It answers false when it cannot (a change it cannot undo, a keeper
// closed or not answering), and the context is then closed.
async function reset(context) {
  if (context.changed || context.keeper.isClosed()) return false;
  const pages = context.pages().filter((p) => p !== context.keeper);
  // (the pages first: a page's pagehide may still write to localStorage)
  await Promise.all(pages.map((p) => p.close().catch(() => {})));
  if (!(await setStorage(context, []))) return false;
  await context.clearCookies().catch(() => {});
  return !context.changed && context.pages().length === 1;
}

// setStorage(context, items) makes the site's localStorage in the context hold exactly items
// ([{name, value}]), through its keeper page; false when the keeper does not answer.
async function setStorage(context, items) {
  const done = context.keeper.evaluate((items) => {
    localStorage.clear();
    for (const { name, value } of items) localStorage.setItem(name, value);
    return true;
  }, items).catch(() => false);
  const ok = await Promise.race([done, new Promise((r) => setTimeout(() => r(false), 15000))]);
  if (ok) context.storage = items;
  return ok;
}

// poolable(options, origin) → {contextOptions, storage}: the options a context is made with (and
// pooled by), and the site's localStorage an open asks for, which the harness puts in a pooled
// context itself (setStorage) rather than making a context for each storageState. A storageState
// with cookies or another origin's storage stays a context option. reducedMotion is "reduce"
// unless the test asks otherwise: the page then draws no change flash or bar transition and
// follows a step with an instant scroll instead of a smooth one (style.css, follow.js), the
// frames in between being work a test that is not about them need not wait for. The tests of
// the flash and of the smooth follow ask for "no-preference" (changed, stage-phone).
function poolable({ storageState, colorScheme, ...options }, origin) {
  // The viewport is the page's (setViewportSize, before it loads), not the context's, but on a
  // phone (isMobile: the page's meta viewport applies): a context at 1280×720, Playwright's
  // default, serves every desktop size; a context made costs ~4-8 s of CPU, a pooled page ~1-2 s
  let size = null;
  if (!options.isMobile && options.viewport !== null) {
    size = options.viewport || null;
    delete options.viewport;
  }
  const contextOptions = { reducedMotion: "reduce", ...options };
  // (light is playwright's default; another scheme is the page's own, emulateMedia, as a reader's
  // system setting is: the page's schemes are its style sheet's. A window the page opens, the
  // speaker window, is light unless the test emulates another scheme on it too.)
  colorScheme = colorScheme === "light" ? null : colorScheme;
  if (!storageState) return { contextOptions, storage: [], colorScheme, size };
  const origins = storageState.origins || [];
  if ((storageState.cookies || []).length || origins.some((o) => o.origin !== origin || (o.sessionStorage || []).length)) {
    return { contextOptions: { ...contextOptions, storageState }, storage: null, colorScheme, size };
  }
  return { contextOptions, storage: origins.flatMap((o) => o.localStorage || []), colorScheme, size };
}

// The page's own modules, for a test that imports one of its helpers (session/run-link.js,
// stage/follow.js): the built site holds the bundle, not the modules. serveSources(page) answers,
// on that page only, every request for SOURCES + FOLDER/NAME.js (a path of the page's own origin
// that the site never has) with the repository's web/FOLDER/NAME.js, so the page's CSP
// (script-src 'self') admits the import and the module's own relative imports (../ui/dom.js)
// resolve the same way. Such a module is a second copy, not the page's instance of it (its state
// is its own).
//   await serveSources(page);
//   await page.evaluate(() => import(new URL("__test/web/session/run-link.js", document.baseURI).href));
export const SOURCES = "__test/web/";
const sourcesServed = new WeakSet(); // pages already routed (once is enough)
export async function serveSources(page) {
  if (sourcesServed.has(page)) return;
  sourcesServed.add(page);
  await page.route((u) => u.pathname.includes("/" + SOURCES), async (route) => {
    const name = new URL(route.request().url()).pathname.split("/" + SOURCES).pop();
    const file = join(ROOT, "web", name);
    if (!/^([A-Za-z0-9_-]+\/)?[A-Za-z0-9_-]+\.js$/.test(name) || !existsSync(file)) {
      await route.fulfill({ status: 404, contentType: "text/plain", body: `no web/${name}` });
      return;
    }
    await route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body: readFileSync(file, "utf8") });
  });
}

// fileURL is the file: URL of a path under the repository (for dist/explainer-offline.html).
export function fileURL(rel) {
  return pathToFileURL(join(ROOT, rel)).href;
}
