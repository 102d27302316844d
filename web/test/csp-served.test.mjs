// csp-served.test.mjs — the explainer runs under a Content-Security-Policy with no violation: the page
// served by bin/backfill serve (which sends the policy as a header) while stepping a scenario,
// running the explorer in its Web Worker and opening the dialogs; and the offline single file
// from file:// under its own meta policy (its inline scripts and style allowed by hash). Any
// violation fails: a `securitypolicyviolation` event on the page or a "Refused to …" /
// Content Security Policy message on the console (of the page or of a worker). When the engine
// cannot start (a policy without 'wasm-unsafe-eval'), the page says so.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setup, waitReady, DIST } from "./harness.mjs";
import { welcomed, waitStep, byTestId, CSP, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setup(); });
after(async () => { await h?.close(); });

const CSP_MESSAGE = /Content.Security.Policy|Refused to (load|execute|apply|compile|create|connect|frame|evaluate)/i;

// open a new page that records every policy violation (page events, and console messages of the
// page and its workers) in page.violations.
async function openWatched(url, options = {}) {
  const page = await h.open("about:blank", { ready: false, ...options });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile || ""}:${e.lineNumber || 0})`);
    });
  });
  page.violations = [];
  page.consoleErrors = [];
  const onConsole = (where) => (msg) => {
    if (CSP_MESSAGE.test(msg.text())) page.violations.push(`${where} console: ${msg.text()}`);
    else if (msg.type() === "error") page.consoleErrors.push(`${where}: ${msg.text()}`);
  };
  page.on("console", onConsole("page"));
  page.on("worker", (w) => w.on("console", onConsole("worker")));
  page.on("pageerror", (e) => page.consoleErrors.push(`pageerror: ${e.message}`));
  const response = await page.goto(url);
  page.closeContext = () => page.close();
  return { page, response };
}

async function violations(page) {
  const inPage = await page.evaluate(() => window.__violations || []).catch(() => []);
  return [...inPage, ...page.violations];
}

test("served with the policy header: stepping, the explorer's worker and the dialogs cause no violation", async () => {
  const { page, response } = await openWatched(new URL("index.html#scenario=happy-path&step=3", h.url).href, welcomed(h));
  assert.equal(response.headers()["content-security-policy"], CSP, "the page is served under the policy");
  await waitReady(page);
  await waitStep(page, 3);
  // step through a scenario, with the narration, the lanes and the progress bars drawn
  for (let i = 0; i < 8; i++) await page.keyboard.press("ArrowRight");
  await waitStep(page, 11);
  await call(page, "open", "fatal-upstream-end");
  await call(page, "goto", 9);
  await waitStep(page, 9);
  // the dialogs: help, open, inject, then presenter and predict modes
  await page.evaluate(() => document.activeElement?.blur());
  for (const key of ["?", "o", "i"]) {
    await page.keyboard.press(key);
    await page.waitForFunction(() => !!document.querySelector("dialog[open]"), null, { timeout: 20000 })
      .catch(() => { throw new Error(`the key ${key} opened no dialog`); });
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.querySelector("dialog[open]"), null, { timeout: 20000 })
      .catch(() => { throw new Error(`Escape did not close the dialog the key ${key} opened`); });
  }
  await page.keyboard.press("p");
  await page.keyboard.press("p");
  await page.keyboard.press("f");
  await page.keyboard.press("f");
  // the explorer runs in its worker (a second engine: its own fetch and wasm compile)
  const workers = [];
  page.on("worker", (w) => workers.push(w.url()));
  await call(page, "open", "happy-path");
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 60000 });
  assert.ok(workers.some((u) => u.endsWith("/web/tools/explore-worker.js")), `workers: ${workers}`);
  assert.match(await byTestId(page, "explore-verdict").textContent(), /Invariant held in every schedule/);
  assert.deepEqual(await violations(page), [], "no policy violation");
  assert.deepEqual(page.consoleErrors, []);

  // the watch itself works: an inline script is refused and seen
  await page.evaluate(() => { const s = document.createElement("script"); s.textContent = "window.__ran = 1"; document.head.append(s); });
  await page.waitForFunction(() => window.__violations.length > 0, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.__ran), undefined, "the inline script must not have run");
  await page.closeContext();
});

test("the offline file boots from file:// under its own policy, with no violation", async () => {
  const html = readFileSync(join(DIST, "explainer-offline.html"), "utf8");
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(meta, "the offline file declares its policy");
  // five inline scripts: the wasm, wasm_exec.js, the stored views (their index and one run),
  // start.js and the modules' bundle; inline styles: the page's stylesheet, then each dialog's
  // (with uPlot's, for the scale charts), off until the dialog first opens (web/ui/sheet.js)
  const styles = (html.match(/<style[ >]/g) || []).length;
  assert.equal((html.match(/<style>/g) || []).length, 1, "the page's stylesheet");
  assert.equal((html.match(/<style media="not all" data-sheet="web\/uPlot\.min\.css">/g) || []).length, 1, "uPlot's, off");
  assert.match(meta[1], new RegExp(`^default-src 'none'; script-src ('sha256-[A-Za-z0-9+/=]+' ){5}'wasm-unsafe-eval'; style-src 'sha256-[A-Za-z0-9+/=]+'( 'sha256-[A-Za-z0-9+/=]+'){${styles - 1}};`));
  assert.ok(html.indexOf(meta[0]) < html.indexOf("<script"), "the policy comes before the first script");

  const { page } = await openWatched(pathToFileURL(join(DIST, "explainer-offline.html")).href);
  await waitReady(page);
  const steps = await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.goto(5); return window.explainer.steps(); });
  assert.ok(steps > 5);
  await waitStep(page, 5);
  await call(page, "step");
  await waitStep(page, 6);
  // the explorer runs on the page's thread here (the first-visit card is closed first)
  await page.keyboard.press("Escape");
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 60000 });
  assert.deepEqual(await violations(page), [], "no policy violation");
  assert.deepEqual(page.consoleErrors, []);
  await page.closeContext();
});

test("when the policy forbids compiling the wasm, the page says the engine could not start", async () => {
  const dir = mkdtempSync(join(tmpdir(), "csp-"));
  try {
    const html = readFileSync(join(DIST, "explainer-offline.html"), "utf8")
      .replace(/(<meta http-equiv="Content-Security-Policy" content="[^"]*) 'wasm-unsafe-eval'/, "$1");
    assert.doesNotMatch(html.slice(0, 2000), /wasm-unsafe-eval/);
    const file = join(dir, "offline.html");
    writeFileSync(file, html);
    // (the first view comes from the stored views; the page then loads the engine, which fails)
    const { page } = await openWatched(pathToFileURL(file).href);
    await page.waitForFunction(() => document.documentElement.classList.contains("load-failed"), null, { timeout: 30000 });
    const shown = await page.locator("#loading").textContent();
    assert.match(shown, /The engine could not start/);
    assert.ok((await violations(page)).length > 0, "the refused compilation is a violation the test sees");
    await page.closeContext();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
