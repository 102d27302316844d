// actions.test.mjs — "what can happen next": when both the upstream and the snapshot can
// deliver, the actions bar offers both; choosing the one the script does not take branches, and
// the page keeps stepping. explainer.actions() returns {id, label, step, kind} objects and the bar
// shows exactly them, in order.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, text, waitStep, stepCount, byTestId, setupPrivate } from "./page-helpers.mjs";

let h;
let shared; // the first test's page, reused by the second (each page costs an engine start)
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

/** The buttons of the actions bar as a person reads them. */
async function bar(page) {
  return page.locator('[data-testid="actions"] button').evaluateAll((bs) => bs.map((b) => ({
    kind: b.dataset.kind,
    text: (() => { const c = b.cloneNode(true); c.querySelector(".branch")?.remove(); return c.textContent.replace(/\s+/g, " ").trim(); })(),
    branch: !!b.querySelector(".branch"),
  })));
}

test("happy-path step 7: both can deliver; choosing the snapshot (a branch) applies it and the page still steps", async () => {
  const page = shared = await openPage(h, "index.html#scenario=happy-path&step=7", { keep: true });
  const acts = await page.evaluate(() => window.explainer.actions());
  assert.deepEqual(acts.map((a) => [a.id, a.kind, a.scripted]), [["next", "upstream", true], ["snapshot", "snapshot", false]]);
  assert.deepEqual(await bar(page), [
    { kind: "upstream", text: "1 upstream delivers watermark a=6", branch: false },
    { kind: "snapshot", text: "2 snapshot delivers (v1,(11,200))", branch: true },
  ]);

  // Choose the branch with a click.
  await page.locator('[data-testid="actions"] button[data-kind="snapshot"]').click();
  await waitStep(page, 8);
  const builders = await text(page, "builders");
  assert.match(builders, /v1 ?1 \/ 256 ?\+?\(11,200\)/, `builders: ${builders}`);
  assert.match(await text(page, "snapshot"), /v1 ?\(11,200\) ?▶ ?\(12,201\)/);
  // The watermark the script was about to deliver is still next.
  assert.match(await text(page, "upstream-next"), /^#9 ?next: ?watermark a = 6/);
  const afterBranch = await stepCount(page);
  assert.equal(afterBranch.step, 8);
  assert.deepEqual((await bar(page)).map((b) => b.text), ["1 upstream delivers watermark a=6", "2 snapshot delivers (v1,(12,201))"]);

  // The page still steps (button, then key), and back returns to the branch point.
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await waitStep(page, 9);
  await page.keyboard.press("ArrowRight");
  await waitStep(page, 10);
  assert.match(await text(page, "buffer"), /\+\(3,102\) ?\+\(13,202\)/);
  await page.keyboard.press("ArrowLeft");
  await waitStep(page, 9);
  assert.match(await text(page, "builders"), /v1 ?1 \/ 256/, "back stays on the branch");

  // Keep choosing with the number keys: "2" is the snapshot while the upstream has more, "1" once
  // the script has run out; the snapshot then ends and the executor completes.
  await page.keyboard.press("End");
  await waitStep(page, afterBranch.steps);
  for (let i = 0; i < 12; i++) {
    const b = await bar(page);
    const k = b.findIndex((x) => x.kind === "snapshot");
    if (k < 0) break;
    const before = (await stepCount(page)).step;
    await page.keyboard.press(String(k + 1));
    await waitStep(page, before + 1);
  }
  assert.match(await text(page, "phase"), /completing/i);
  assert.match(await text(page, "snapshot"), /no snapshot stream/);
  assert.match(await text(page, "invariant"), /invariant holds/);
  assert.equal(await byTestId(page, "toast").isVisible(), false);
  h.assertNoErrors(page);
});

test("explainer.actions() returns {id, label, step, kind}, and the bar shows them in order", async () => {
  const page = shared ?? await openPage(h, "index.html#scenario=happy-path&step=0");
  const seen = new Set();
  for (const [name, steps] of [["happy-path", [0, 6, 9, 12, 18]], ["fatal-upstream-end", [4, 10]], ["snapshot-ends-first", [5, 9]]]) {
    for (const n of steps) {
      const acts = await page.evaluate(async ([name, n]) => {
        await window.explainer.open(name);
        await window.explainer.goto(n);
        return window.explainer.actions();
      }, [name, n]);
      assert.ok(Array.isArray(acts), `${name} ${n}`);
      for (const a of acts) {
        for (const k of ["id", "label", "step", "kind"]) assert.equal(typeof a[k], "string", `${name} step ${n}: ${k} of ${JSON.stringify(a)}`);
        assert.ok(["upstream", "snapshot", "recover"].includes(a.kind), `${name} step ${n}: kind ${a.kind}`);
        seen.add(a.kind);
      }
      const shown = await bar(page);
      assert.deepEqual(shown.map((b) => b.kind), acts.map((a) => a.kind), `${name} step ${n}`);
      shown.forEach((b, i) => {
        assert.ok(b.text.includes(acts[i].label), `${name} step ${n}: "${b.text}" shows "${acts[i].label}"`);
        assert.equal(b.branch, !acts[i].scripted, `${name} step ${n}: branch tag of ${acts[i].label}`);
      });
      if (!acts.length) assert.match(await text(page, "actions"), /nothing can happen next|has ended/);
    }
  }
  assert.deepEqual([...seen].sort(), ["recover", "snapshot", "upstream"]);
  h.assertNoErrors(page);
});
