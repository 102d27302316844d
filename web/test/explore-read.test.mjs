// explore-read.test.mjs — explorer results read well: each outcome shows how it differs from the
// outcome nearest to it (phase, positions, the progress table, downstream rows only there or
// missing there), exactly as the engine's report says; a capped exploration says it is not
// exhaustive and marks the schedules it stopped on the way; the counts shown agree with the rows
// shown, in several built-ins and bug modes.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { openPage, byTestId } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setup();
  page = await openPage(h, "index.html#scenario=happy-path&step=0");
});
after(async () => { await h?.close(); });

const fmt = (n) => Number(n).toLocaleString("en-US");

async function explore(bound) {
  await page.evaluate(() => { document.querySelector("dialog[open]")?.close(); document.activeElement?.blur(); });
  await page.keyboard.press("x");
  await byTestId(page, "explorer").waitFor();
  await byTestId(page, "explore-bound").fill(String(bound));
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 60000 });
}

/** What the explorer dialog shows, outcome by outcome. */
const shown = () => page.evaluate(() => ({
  count: document.querySelector('[data-testid="explore-count"]').textContent,
  schedules: document.querySelector('[data-testid="explore-schedules"]').textContent,
  verdict: document.querySelector('[data-testid="explore-verdict"]').textContent,
  notExhaustive: document.querySelector('[data-testid="explore-not-exhaustive"]')?.textContent ?? null,
  outcomes: [...document.querySelectorAll('[data-testid="explore-outcome"]')].map((li) => ({
    bad: li.classList.contains("bad"),
    schedules: li.querySelector('[data-testid="outcome-schedules"]').textContent,
    phase: li.querySelector('[data-testid="outcome-phase"]')?.textContent ?? null,
    unfinished: li.querySelector('[data-testid="outcome-unfinished"]')?.textContent ?? null,
    positions: li.querySelector('[data-testid="outcome-positions"]')?.textContent ?? null,
    diff: [...li.querySelectorAll('[data-testid="outcome-diff"] li')].map((x) => x.textContent),
    versus: li.querySelector('[data-testid="outcome-diff"] a')?.textContent ?? null,
    highlighted: [...li.querySelectorAll(".outcome-ds .chip.changed")].map((c) => c.textContent),
  })),
}));

/** The engine's report for the open run (the same one the worker makes). */
const report = (bound) => page.evaluate((n) => window.explainer.explore(n), bound);

for (const [name, bug] of [["happy-path", null], ["builder-fills-mid-epoch", "mark-before-drain"], ["fatal-upstream-end", null], ["rescale-mid-backfill", "no-state-write"]]) {
  test(`${name}${bug ? " under " + bug : ""}: every outcome says how it differs, as the engine found`, async () => {
    await page.evaluate(async ([name, bug]) => { await window.explainer.open(name); await window.explainer.bug(bug || "none"); }, [name, bug]);
    const r = await report(100000);
    await explore(100000);
    const s = await shown();
    assert.equal(s.notExhaustive, null, "an exhaustive search says nothing about a cap");
    assert.equal(s.count, fmt(r.outcomes.length));
    assert.equal(s.outcomes.length, r.outcomes.length, "the count is the rows shown");
    assert.equal(s.schedules, fmt(r.schedules));
    assert.equal(r.outcomes.reduce((a, o) => a + o.schedules, 0), r.schedules, "the outcomes' schedules add up");
    const bad = r.outcomes.filter((o) => o.violated).length;
    assert.equal(s.outcomes.filter((o) => o.bad).length, bad);
    if (bad) assert.match(s.verdict, new RegExp(`VIOLATED in ${bad} of the ${r.outcomes.length} outcomes`));
    r.outcomes.forEach((o, i) => {
      const row = s.outcomes[i];
      assert.equal(row.schedules, `${fmt(o.schedules)} schedule${o.schedules === 1 ? "" : "s"}`);
      assert.equal(row.phase, `ends ${o.phase}`);
      assert.equal(row.unfinished, null);
      assert.equal(row.positions, "positions " + o.diff.positions.join(" · "));
      if (r.outcomes.length > 1) {
        assert.equal(row.versus, `outcome ${o.diff.versus}`);
        assert.deepEqual(row.diff, o.diff.differs, `outcome ${i + 1}`);
        assert.ok(row.diff.some((w) => !/^downstream holds the same rows/.test(w)), `outcome ${i + 1} names what sets it apart: ${row.diff}`);
        assert.deepEqual(row.highlighted, o.diff.only_here.map((x) => `(${x.join(",")})`), `outcome ${i + 1}: the rows only there are highlighted`);
      }
    });
    // No two outcomes read the same.
    const texts = s.outcomes.map((o) => [o.phase, o.positions, ...o.diff].join("|"));
    assert.equal(new Set(texts).size, texts.length);
    h.assertNoErrors(page);
  });
}

test("a capped exploration says it is not exhaustive; it lists only the schedules it played to the end", async () => {
  await page.evaluate(async () => { await window.explainer.open("happy-path"); await window.explainer.bug("none"); });
  const r = await report(50);
  assert.equal(r.capped, true);
  await explore(50);
  const s = await shown();
  assert.match(s.notExhaustive, /^Not exhaustive\. The search stopped at the budget of 50 states/);
  assert.match(s.notExhaustive, /Raise the bound to see every schedule\.$/);
  assert.match(s.verdict, /every schedule explored \(not every schedule/);
  assert.ok(r.outcomes.length > 0, "a budget of 50 states reaches some ends of happy-path");
  assert.equal(s.outcomes.length, r.outcomes.length);
  // the search counts a schedule only once it reaches its end (states are counted on entry, and a
  // state past the budget is not explored): nothing listed is a state on the way
  assert.equal(r.outcomes.filter((o) => !o.diff.finished).length, 0);
  assert.equal(s.outcomes.filter((o) => o.unfinished).length, 0);
  assert.equal((await byTestId(page, "explore-stats").textContent()).includes("no — stopped at the budget of 50 states"), true);
  await h.screenshot(page, "explore-capped-1280", { fullPage: false });
  h.assertNoErrors(page);
});

test("at 375 px the outcomes read without sideways scrolling", async () => {
  const phone = await openPage(h, "index.html#scenario=builder-fills-mid-epoch&step=0&bug=mark-before-drain", { viewport: { width: 375, height: 740 } });
  await phone.evaluate(() => document.activeElement?.blur());
  await phone.keyboard.press("x");
  await byTestId(phone, "explore-run").click();
  await byTestId(phone, "explore-verdict").waitFor({ timeout: 60000 });
  const wide = await phone.evaluate(() => {
    const d = document.querySelector('[data-testid="explorer"]');
    return [d.scrollWidth, d.clientWidth];
  });
  assert.ok(wide[0] <= wide[1] + 1, `the dialog does not scroll sideways: ${wide}`);
  await byTestId(phone, "explore-outcome").nth(2).scrollIntoViewIfNeeded();
  await h.screenshot(phone, "explore-outcomes-375", { fullPage: false });
  h.assertNoErrors(phone);
});
