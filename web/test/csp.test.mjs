// csp.test.mjs — the page works, without a single violation, under the Content Security Policy a
// documentation site may serve it with (no inline script, style attribute or event handler; wasm
// compiled under 'wasm-unsafe-eval'; the explorer's module worker from 'self').

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate, welcomed, waitStep, text, byTestId } from "./page-helpers.mjs";

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "worker-src 'self'; connect-src 'self'; frame-ancestors *";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

test("under the CSP: steps, dialogs, the fatal panel, predict mode and the explorer's worker, with no violation", async () => {
  const page = await h.open("about:blank", { ...welcomed(h), ready: false });
  const origin = new URL(h.url).origin;
  await page.route(`${origin}/**`, async (route) => {
    const resp = await route.fetch();
    route.fulfill({ response: resp, headers: { ...resp.headers(), "content-security-policy": CSP } });
  });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await page.goto(new URL("index.html#scenario=happy-path&step=9", h.url).href);
  await page.evaluate(() => window.explainer.ready);
  await waitStep(page, 9);
  const policy = await page.evaluate(async () => (await fetch(location.href)).headers.get("content-security-policy"));
  assert.equal(policy, CSP, "the page is served with the policy");

  await byTestId(page, "predict").click();
  await page.getByRole("button", { name: /^Step forward/ }).click();
  await byTestId(page, "predict-quiz").waitFor();
  await byTestId(page, "predict-skip").click();
  await waitStep(page, 10);
  await page.getByRole("button", { name: "Inject…" }).click();
  await page.locator("#inject-dialog").getByRole("radio", { name: "Upstream end" }).click();
  await page.locator("#inject-dialog").getByRole("button", { name: "Apply" }).click();
  await waitStep(page, 11);
  await byTestId(page, "fatal").waitFor();
  await page.keyboard.press("r");
  await waitStep(page, 12);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("x");
  await byTestId(page, "explore-run").click();
  await byTestId(page, "explore-verdict").waitFor({ timeout: 30000 });
  assert.match(await text(page, "explore-verdict"), /Invariant/);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  h.assertNoErrors(page);
});
