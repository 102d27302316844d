// stopped.test.mjs — a Go runtime that stops after starting is never a dead page: the page says
// the engine stopped and offers a reload, whether it notices through go.run settling or through
// a call answering "Go program has already exited". (The test stops the runtime the way
// wasm_exec.js records an exit; the page's own code is unchanged.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, waitStep, byTestId, setupPrivate, call } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

// Keep every Go instance the page makes, so the test can stop one.
const HOOK = `;(() => { const run = globalThis.Go.prototype.run;
  globalThis.Go.prototype.run = function (i) { (globalThis.__gos ||= []).push(this); return run.call(this, i); }; })();`;

async function hooked(path) {
  const page = await h.open("about:blank", { ready: false });
  await page.route("**/web/wasm_exec.js", async (route) => {
    const resp = await route.fetch();
    route.fulfill({ response: resp, body: (await resp.text()) + HOOK });
  });
  await page.goto(new URL(path, h.url).href);
  await page.waitForFunction(() => window.explainer && window.__gos && window.__gos.length === 1);
  await page.evaluate(() => window.explainer.ready);
  await waitStep(page, 0);
  await page.evaluate(() => document.getElementById("welcome").open && document.getElementById("welcome").close());
  return page;
}

async function checkStopped(page) {
  const box = byTestId(page, "stopped");
  await box.waitFor({ state: "visible" });
  assert.match(await box.textContent(), /The engine stopped/);
  const err = await page.evaluate(() => window.explainer.step().then(() => null, (e) => e.message));
  assert.match(err, /the engine has stopped .*reload the page/);
  // Reload brings a working engine back.
  await byTestId(page, "reload").click();
  await page.waitForFunction(() => window.explainer && window.__gos && window.__gos.length === 1);
  await page.evaluate(() => window.explainer.ready);
  await page.evaluate(() => document.getElementById("welcome").open && document.getElementById("welcome").close());
  await call(page, "goto", 3);
  await waitStep(page, 3);
  assert.equal(await byTestId(page, "stopped").isVisible(), false);
}

test("the runtime exits (go.run settles): the page says so, with a reload button", async () => {
  const page = await hooked("index.html#scenario=happy-path&step=0");
  await page.evaluate(() => { const go = window.__gos[0]; go.exited = true; go._resolveExitPromise(); });
  await checkStopped(page);
});

test("a call answers 'Go program has already exited': the page says so, with a reload button", async () => {
  const page = await hooked("index.html#scenario=happy-path&step=0");
  await page.evaluate(() => { window.__gos[0].exited = true; }); // exited, but go.run has not settled
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await checkStopped(page);
});
