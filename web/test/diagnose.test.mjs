// diagnose.test.mjs — "I have an error…": an engineer pastes the fatal error, picks v3.1 and reads
// what it means and where to look (not the upstream actor's logs first); picks v3.0 and is told
// that release cannot produce it and what it does instead; "Open the scenario at this step"
// opens fatal-upstream-end at step 10. Text it does not know gets the list of messages it knows.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openPage, byTestId, waitStep, text, setupPrivate } from "./page-helpers.mjs";

let h;
let page;
before(async () => {
  h = await setupPrivate();
  page = await openPage(h, "index.html#scenario=happy-path&step=2");
});
after(async () => { await h?.close(); });

const LINE = "2026-08-30T10:12:03.123Z ERROR risingwave_stream::task::actor_manager: actor exit with error actor_id=12 " +
  "error=Actor 12 exited unexpectedly: Executor error: locality provider upstream ended unexpectedly during backfill";

async function diagnose(release, paste = LINE) {
  await byTestId(page, "diagnose-text").fill(paste);
  await byTestId(page, "diagnose-release").selectOption(release);
  await byTestId(page, "diagnose-run").click();
  await page.waitForFunction((r) => {
    const a = document.querySelector('[data-testid="diagnose-answer"]');
    return a && (r === "" ? a.textContent.length > 0 : a.textContent.includes(`Release ${r}:`));
  }, release);
}

test("the fatal error under v3.1, then v3.0, then open its scenario at its step", async () => {
  await page.keyboard.press("d"); // the shortcut opens the dialog
  await byTestId(page, "diagnose").waitFor({ state: "visible" });
  const releases = await page.evaluate(() => window.explainer.view().then((v) => v.releases.map((r) => r.name)));
  assert.deepEqual(await byTestId(page, "diagnose-release").locator("option").allTextContents(),
    ["I don't know", ...releases], "every release of the registry, oldest first");

  await diagnose("v3.1");
  const v31 = await text(page, "diagnose-answer");
  assert.match(v31, /Error: locality provider upstream ended unexpectedly during backfill/);
  assert.match(v31, /Release v3\.1: v3\.1 produces it\. v3\.1 raises it in the locality provider's backfill loop/);
  assert.match(await byTestId(page, "diagnose-look").locator("li").first().textContent(), /^Not the upstream actor's logs first/);
  assert.match(v31, /something polled the executor after a Stop barrier or fed it a non-standard stream/);
  assert.match(v31, /actor_id = 12/);

  await diagnose("v3.0");
  assert.match(await text(page, "diagnose-statement"), /^Release v3\.0: v3\.0 cannot produce this message \(produced by v3\.1[^)]*\)\.$/);
  assert.match(await text(page, "diagnose-meaning"),
    /^What v3\.0 does instead: .*the upstream's end is silent: the executor reads the rest of the snapshot alone, emits it .*the actor fails with "actor exited unexpectedly"/);

  await byTestId(page, "diagnose-open").click();
  await waitStep(page, 10);
  assert.equal(await page.evaluate(() => window.explainer.view().then((v) => v.name)), "fatal-upstream-end");
  assert.equal(await page.evaluate(() => document.getElementById("diagnose-dialog").open), false);
});

test("v3.0, actor exited unexpectedly: the job is dropped and must be rerun, said before what is left behind and within the first screen; v3.1 keeps it", async () => {
  await page.evaluate(() => document.querySelector("dialog[open]")?.close());
  await byTestId(page, "diagnose-btn").click();
  await byTestId(page, "diagnose").waitFor({ state: "visible" });
  await diagnose("v3.0", "2026-08-30T10:12:03Z ERROR risingwave_stream::task::actor_manager: actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: actor exited unexpectedly");
  const job = await text(page, "diagnose-job");
  assert.match(job, /^The job: If the failed actor's job was still being created .*it is dropped by v3\.0's recovery: the CREATE fails/);
  assert.match(job, /SET BACKGROUND_DDL = true/);
  const order = await page.evaluate(() => ["diagnose-job", "diagnose-left"].map((id) =>
    document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect().top));
  assert.ok(order[0] < order[1], `the job (${order[0]}) before what is left behind (${order[1]})`);
  const box = await byTestId(page, "diagnose-job").boundingBox();
  const vh = await page.evaluate(() => innerHeight);
  assert.ok(box && box.y >= 0 && box.y < vh, `the job's answer starts within the first screen (top ${box?.y} of ${vh})`);
  await diagnose("v3.1", "2026-08-30T10:12:03Z ERROR risingwave_stream::task::actor_manager: actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: actor exited unexpectedly");
  assert.match(await text(page, "diagnose-job"), /^The job: The failed actor's job is kept: v3\.1's recovery keeps/);
  await page.keyboard.press("Escape");
});

test("text it does not know: an honest answer and the messages it knows", async () => {
  await page.evaluate(() => document.querySelector("dialog[open]")?.close());
  await byTestId(page, "diagnose-btn").click();
  await byTestId(page, "diagnose").waitFor({ state: "visible" });
  await diagnose("", "ERROR meta: connection refused \u0007");
  assert.match(await text(page, "diagnose-unknown"), /holds no message the diagnosis knows/);
  const all = await text(page, "diagnose-answer");
  assert.match(all, /exchange channel from local\|remote upstream actor N closed unexpectedly/);
  assert.match(all, /updating vnode bitmap in place is not supported \(v3\.0, v3\.1[^:]*: the locality provider at v3\.1[^;]* only/); // (and any release after)
  await page.keyboard.press("Escape");
});
