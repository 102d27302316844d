// keys.test.mjs — no traps: every key of the help works wherever focus is (the page, the stage, a
// header button, the scenario picker, the timeline slider, a glossary term, the output log),
// except where a focused control needs it itself (Space on a button, ↑/↓ and Space on a select)
// and in text fields; after a choice in a dropdown (the scenario picker, by pointer or by arrow
// key; the speed; the bug menu; the compare select) the arrows and Space step and play again.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, stepCount, byTestId, waitStep, setupPrivate, call, waitView } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=3");
});
after(async () => { await h?.close(); });

const at = async (name, n) => {
  await page.evaluate(async ([name, n]) => {
    document.querySelector("dialog[open]")?.close();
    if ((await window.explainer.view()).name !== name) await window.explainer.open(name);
    await window.explainer.goto(n);
  }, [name, n]);
  await waitStep(page, n);
};
const step = async () => (await stepCount(page)).step;
const playing = () => page.locator("#btn-play").getAttribute("aria-pressed");
const pressed = (id) => byTestId(page, id).getAttribute("aria-pressed");
const openDialog = () => page.evaluate(() => document.querySelector("dialog[open]")?.id ?? null);
const closeDialogs = () => page.evaluate(() => { for (const d of document.querySelectorAll("dialog[open]")) d.close(); });
const stopPlaying = async () => { if (await playing() === "true") await page.locator("#btn-play").click(); };

// Where focus can be, and how to put it there.
const PLACES = {
  "the page": () => page.evaluate(() => document.activeElement?.blur()),
  "the stage": () => page.locator("#stage").focus(),
  "a header button": () => page.locator("#open-btn").focus(),
  "the scenario picker": () => byTestId(page, "scenario-picker").focus(),
  "the timeline slider": () => page.locator("#slider").focus(),
  "a glossary term": () => page.locator("#stage .term").first().focus(),
  "the output log": () => page.locator("#outputs-box").focus(),
};
// Keys a focused control keeps: [place, key].
const NATIVE = new Set(["a header button| ", "a glossary term| ", "the scenario picker| "]);

// Each key of the help: set up, press, check, clean up.
const KEYS = [
  ["ArrowRight", async (press) => { await at("happy-path", 3); await press(); await waitStep(page, 4); }],
  ["ArrowLeft", async (press) => { await at("happy-path", 3); await press(); await waitStep(page, 2); }],
  ["Home", async (press) => { await at("happy-path", 3); await press(); await waitStep(page, 0); }],
  ["End", async (press) => { await at("happy-path", 3); await press(); await waitStep(page, 18); }],
  [" ", async (press) => {
    await at("happy-path", 3);
    await press();
    assert.equal(await playing(), "true", "Space plays");
    await stopPlaying();
  }],
  ["1", async (press) => { await at("happy-path", 6); await press(); await waitStep(page, 7); }],
  ["r", async (press) => {
    await at("fatal-upstream-end", 10);
    await press();
    await waitStep(page, 11);
    assert.match(await page.locator('[data-testid="phase"]').textContent(), /starting/i);
  }],
  ["i", async (press) => { await at("happy-path", 3); await press(); assert.equal(await openDialog(), "inject-dialog"); await closeDialogs(); }],
  ["o", async (press) => { await at("happy-path", 3); await press(); assert.equal(await openDialog(), "editor-dialog"); await closeDialogs(); }],
  ["?", async (press) => { await at("happy-path", 3); await press(); assert.equal(await openDialog(), "help"); await closeDialogs(); }],
  ["x", async (press) => { await at("happy-path", 3); await press(); assert.equal(await openDialog(), "explorer-dialog"); await closeDialogs(); }],
  ["b", async (press) => {
    await at("happy-path", 3);
    await press();
    assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "true");
    await page.keyboard.press("Escape");
  }],
  ["f", async (press) => {
    const was = await pressed("predict");
    await press();
    assert.notEqual(await pressed("predict"), was);
    await byTestId(page, "predict").click();
  }],
  ["p", async (press) => {
    const was = await pressed("presenter");
    await press();
    assert.notEqual(await pressed("presenter"), was);
    // back as it was: presenter mode hides the header (its toggle with it) and shows its own Exit
    await byTestId(page, was === "true" ? "presenter" : "presenter-exit").click();
  }],
];

for (const [place, focus] of Object.entries(PLACES)) {
  test(`every key of the help works from ${place}`, async () => {
    for (const [key, check] of KEYS) {
      if (NATIVE.has(`${place}|${key}`)) continue;
      await check(async () => { await focus(); await page.keyboard.press(key); });
    }
    // PageDown / PageUp step in presenter mode (the slider keeps them: they move it by a page)
    if (place !== "the timeline slider") {
      await at("happy-path", 3);
      await byTestId(page, "presenter").click();
      await focus(); await page.keyboard.press("PageDown"); await waitStep(page, 4);
      await focus(); await page.keyboard.press("PageUp"); await waitStep(page, 3);
      await byTestId(page, "presenter-exit").click(); // the header (and its toggle) is hidden while presenting
    }
    h.assertNoErrors(page);
  });
}

test("a focused button keeps Space; a select keeps ↑/↓; a text field keeps every key", async () => {
  await at("happy-path", 3);
  await page.locator("#btn-step").focus();
  await page.keyboard.press(" ");
  await waitStep(page, 4);
  assert.equal(await playing(), "false", "Space pressed the Step button, it did not play");
  await page.keyboard.press("o");
  const editor = byTestId(page, "editor");
  await editor.waitFor();
  await editor.focus();
  await page.keyboard.press("End");
  await page.keyboard.type(" r1?x");
  assert.match(await editor.inputValue(), / r1\?x$/, "the keys typed into the editor");
  await closeDialogs();
  assert.equal(await step(), 4);
  h.assertNoErrors(page);
});

/** After a choice: the arrows step and Space plays (and focus is on the stage). */
async function keysWorkAgain(why) {
  // (the page gives the focus back from a task of its own, right after the choice: wait for it)
  await page.waitForFunction(() => document.activeElement?.id === "stage", null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.evaluate(() => document.activeElement?.id), "stage", `${why}: focus is back on the stage`);
  const n = await step();
  await page.keyboard.press("ArrowRight");
  await waitStep(page, n + 1);
  await page.keyboard.press("ArrowLeft");
  await waitStep(page, n);
  await page.keyboard.press(" ");
  assert.equal(await playing(), "true", `${why}: Space plays`);
  await page.keyboard.press(" ");
  assert.equal(await playing(), "false", `${why}: Space pauses`);
}

test("after choosing a scenario from the picker (pointer, then arrow key), the keys step and play again", async () => {
  await at("happy-path", 3);
  await byTestId(page, "scenario-picker").selectOption("builder-fills-mid-epoch");
  await waitView(page, (v) => v.name === "builder-fills-mid-epoch");
  await keysWorkAgain("picker by pointer");
  await byTestId(page, "scenario-picker").focus();
  await page.keyboard.press("ArrowDown"); // chooses the next scenario at once
  await waitView(page, (v) => v.name !== "builder-fills-mid-epoch");
  await keysWorkAgain("picker by arrow key");
  h.assertNoErrors(page);
});

test("after choosing a speed, the keys step and play again", async () => {
  await at("happy-path", 3);
  await page.locator("#speed").selectOption("2400");
  await keysWorkAgain("speed");
  await page.locator("#speed").selectOption("1200");
  h.assertNoErrors(page);
});

test("after choosing a bug mode (pointer, then keyboard), the menu closes and the keys step and play again", async () => {
  await at("happy-path", 3);
  await byTestId(page, "bug-menu").click();
  await page.locator('.popover input[data-bug="mark-before-drain"]').check();
  await waitView(page, (v) => v.bug?.name === "mark-before-drain");
  assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "false");
  await keysWorkAgain("bug menu by pointer");
  // by keyboard: b opens it on the mode that is on, ↓ chooses the next one, Enter closes it
  await page.keyboard.press("b");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.bug), "mark-before-drain");
  await page.keyboard.press("ArrowDown");
  await waitView(page, (v) => v.bug?.name === "mark-on-arrival");
  assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "true", "the arrows choose within the menu");
  await page.keyboard.press("Enter");
  assert.equal(await byTestId(page, "bug-menu").getAttribute("aria-expanded"), "false");
  await keysWorkAgain("bug menu by keyboard");
  await call(page, "bug", "none");
  h.assertNoErrors(page);
});

test("after choosing in the compare dialog's select and closing it, the keys step and play again", async () => {
  await at("happy-path", 3);
  await byTestId(page, "bug-menu").click();
  await byTestId(page, "compare-bug-btn").click();
  await byTestId(page, "compare-stages").waitFor();
  await byTestId(page, "compare-bug-select").selectOption("emit-beyond-pos");
  await page.waitForFunction(() => /emit-beyond-pos/.test(document.querySelector('[data-testid="compare-right"] .cmp-side-label')?.textContent || ""));
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("dialog[open]"));
  await page.waitForTimeout(50);
  await keysWorkAgain("compare select");
  h.assertNoErrors(page);
});

test("a key pressed the moment Escape closed a dialog works: the focus still in the closed dialog's field does not take it", async () => {
  await at("happy-path", 3);
  // (each key's target: in which dialog, if any)
  await page.evaluate(() => { window.__targets = []; document.addEventListener("keydown", (e) => window.__targets.push(e.target.closest?.("dialog")?.id ?? null), { capture: true }); });
  for (const [key, id] of [["o", "editor-dialog"], ["i", "inject-dialog"]]) {
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press(key);
    await page.waitForFunction((id) => document.querySelector("dialog[open]")?.id === id && document.activeElement?.closest("dialog") !== null, id);
    // Escape, then at once a shortcut: the browser has not moved the focus out of the closed
    // dialog yet, so the key's target is the field that was focused in it
    await page.evaluate(() => { window.__targets = []; });
    await page.keyboard.press("Escape");
    await page.keyboard.press("?");
    await page.waitForFunction(() => document.querySelector("dialog[open]")?.id === "help", null, { timeout: 10000 })
      .catch(async () => { throw new Error(`? right after closing ${id} opened ${await openDialog()} (key targets: ${JSON.stringify(await page.evaluate(() => window.__targets))})`); });
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.querySelector("dialog[open]"));
  }
  h.assertNoErrors(page);
});
