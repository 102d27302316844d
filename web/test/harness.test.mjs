// harness.test.mjs — the harness itself, against a trivial page of its own (so it is tested
// whatever state the real page is in): our Go server's headers as a browser sees them, waiting
// for explainer.ready (and failing when it rejects), error capture, axe finding a real violation,
// screenshots.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, mkdirSync, existsSync, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setup, waitReady } from "./harness.mjs";

let h;
let dir;

// the page's script is a file of its own: the server's Content-Security-Policy refuses inline scripts
const page = (script) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>harness</title>
<link rel="stylesheet" href="web/s.css">
<script type="module" src="web/${script}"></script></head>
<body><main><h1>harness page</h1><img src="web/dot.svg" id="no-alt"></main></body></html>`;
const pageScript = (ready) => `window.explainer = {
  ready: ${ready},
  scenarios: async () => [{ name: "fake", title: "Fake", summary: "" }],
};
`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "harness-"));
  mkdirSync(join(dir, "web"));
  writeFileSync(join(dir, "index.html"), page("ready.js"));
  writeFileSync(join(dir, "rejects.html"), page("rejects.js"));
  writeFileSync(join(dir, "web/ready.js"), pageScript("new Promise((r) => setTimeout(r, 200))"));
  writeFileSync(join(dir, "web/rejects.js"), pageScript("Promise.reject(new Error('engine broke'))"));
  writeFileSync(join(dir, "web/s.css"), "h1 { color: #222; }");
  writeFileSync(join(dir, "web/dot.svg"), "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>");
  writeFileSync(join(dir, "web/x.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  h = await setup({ dir });
});

after(async () => {
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the Go server serves with the headers the page needs", async () => {
  const wasm = await fetch(new URL("web/x.wasm", h.url));
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get("content-type"), "application/wasm");
  assert.equal(wasm.headers.get("cache-control"), "no-cache");
  const css = await fetch(new URL("web/s.css", h.url), { headers: { "accept-encoding": "gzip" } });
  assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
  assert.equal(css.headers.get("content-encoding"), "gzip");
  assert.equal(await css.text(), "h1 { color: #222; }");
  assert.equal((await fetch(new URL("web/", h.url))).status, 404, "no directory listing");
  assert.match(h.server.log(), /GET \/web\/x\.wasm 200/);
});

test("open waits for explainer.ready and the page's API works", async () => {
  const p = await h.open("index.html");
  assert.deepEqual(await p.evaluate(() => window.explainer.scenarios()), [{ name: "fake", title: "Fake", summary: "" }]);
  assert.equal(await p.evaluate(() => getComputedStyle(document.querySelector("h1")).color), "rgb(34, 34, 34)");
});

test("a rejected explainer.ready fails with the page's reason", async () => {
  const p = await h.open("rejects.html", { ready: false });
  await assert.rejects(waitReady(p, { timeoutMs: 3000 }), /explainer.ready rejected: engine broke/);
});

test("console and page errors are recorded", async () => {
  const p = await h.open("index.html");
  h.assertNoErrors(p);
  await p.evaluate(() => { console.error("boom"); setTimeout(() => { throw new Error("uncaught"); }); });
  // wait for the uncaught error to be reported (a fixed 100 ms is too short on a loaded machine)
  for (let t = 0; t < 100 && !p.errors.some((e) => e.startsWith("pageerror")); t++) await p.waitForTimeout(100);
  assert.throws(() => h.assertNoErrors(p), /console\.error: boom[\s\S]*pageerror: uncaught/);
});

test("axe reports serious and critical violations", async () => {
  const p = await h.open("index.html");
  const v = await h.axe(p);
  const alt = v.find((x) => x.id === "image-alt");
  assert.ok(alt, `expected image-alt among ${JSON.stringify(v)}`);
  assert.equal(alt.impact, "critical");
  assert.deepEqual(alt.targets, ["#no-alt"]);
  await p.evaluate(() => document.getElementById("no-alt").setAttribute("alt", "a dot"));
  assert.deepEqual(await h.axe(p), []);
});

test("screenshots land in web/test/artifacts", async () => {
  const p = await h.open("index.html", { viewport: { width: 375, height: 600 }, colorScheme: "dark" });
  const path = await h.screenshot(p, "harness self-test");
  assert.ok(path.endsWith("web/test/artifacts/harness_self-test.png"));
  assert.ok(existsSync(path) && statSync(path).size > 100);
});

test("pooled contexts: a page's localStorage is what its open asks for; a context its closed page handed back serves the next open", async () => {
  const storage = (items) => ({ storageState: { cookies: [], origins: [{ origin: new URL(h.url).origin, localStorage: items }] } });
  const read = (p) => p.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
  const a = await h.open("index.html", storage([{ name: "a", value: "1" }]));
  assert.deepEqual(await read(a), { a: "1" });
  await a.evaluate(() => localStorage.setItem("written", "by the page"));
  const context = a.context();
  await a.close();
  const b = await h.open("index.html");
  assert.equal(b.context(), context, "the same context, handed back when its page closed");
  assert.deepEqual(await read(b), {}, "nothing of the page before, nothing asked for");
  await b.close();
  const c = await h.open("index.html", storage([{ name: "c", value: "3" }]));
  assert.equal(c.context(), context);
  assert.deepEqual(await read(c), { c: "3" });
  const d = await h.open("index.html", storage([{ name: "c", value: "3" }]));
  assert.notEqual(d.context(), context, "a page open in it keeps its context to itself");
  assert.deepEqual(await read(d), { c: "3" });
});

test("pages open with reduced motion unless the test asks for motion; in the colour scheme asked for", async () => {
  const media = (p) => p.evaluate(() => ["(prefers-reduced-motion: reduce)", "(prefers-color-scheme: dark)"].map((q) => matchMedia(q).matches));
  const light = await h.open("index.html");
  assert.deepEqual(await media(light), [true, false]);
  assert.deepEqual(await media(await h.open("index.html", { reducedMotion: "no-preference" })), [false, false]);
  const context = light.context();
  await light.close();
  const dark = await h.open("index.html", { colorScheme: "dark" });
  assert.deepEqual(await media(dark), [true, true]);
  assert.equal(dark.context(), context, "light and dark pages share the pool");
});

test("a page and a window it opens have the size asked for, in a context that served another size; a phone has a context of its own", async () => {
  const size = (p) => p.evaluate(() => [innerWidth, innerHeight]);
  const wide = await h.open("index.html", { viewport: { width: 1920, height: 1080 } });
  assert.deepEqual(await size(wide), [1920, 1080]);
  const context = wide.context();
  await wide.close();
  const page = await h.open("index.html", { viewport: { width: 1100, height: 800 } });
  assert.equal(page.context(), context, "one context for both sizes");
  assert.deepEqual(await size(page), [1100, 800]);
  const [opened] = await Promise.all([context.waitForEvent("page"), page.evaluate(() => { window.open("index.html", "_blank"); })]);
  await opened.waitForLoadState();
  assert.deepEqual(await size(opened), [1100, 800], "the window the page opened");
  await opened.close();
  await page.close();
  const phone = await h.open("index.html", { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  assert.notEqual(phone.context(), context, "a phone's context is made at its size (the page's meta viewport applies)");
});
