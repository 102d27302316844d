// ways-in.test.mjs — the first-visit card and help offer the ways in: "I have an error…" opens the
// diagnosis, "Run a workshop" lists the built-in lessons with their length (and their plan) and
// starts one, "Look around" keeps what is open and gives the keys to Step.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, openPage, byTestId } from "./page-helpers.mjs";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

test("the first-visit card: Run a workshop lists both lessons with their length and plan, and starts one", async () => {
  const page = await h.open("index.html", { viewport: { width: 1280, height: 800 } });
  const card = page.locator("#welcome");
  await card.waitFor({ state: "visible" });
  for (const name of ["I have an error…", "Run a workshop", "Look around"]) assert.equal(await card.getByRole("button", { name }).count(), 1, name);
  await card.getByRole("button", { name: "Run a workshop" }).click();
  const items = card.locator('[data-testid="ways-lesson"]');
  await items.first().waitFor();
  const texts = await items.allInnerTexts();
  assert.equal(texts.length, 2, texts.join("\n"));
  assert.ok(texts.some((t) => /45-minute workshop/.test(t) && /45 min · 7 sections/.test(t)), texts.join("\n"));
  assert.ok(texts.some((t) => /I met this error/.test(t) && /10 min/.test(t)));
  await h.screenshot(page, "ways-in-card", { fullPage: false });
  // its plan
  await items.first().locator('[data-testid="ways-lesson-plan"]').click();
  const plan = page.locator("dialog.lesson-plan[open]");
  await plan.waitFor();
  assert.ok((await plan.locator('[data-testid="plan-section"]').count()) >= 4);
  await page.keyboard.press("Escape");
  await plan.waitFor({ state: "detached" }).catch(() => plan.waitFor({ state: "hidden" }));
  // start the workshop
  await items.filter({ hasText: "45-minute" }).locator('[data-testid="ways-lesson-start"]').click();
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get("lesson") === "workshop");
  await byTestId(page, "lesson-bar").waitFor();
  assert.equal(await page.evaluate(() => document.getElementById("welcome").open), false);
  h.assertNoErrors(page);
});

test("help: I have an error… opens the diagnosis", async () => {
  const page = await openPage(h, "index.html#scenario=happy-path&step=2");
  await page.keyboard.press("?");
  const help = page.locator("#help");
  await help.waitFor({ state: "visible" });
  await help.locator('[data-testid="ways-error"]').click();
  await page.locator("#diagnose-dialog").waitFor({ state: "visible" });
  assert.equal(await page.evaluate(() => document.getElementById("help").open), false);
  h.assertNoErrors(page);
});
