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
// Run: ./build.sh build && node --test web/test/*.test.mjs
// Name test files *.test.mjs: build.sh runs exactly those (a bare `node --test web/test/` would
// also run this module as a test file, since it sits in a test/ directory).

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

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
  await page.screenshot({ path, fullPage: true, ...options });
  return path;
}

export function assertNoErrors(page) {
  if (page.errors && page.errors.length) {
    throw new Error(`the page reported errors:\n  ${page.errors.join("\n  ")}`);
  }
}

// setup starts one server (over `dir`, default dist/) and one browser. open(path, options) opens
// path relative to the server's URL (or a file: URL as given) in a fresh context and, unless
// ready:false, waits for window.explainer.ready. Context options pass through to playwright:
// viewport, colorScheme: "dark", reducedMotion: "reduce", …
export async function setup({ dir = DIST } = {}) {
  const server = await startServer({ dir });
  let browser;
  try {
    browser = await launchBrowser({ args: TEST_ARGS });
  } catch (e) {
    await server.close();
    throw e;
  }
  const contexts = [];
  return {
    url: server.url,
    server,
    browser,
    async open(path = "index.html", { ready = true, ...contextOptions } = {}) {
      const context = await browser.newContext(contextOptions);
      contexts.push(context);
      const page = watch(await context.newPage());
      const url = /^[a-z]+:/.test(path) ? path : new URL(path, server.url).href;
      await page.goto(url);
      if (ready) await waitReady(page);
      return page;
    },
    axe,
    screenshot,
    assertNoErrors,
    serveSources,
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.close();
    },
  };
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
