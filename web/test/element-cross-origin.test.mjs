// element-cross-origin.test.mjs — <backfill-explainer> on a documentation site of another
// origin, as on a GitHub-Pages-like host: the explainer served by `backfill serve` on one port of
// 127.0.0.1, the docs page by a second server on another port, loading
// http://127.0.0.1:PORT/web/element.js as a module script (fetched in CORS mode: it loads only
// because the explainer's server sends Access-Control-Allow-Origin: * with it). The element
// opens its frame, the engine answers in it, and it steps when the page changes `step`. The docs
// page runs under a policy that names the explainer's origin for scripts and frames (README,
// "Embeds on another origin").

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { setupPrivate, welcomed } from "./page-helpers.mjs";

let h, docs, docsURL;
before(async () => {
  h = await setupPrivate();
  const explainer = new URL(h.url).origin;
  const page = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs on another origin</title>' +
    '<link rel="icon" href="data:,">' +
    `<script type="module" src="${explainer}/web/element.js"></script></head>` +
    '<body><main><h1>Backfill</h1><backfill-explainer id="x" scenario="happy-path" step="3"></backfill-explainer></main></body></html>';
  docs = createServer((req, res) => {
    if (req.url !== "/docs.html") { res.writeHead(404).end("not found"); return; }
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'self'; img-src 'self' data:; script-src 'self' ${explainer}; frame-src ${explainer}`,
    }).end(page);
  });
  await new Promise((resolve) => docs.listen(0, "127.0.0.1", resolve));
  docsURL = `http://127.0.0.1:${docs.address().port}/docs.html`;
  assert.notEqual(new URL(docsURL).origin, explainer, "two origins");
});
after(async () => {
  await h?.close();
  await new Promise((resolve) => (docs ? docs.close(resolve) : resolve()));
});

test("the element loads from another origin and steps", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false, viewport: { width: 1100, height: 800 } });
  const responses = [], failed = [];
  page.on("response", (r) => responses.push(r));
  page.on("requestfailed", (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
  await page.addInitScript(() => {
    window.__states = [];
    document.addEventListener("explainer-state", (e) => window.__states.push(e.detail));
  });
  await page.goto(docsURL);
  const element = responses.find((r) => r.url().endsWith("/web/element.js"));
  assert.ok(element, `element.js reached the docs page (failed requests: ${failed.join("; ") || "none"})`);
  assert.equal(element.status(), 200);
  assert.equal((await element.allHeaders())["access-control-allow-origin"], "*");

  const waitStep = async (step) => {
    try {
      await page.waitForFunction((step) => window.__states.some((s) => s.step === step && s.scenario === "happy-path"), step, { timeout: 30000 });
    } catch {
      throw new Error(`no explainer-state at step ${step}: ${JSON.stringify(await page.evaluate(() => window.__states))}`);
    }
  };
  await waitStep(3);
  const frame = await (await page.$("backfill-explainer iframe")).contentFrame();
  assert.equal(new URL(frame.url()).origin, new URL(h.url).origin, "the frame is the explainer's own page");
  assert.equal(await frame.evaluate(async () => (await window.explainer.ready, (await window.explainer.state()).step)), 3);

  await page.evaluate(() => document.getElementById("x").setAttribute("step", "5"));
  await waitStep(5);
  assert.equal(await frame.evaluate(async () => (await window.explainer.state()).step), 5);
  h.assertNoErrors(page);
});
