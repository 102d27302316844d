// robust-page.test.mjs — the page under hostile and careless input (issue 34's page side, and
// issue 33's links in an open tab): a file is refused by its size before it is read; the editor's
// gutter changes by the lines that changed; in an embed a bad link posts explainer:error and
// shows a notice, never the editor; the last link wins; every message shown or posted is bounded;
// a parent on another origin learns one answer for every #src= failure; a lesson link takes
// effect in an open tab; link numbers are decimal, and a fallback is said.

import { test, before, after } from "node:test";
import { createServer } from "node:http";
import assert from "node:assert/strict";
import { openPage, byTestId, waitStep, setupPrivate, welcomed } from "./page-helpers.mjs";

const BAD = "title: bad\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2}\nsteps:\n  - frobnicate: 1\n";
const BIG = "# padding\n".repeat(220000); // 2.2 MB of text: over the 1 MiB limit

let h;
before(async () => { h = await setupPrivate({ extra: { "scenarios/bad.yaml": BAD, "scenarios/big.yaml": BIG, "scenarios/redir/index.html": "x" } }); });
after(async () => { await h?.close(); });

// countReads makes the page count every read of a Blob's bytes (text, arrayBuffer, stream).
const countReads = (page) => page.evaluate(() => {
  window.__reads = 0;
  for (const m of ["text", "arrayBuffer", "stream", "bytes"]) {
    const f = Blob.prototype[m];
    if (f) Blob.prototype[m] = function (...a) { window.__reads++; return f.apply(this, a); };
  }
});

test("a file over 1 MiB is refused by its size, before it is read, naming the file (Open… and drop)", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  await countReads(page);
  await page.locator("#open-btn").click();
  await byTestId(page, "editor").waitFor({ state: "visible" });
  await page.locator("#editor-file").setInputFiles({ name: "huge.yaml", mimeType: "text/yaml", buffer: Buffer.from(BIG) });
  const err = byTestId(page, "editor-error");
  await err.waitFor({ state: "visible", timeout: 20000 });
  assert.match(await err.textContent(), /huge\.yaml.*1 MiB/);
  await page.keyboard.press("Escape");
  // dropped on the page
  await page.evaluate((size) => {
    const dt = new DataTransfer();
    dt.items.add(new File(["#".repeat(size)], "dropped.yaml", { type: "text/yaml" }));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, 2 << 20);
  await page.waitForFunction(() => /dropped\.yaml/.test(document.querySelector('[data-testid="editor-error"]')?.textContent || ""), null, { timeout: 20000 });
  assert.match(await err.textContent(), /dropped\.yaml.*1 MiB/);
  assert.equal(await page.evaluate(() => window.__reads), 0, "no byte of either file was read");
  await waitStep(page, 2); // the open scenario stays
  h.assertNoErrors(page);
});

test("the editor's gutter changes by the lines that changed, not rebuilt on every key", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await page.locator("#open-btn").click();
  const ta = byTestId(page, "editor");
  await ta.waitFor({ state: "visible" });
  await page.evaluate(() => {
    const ta = document.getElementById("editor-text");
    ta.value = Array.from({ length: 20000 }, (_, i) => `# line ${i + 1}`).join("\n");
    ta.dispatchEvent(new Event("input"));
    window.__added = 0; window.__removed = 0;
    new MutationObserver((rs) => { for (const r of rs) { window.__added += r.addedNodes.length; window.__removed += r.removedNodes.length; } })
      .observe(document.querySelector(".code-wrap .gutter"), { childList: true, subtree: true, characterData: true });
    ta.focus();
    ta.setSelectionRange(5, 5);
  });
  const counts = () => page.evaluate(() => ({ added: window.__added, removed: window.__removed, lines: document.querySelectorAll(".code-wrap .gutter .ln").length }));
  await page.keyboard.type("x");
  await page.waitForTimeout(50);
  assert.deepEqual(await counts(), { added: 0, removed: 0, lines: 20000 }, "a key within a line leaves the gutter alone");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(50);
  assert.deepEqual(await counts(), { added: 1, removed: 0, lines: 20001 }, "a new line adds one number");
  await page.keyboard.press("Backspace");
  await page.waitForTimeout(50);
  assert.deepEqual(await counts(), { added: 1, removed: 1, lines: 20000 }, "a joined line removes one");
  assert.equal(await page.evaluate(() => document.querySelector(".code-wrap .gutter .ln:last-child").textContent), "20000");
  h.assertNoErrors(page);
});

/** A parent page on another origin (a server of its own) framing src; its messages in window.__msgs. */
async function parentOf(src) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>parent</title><script>
window.__msgs = []; window.addEventListener("message", (ev) => { if (ev.data && ev.data.type) window.__msgs.push(ev.data); });
</script></head><body><iframe id="ex" title="explainer" src="${src}" width="1000" height="700"></iframe></body></html>`;
  const server = createServer((req, res) => { res.writeHead(200, { "content-type": "text/html; charset=utf-8" }); res.end(html); });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const page = await h.open(`http://127.0.0.1:${server.address().port}/docs.html`, { ready: false });
  const frame = await (await page.locator("#ex").elementHandle()).contentFrame();
  const closed = new Promise((r) => page.once("close", () => { server.close(r); server.closeAllConnections(); }));
  // (the page too: its context then serves the test's next page, harness.mjs)
  return { page, frame, close: async () => { await page.close(); await closed; } };
}

const errorsOf = (page) => page.evaluate(() => window.__msgs.filter((m) => m.type === "explainer:error"));

test("in an embed, an invalid #src file or #run posts explainer:error and shows a notice, never the editor", async () => {
  const { encodeRun } = await import("../session/run-link.js");
  const code = await encodeRun(BAD);
  for (const hash of ["#src=scenarios/bad.yaml", `#run=${code}`]) {
    const { page, frame, close } = await parentOf(`${h.url}index.html?embed=1${hash}`);
    await page.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:error"), null, { timeout: 20000 });
    await page.waitForTimeout(300);
    const errs = await errorsOf(page);
    assert.equal(errs.length, 1, hash);
    assert.ok(errs[0].message.length <= 1100, `bounded: ${errs[0].message.length}`);
    assert.equal(await frame.locator("#editor-dialog").evaluate((d) => d.open), false, `${hash}: no editor dialog in an embed`);
    const notice = frame.locator('[data-testid="embed-notice"]');
    assert.equal(await notice.isVisible(), true, hash);
    assert.equal((await page.evaluate(() => window.__msgs.filter((m) => m.type === "explainer:state"))).length, 0, `${hash}: no state for a link that failed`);
    await close();
  }
});

test("from another origin, every #src= failure gives one answer, with no credentials sent", async () => {
  const answers = [];
  for (const path of ["scenarios/bad.yaml", "scenarios/missing.yaml", "scenarios/big.yaml", "scenarios/redir"]) {
    const { page, frame, close } = await parentOf(`${h.url}index.html?embed=1#src=${path}`);
    await page.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:error"), null, { timeout: 20000 });
    const [e] = await errorsOf(page);
    const shown = (await frame.locator('[data-testid="embed-notice"]').textContent()).replace(/\s+/g, " ");
    answers.push({ message: e.message.replace(path, "PATH"), shown: shown.replace(path, "PATH") });
    await close();
  }
  for (const a of answers.slice(1)) assert.deepEqual(a, answers[0], "the same answer for every failure");
  // the request carries no cookie
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  await page.context().addCookies([{ name: "secret", value: "1", url: h.url }]);
  const cookies = [];
  page.on("request", (r) => { if (r.url().includes("scenarios/bad.yaml")) cookies.push(r.headers().cookie || ""); });
  await page.evaluate(() => { location.hash = "#src=scenarios/bad.yaml"; });
  await page.waitForFunction(() => document.getElementById("editor-dialog")?.open, null, { timeout: 20000 });
  assert.deepEqual(cookies, [""], "credentials omitted");
});

test("the last link wins: #src= then #scenario= at once shows the scenario", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=1");
  // the file answers late: the scenario link comes while it is fetched
  await page.route("**/scenarios/late.yaml", async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.fulfill({ status: 200, contentType: "text/yaml", body: BAD.replace("frobnicate: 1", "barrier: 1") });
  });
  await page.evaluate(() => { location.hash = "#src=scenarios/late.yaml"; });
  await page.waitForTimeout(50);
  await page.evaluate(() => { location.hash = "#scenario=fatal-upstream-end&step=3"; });
  await waitStep(page, 3);
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => window.explainer.view().then((v) => v.name)), "fatal-upstream-end");
  assert.match(await page.evaluate(() => location.hash), /scenario=fatal-upstream-end&step=3/);
});

test("notices are bounded: a 100 KB release and a 200 KB lesson name are not echoed whole", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  const toast = byTestId(page, "toast");
  for (const hash of [`#scenario=happy-path&step=1&release=${"v".repeat(100000)}`, `#lesson=${"l".repeat(200000)}`]) {
    await page.evaluate((x) => { document.querySelector('[data-testid="toast"]').hidden = true; location.hash = x; }, hash);
    await toast.waitFor({ state: "visible", timeout: 20000 });
    const t = await toast.textContent();
    assert.ok(t.length <= 1100, `the notice is ${t.length} characters`);
    assert.ok(!/[vl]{201}/.test(t), "the input quoted at most 200 characters");
  }
  // a message posted to a parent: a 1 MB scenario name
  const { page: parent, close } = await parentOf(`${h.url}index.html?embed=1#scenario=happy-path`);
  await parent.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:state"), null, { timeout: 20000 });
  await parent.evaluate(() => document.getElementById("ex").contentWindow.postMessage({ type: "explainer:open", scenario: "s".repeat(1 << 20) }, "*"));
  await parent.waitForFunction(() => window.__msgs.some((m) => m.type === "explainer:error"), null, { timeout: 20000 });
  const [e] = await errorsOf(parent);
  assert.ok(JSON.stringify(e).length <= 2500, `the posted error is ${JSON.stringify(e).length} characters`);
  await close();
});

test("a #lesson= link pasted into an open tab opens the lesson, and a link naming no lesson closes it", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  const lessons = await page.evaluate(() => window.explainer.lessons?.() ?? null);
  const name = (lessons && lessons[0] && lessons[0].name) || "first-backfill";
  await page.evaluate((n) => { location.hash = `#lesson=${n}&section=2`; }, name);
  await byTestId(page, "lesson-bar").waitFor({ state: "visible", timeout: 20000 });
  await page.waitForFunction(() => /Section 2 of/.test(document.querySelector('[data-testid="lesson-bar"]')?.textContent || ""));
  await page.evaluate(() => { location.hash = "#scenario=fatal-upstream-end&step=4"; });
  await waitStep(page, 4);
  await byTestId(page, "lesson-bar").waitFor({ state: "hidden", timeout: 10000 });
  h.assertNoErrors(page);
});

test("link numbers are decimal, and a lesson section or release that falls back says so", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0");
  const toast = byTestId(page, "toast");
  const lessons = await page.evaluate(() => window.explainer.lessons?.() ?? null);
  const name = (lessons && lessons[0] && lessons[0].name) || "first-backfill";
  const cases = [
    ["#scenario=happy-path&step=010", /step=010/],
    ["#scenario=happy-path&step=0x1", /step=0x1/],
    ["#scenario=happy-path&step=1e3", /step=1e3/],
    [`#lesson=${name}&section=0`, /no section 0\b/],
    [`#lesson=${name}&section=-1`, /section=-1/],
    [`#lesson=${name}&section=1e3`, /section=1e3/],
    [`#lesson=${name}&section=999`, /section 999/],
    [`#lesson=${name}&section=1&release=v9`, /v9/],
  ];
  for (const [hash, want] of cases) {
    await page.evaluate((x) => { document.querySelector('[data-testid="toast"]').hidden = true; location.hash = "#scenario=happy-path&step=0"; }, hash);
    await waitStep(page, 0);
    await page.evaluate((x) => { location.hash = x; }, hash);
    await toast.waitFor({ state: "visible", timeout: 20000 }).catch(() => {});
    assert.equal(await toast.isVisible(), true, `${hash}: a notice`);
    assert.match(await toast.textContent(), want, hash);
  }
});

/** A scale summary of n barriers (the engine's shape, workload/summary.go), made up for the panel. */
function fakeSummary(n) {
  const a = (f) => Array.from({ length: n }, (_, i) => f(i));
  return {
    title: "many barriers", phase: "forwarding", error: null, epochs: n, rows: 1000, downstream_rows: 1000, invariant: "holds",
    series: { epoch: a((i) => i + 1), phase: a((i) => (i < n / 2 ? "backfilling" : "forwarding")), buffered_rows: a((i) => i % 7),
      snapshot_rows: a((i) => i % 5), upstream_visible: a((i) => i % 3), upstream_hidden: a(() => 0),
      vnodes_completed: a((i) => Math.min(4, i)), vnodes_in_progress: a((i) => (i < 4 ? 1 : 0)) },
    progress: Array.from({ length: 4 }, () => [0, 0.5, 1]), progress_barriers: [0, Math.floor(n / 2), n - 1],
    recoveries: [], violation: null, totals: { upstream_visible: 1, upstream_hidden: 0 }, vnodes: 4, owned: 4, workload: {},
  };
}

test("the Scale panel bounds what it draws, and a failed run clears the last result with a clear error", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: 1280, height: 900 } });
  await page.evaluate((s) => { window.explainer.scale = async () => s; }, fakeSummary(9990));
  await page.locator("#scale-btn").click();
  await byTestId(page, "scale-run").click();
  await byTestId(page, "scale-charts").waitFor({ state: "visible", timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="scale-charts"] .uplot').length === 3);
  const elements = await page.evaluate(() => document.querySelector('[data-testid="scale-result"]').querySelectorAll("*").length);
  assert.ok(elements < 15000, `the result drew ${elements} elements`);
  assert.match(await byTestId(page, "scale-sampled").textContent(), /9,990 barriers: .*every 10th/);
  // a run that fails: the old charts go, the error is shown
  await page.evaluate(() => { window.explainer.scale = async () => { throw new Error("the worker's engine stopped during the run"); }; });
  await byTestId(page, "scale-run").click();
  await byTestId(page, "scale-error").waitFor({ state: "visible", timeout: 20000 });
  assert.match(await byTestId(page, "scale-error").textContent(), /engine stopped/);
  assert.equal(await page.locator('[data-testid="scale-verdict"]').count(), 0, "no verdict of the last run stays");
  h.assertNoErrors(page);
});
