// url.test.mjs — links are unbreakable: #src= loads only a path relative to the page on its own
// origin (anything else is refused with a message saying what to do), and at most 1 MiB of it;
// #run= never inflates past 1 MiB; while a run= code is being made the address never reads a
// state that would open something else; a bad #run= on a first visit shows its error, not the
// first-visit card.
// (The one page that only encodes a run link, with the page's own module, opens without the
// engine: harness holdEngine; #src= and #run= links are the engine's.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setup, DIST, serveSources } from "./harness.mjs";
import { openPage, welcomed, text, waitStep, byTestId, call } from "./page-helpers.mjs";

const TWO = `title: Served beside the page
table: {columns: [a, id], locality: [a], stream_key: [id]}
steps:
  - barrier: 1
  - chunk: ["+ 1 100"]
`;

let h;
let dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "explainer-url-"));
  cpSync(DIST, dir, { recursive: true, filter: (src) => !src.endsWith("explainer-offline.html") });
  mkdirSync(join(dir, "lessons"));
  writeFileSync(join(dir, "lessons/two.yaml"), TWO);
  writeFileSync(join(dir, "lessons/big.yaml"), "title: big\n# " + "x".repeat(2 << 20) + "\n");
  h = await setup({ dir });
});
after(async () => { await h?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

// The toast's message, once it has been shown: read from its text, not its visibility, which an
// 8-second timer ends (on a loaded machine the page can be slower than that to let the test look).
const toast = async (page) => {
  await page.waitForFunction(() => (document.querySelector('[data-testid="toast"]')?.textContent || "").trim() !== "", null, { timeout: 30000 });
  return (await byTestId(page, "toast").textContent()).replace(/\s+/g, " ");
};

test("#src= opens a scenario file served beside the page", async () => {
  const page = await openPage(h, "index.html#src=lessons/two.yaml");
  assert.equal(await text(page, "scenario-title"), "Served beside the page");
  h.assertNoErrors(page);
});

for (const src of ["http://127.0.0.1:9/x.yaml", "https://example.org/x.yaml", "//example.org/x.yaml", "/lessons/two.yaml",
  "\\\\example.org\\x.yaml", "data:text/plain,title%3A%20x", "javascript:alert(1)"]) {
  test(`#src=${src} is refused, with what to do instead`, async () => {
    const requests = [];
    const page = await h.open(`index.html#src=${encodeURIComponent(src)}`, {
      ...welcomed(h), ready: false,
    });
    page.on("request", (r) => requests.push(r.url()));
    await page.evaluate(() => window.explainer?.ready);
    const msg = await toast(page);
    assert.match(msg, /#src takes a path relative to this page/);
    assert.match(msg, /use Open…/);
    await waitStep(page, 0);
    assert.match(await text(page, "scenario-title"), /happy path/);
    const origin = new URL(h.url).origin;
    assert.deepEqual(requests.filter((u) => !u.startsWith(origin)), [], "nothing was fetched from elsewhere");
  });
}

test("#src= reads at most 1 MiB of a file", async () => {
  const page = await h.open("index.html#src=lessons/big.yaml", welcomed(h));
  assert.match(await toast(page), /#src=lessons\/big\.yaml: the file is larger than 1 MiB/);
  await waitStep(page, 0);
  assert.match(await text(page, "scenario-title"), /happy path/);
});

test("#run= stops inflating at 1 MiB: a small link cannot inflate to megabytes", async () => {
  const first = await openPage(h, "index.html#scenario=happy-path&step=0", { engine: false });
  await serveSources(first); // run-link.js, from the repository (the site holds the bundle)
  const code = await first.evaluate(async () => {
    const { encodeRun } = await import(new URL("__test/web/session/run-link.js", document.baseURI).href);
    return encodeRun("title: x\n#" + " ".repeat(64 << 20) + "\n");
  });
  assert.ok(code.length < 100 * 1024, `the link is ${code.length} bytes`);
  const page = await h.open(`index.html#run=${code}&step=0`, welcomed(h));
  assert.match(await toast(page), /run= part inflates to more than 1 MiB/);
  assert.match(await text(page, "scenario-title"), /happy path/);
});

test("while the run= code is made, the address never names a state that opens something else", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=6");
  await page.evaluate(() => {
    window.__hashes = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (s, t, u) => { window.__hashes.push(String(u)); return replace(s, t, u); };
    const poll = () => { window.__hashes.push(location.hash); if (window.__polling) setTimeout(poll, 0); };
    window.__polling = true;
    poll();
  });
  await call(page, "apply", "snapshot: 1"); // a branch: the link must become run=
  await page.waitForFunction(() => /run=/.test(location.hash), null, { timeout: 10000 });
  await call(page, "step");
  await page.waitForFunction(() => /run=.*step=8/.test(location.hash));
  const hashes = await page.evaluate(() => { window.__polling = false; return [...new Set(window.__hashes)]; });
  for (const hash of hashes) {
    assert.ok(hash === "#scenario=happy-path&step=6" || /^#run=[A-Za-z0-9_-]+&step=\d+$/.test(hash), `the address read ${hash}`);
  }
  h.assertNoErrors(page);
});

test("a bad #run= link on a first visit shows its error, not the first-visit card", async () => {
  const page = await h.open("index.html#run=not-a-real-code&step=2");
  assert.match(await toast(page), /damaged/);
  assert.equal(await page.evaluate(() => document.getElementById("welcome").open), false);
  assert.match(await text(page, "scenario-title"), /happy path/);
});
